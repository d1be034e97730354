import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { z } from 'zod';
import { type Config, ConfigError, loadConfig } from './config.js';
import { createServices } from './container.js';
import { type Database, createDatabase } from './db/client.js';
import { DataDirLockedError } from './db/data-dir-lock.js';
import { describeDatabaseError, oneLine } from './db/database-errors.js';
import { migrate } from './db/migrate.js';
import { withStartupLock } from './db/startup-lock.js';
import { toApiKey } from './modules/core/api-keys/api-keys.mappers.js';
import { apiKeyCreateBody } from './modules/core/api-keys/api-keys.schemas.js';
import { mediaCreateBody } from './modules/core/provisioning/provisioning.schemas.js';
import { toMedia } from './modules/core/tenancy/tenancy.mappers.js';
import { AppError } from './shared/errors.js';
import { pagingQuery, uuid } from './shared/schemas.js';

export const USAGE = `usage: media-publishing-service <command>

  media create --name <name> --locales <en,fr> [--default-locale <en>] [--json]
      a media with its workspace "main", its statuses and a first admin key, printed once
  media list [--limit <1-100>] [--after <cursor>] [--json]
  key create --media <media id> [--name <name>] [--role <role>] [--json]
      a Backoffice key of that media (role admin unless given), printed once
  key revoke <key id>
  db migrate
      applies the pending migrations
  openapi
      writes the OpenAPI document to stdout (with the operator API when OPERATOR_API_KEY is set)

Configuration is the server's: the environment, then ./.env (DATABASE_URL, or DATA_DIR for the
embedded database). The data commands apply pending migrations first, as the server does at start.
On the embedded database they need the server stopped; while it runs, use /operator/v1.`;

/** A wrong command line: the usage follows the message, exit code 2. */
class UsageError extends Error {}

type Out = (line: string) => void;

interface Io {
  out: Out;
  err: Out;
}

const stdio: Io = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** Validates a command's input with the same schema as the operator API, naming the flag at fault. */
function parseInput<S extends z.ZodType>(schema: S, input: unknown, flags: Record<string, string>): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = String(issue.path[0] ?? '');
  const missing = (input as Record<string, unknown>)[field] === undefined;
  throw new UsageError(`${flags[field] ?? field} ${missing ? 'is required' : issue.message.toLowerCase()}`);
}

const list = (value: string | undefined) => value?.split(',').map((s) => s.trim()).filter(Boolean);

/** Opens the database the server uses, migrated; closes it after `work`. */
async function withServices<T>(config: Config, work: (services: Awaited<ReturnType<typeof createServices>>) => Promise<T>): Promise<T> {
  const database = await openDatabase(config);
  try {
    await withStartupLock(database, () => migrate(database));
    // Warnings only, and never on stdout: that is the command's answer.
    const logger = pino({ level: 'warn', base: { service: 'media-publishing-service' } }, pino.destination(2));
    return await work(await createServices({ db: database.db, logger }));
  } finally {
    await database.close();
  }
}

const openDatabase = (config: Config): Promise<Database> =>
  createDatabase({ databaseUrl: config.databaseUrl, dataDir: config.databaseUrl ? undefined : join(config.dataDir, 'pglite') });

async function mediaCreate(args: string[], io: Io, config: Config) {
  const { values } = parseArgs({
    args,
    options: { name: { type: 'string' }, locales: { type: 'string' }, 'default-locale': { type: 'string' }, json: { type: 'boolean' } },
  });
  const body = parseInput(
    mediaCreateBody,
    { name: values.name, locales: list(values.locales), ...(values['default-locale'] && { default_locale: values['default-locale'] }) },
    { name: '--name', locales: '--locales', default_locale: '--default-locale' },
  );
  const { media, adminKey } = await withServices(config, (s) =>
    s.core.provisioning.createMedia({ name: body.name, locales: body.locales, defaultLocale: body.default_locale }),
  );
  const wire = { media: toMedia(media), admin_key: { ...toApiKey(adminKey.row), key: adminKey.secret } };
  if (values.json) return io.out(JSON.stringify(wire));
  io.out(`created media ${media.id} "${media.name}" (locales ${media.locales.join(', ')}; default ${media.defaultLocale})`);
  io.out(`admin key ${adminKey.row.id}, shown only this once:`);
  io.out(adminKey.secret);
}

async function mediaList(args: string[], io: Io, config: Config) {
  const { values } = parseArgs({ args, options: { limit: { type: 'string' }, after: { type: 'string' }, json: { type: 'boolean' } } });
  const query = parseInput(pagingQuery, { limit: values.limit, after: values.after }, { limit: '--limit', after: '--after' });
  const page = await withServices(config, (s) => s.core.provisioning.listMedia(query));
  const data = page.items.map(toMedia);
  if (values.json) return io.out(JSON.stringify({ data, next: page.next }));
  for (const m of data) io.out(`${m.id}  ${m.locales.join(',')} (default ${m.default_locale})  ${m.name}`);
  if (data.length === 0) io.out('no media yet');
  if (page.next) io.out(`more: media list --after ${page.next}`);
}

async function keyCreate(args: string[], io: Io, config: Config) {
  const { values } = parseArgs({
    args,
    options: { media: { type: 'string' }, name: { type: 'string' }, role: { type: 'string' }, json: { type: 'boolean' } },
  });
  const mediaId = parseInput(z.object({ media: uuid }), { media: values.media }, { media: '--media' }).media;
  const body = parseInput(apiKeyCreateBody, { name: values.name ?? 'admin', role: values.role ?? 'admin' }, { name: '--name', role: '--role' });
  const { row, secret } = await withServices(config, (s) => s.core.provisioning.createKey(mediaId, body));
  if (values.json) return io.out(JSON.stringify({ ...toApiKey(row), key: secret }));
  io.out(`created key ${row.id} "${row.name}" (role ${row.role}) of media ${row.mediaId}, shown only this once:`);
  io.out(secret);
}

async function keyRevoke(args: string[], io: Io, config: Config) {
  const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
  if (positionals.length !== 1) throw new UsageError('key revoke takes one key id');
  const id = parseInput(z.object({ id: uuid }), { id: positionals[0] }, { id: '<key id>' }).id;
  const row = await withServices(config, (s) => s.core.provisioning.revokeKey(id));
  io.out(`revoked key ${row.id} of media ${row.mediaId} (at ${row.revokedAt!.toISOString()})`);
}

async function dbMigrate(args: string[], io: Io, config: Config) {
  parseArgs({ args, options: {} });
  const database = await openDatabase(config);
  try {
    const applied = await withStartupLock(database, () => migrate(database));
    io.out(`migrations applied: ${applied} (${database.kind})`);
  } finally {
    await database.close();
  }
}

async function openapi(args: string[], io: Io, config: Config) {
  parseArgs({ args, options: {} });
  // The document is the routes' and their schemas', not the data's: the app is built over a pool
  // that never connects (a query would fail: nothing listens on port 1), never the configured
  // database, with secrets of its own (it signs nothing) and a job runner that does not look for
  // work. An embedded database here cost 6 to 9 s of CPU for initdb and the migrations.
  const { buildApp } = await import('./app.js');
  const database = await createDatabase({ databaseUrl: 'postgres://openapi@127.0.0.1:1/none' });
  const app = await buildApp({ config: { ...config, logLevel: 'silent' }, database, secret: async () => randomBytes(32), findWork: false });
  try {
    await app.ready();
    io.out(JSON.stringify(app.swagger(), null, 2));
  } finally {
    await app.close();
  }
}

const COMMANDS: Record<string, (args: string[], io: Io, config: Config) => Promise<void>> = {
  'media create': mediaCreate,
  'media list': mediaList,
  'key create': keyCreate,
  'key revoke': keyRevoke,
  'db migrate': dbMigrate,
  openapi,
};

/** Runs one command; answers the exit code (0 done, 1 failed, 2 wrong command line). */
export async function runCli(argv: string[], io: Io = stdio, env: Record<string, string | undefined> = process.env): Promise<number> {
  const [first, second] = argv;
  if (!first || first === '--help' || first === '-h' || first === 'help') {
    (first ? io.out : io.err)(USAGE);
    return first ? 0 : 2;
  }
  const name = COMMANDS[first] ? first : `${first} ${second ?? ''}`.trim();
  const command = COMMANDS[name];
  if (!command) {
    io.err(`unknown command: ${name} (media-publishing-service --help shows every command)`);
    return 2;
  }
  let config: Config | undefined;
  try {
    config = loadConfig(env);
    await command(argv.slice(name.split(' ').length), io, config);
    return 0;
  } catch (err) {
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`${name}: ${(err as Error).message} (media-publishing-service --help shows every command)`);
      return 2;
    }
    if (err instanceof ConfigError) {
      io.err(err.message);
    } else if (err instanceof DataDirLockedError) {
      io.err(`${err.message} (the embedded database serves one process: stop the server, or use /operator/v1 while it runs)`);
    } else if (err instanceof AppError) {
      const details = err.details?.map((d) => `${d.path} ${d.message}`).join('; ');
      io.err(`${name}: ${details || err.message} (${err.code})`);
    } else {
      io.err(`${name} failed: ${describeDatabaseError(err, config?.databaseUrl) ?? oneLine(err)}`);
    }
    return 1;
  }
}
