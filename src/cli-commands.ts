import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { z } from 'zod';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import type { ProvisioningService } from './modules/core/provisioning/provisioning.service.js';

// Each command loads what it needs when it runs, and nothing at all for --help and --version:
// loading the whole app (every module, the embedded database) took seconds of each call.

export const USAGE = `usage: media-publishing-service <command>

  media create --name <name> --locales <en,fr> [--default-locale <en>] [--json]
      a media with its workspace "main", its statuses and a first admin key: the key is the first
      line, printed only this once (media create ... | head -1 prints the key alone)
  media list [--limit <1-100>] [--after <cursor>] [--json]
  key create --media <media id> [--name <name>] [--role <role>] [--json]
      a Backoffice key of that media (role admin unless given): the key first, printed only this once
  key list --media <media id> [--limit <1-100>] [--after <cursor>] [--json]
      the media's keys, newest first, revoked ones too (never their secrets)
  key revoke <key id>
  db migrate
      applies the pending migrations
  openapi
      writes the OpenAPI document to stdout (with the operator API when OPERATOR_API_KEY is set)
  --version
      the service's version

Locales are language codes in any case (fr-ch, EN), kept as BCP 47 writes them (fr-CH, en).
--json prints the API's wire shape on one line.

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

// Once a reader has closed the pipe (`| head -1`), what is left to print has nowhere to go (cli.ts).
const stdio: Io = {
  out: (line) => void (process.stdout.writable && process.stdout.write(`${line}\n`)),
  err: (line) => void (process.stderr.writable && process.stderr.write(`${line}\n`)),
};

/** The API field each flag of a command sets: an error about a field names its flag. */
type Flags = Record<string, string>;

interface Command {
  flags: Flags;
  run: (args: string[], io: Io, config: Config) => Promise<void>;
}

const firstLower = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** Validates a command's input with the same schema as the operator API, naming the flag at fault. */
function parseInput<S extends z.ZodType>(schema: S, input: Record<string, unknown>, flags: Flags): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = String(issue.path[0] ?? '');
  const missing = input[field] === undefined;
  throw new UsageError(`${flags[field] ?? field} ${missing ? 'is required' : firstLower(issue.message)}`);
}

const list = (value: string | undefined) => value?.split(',').map((s) => s.trim()).filter(Boolean);

/**
 * Opens the database the server uses and applies the pending migrations, as the server does at
 * start; closes it after `work`, which learns how many were applied.
 */
async function withDatabase<T>(config: Config, work: (database: Database, applied: number) => Promise<T>): Promise<T> {
  const [{ createDatabase }, { migrate }, { withStartupLock }] = await Promise.all([
    import('./db/client.js'),
    import('./db/migrate.js'),
    import('./db/startup-lock.js'),
  ]);
  const database = await createDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.databaseUrl ? undefined : join(config.dataDir, 'pglite'),
    shortLived: true,
  });
  try {
    return await work(database, await withStartupLock(database, () => migrate(database)));
  } finally {
    await database.close();
  }
}

/** The operator's services (medias and their keys) over the migrated database, and nothing else of the app. */
async function withProvisioning<T>(config: Config, work: (provisioning: ProvisioningService) => Promise<T>): Promise<T> {
  const [{ pino }, { serviceSecret }, { Paginator }, { createStandaloneProvisioning }] = await Promise.all([
    import('pino'),
    import('./db/secrets.js'),
    import('./shared/paging.js'),
    import('./modules/core/provisioning/provisioning.module.js'),
  ]);
  return withDatabase(config, async (database) => {
    // Warnings only, and never on stdout: that is the command's answer.
    const logger = pino({ level: 'warn', base: { service: 'media-publishing-service' } }, pino.destination(2));
    const pager = new Paginator(await serviceSecret(database.db, 'cursor_hmac_key'));
    return work(createStandaloneProvisioning({ db: database.db, pager, logger }));
  });
}

/** Rows as columns two spaces apart; the last column (free text) is not padded. */
function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => (i < r.length - 1 ? cell.padEnd(widths[i]!) : cell)).join('  '));
}

const mediaCreate: Command = {
  flags: { name: '--name', locales: '--locales', default_locale: '--default-locale' },
  async run(args, io, config) {
    const { values } = parseArgs({
      args,
      options: { name: { type: 'string' }, locales: { type: 'string' }, 'default-locale': { type: 'string' }, json: { type: 'boolean' } },
    });
    const [{ mediaCreateBody }, { toMedia }, { toApiKey }] = await Promise.all([
      import('./modules/core/provisioning/provisioning.schemas.js'),
      import('./modules/core/tenancy/tenancy.mappers.js'),
      import('./modules/core/api-keys/api-keys.mappers.js'),
    ]);
    const body = parseInput(
      mediaCreateBody,
      { name: values.name, locales: list(values.locales), ...(values['default-locale'] && { default_locale: values['default-locale'] }) },
      this.flags,
    );
    const { media, adminKey } = await withProvisioning(config, (p) =>
      p.createMedia({ name: body.name, locales: body.locales, defaultLocale: body.default_locale }),
    );
    if (values.json) return io.out(JSON.stringify({ media: toMedia(media), admin_key: { ...toApiKey(adminKey.row), key: adminKey.secret } }));
    // The key first: it is shown only this once, and a reader that keeps one line (`| head -1`) keeps it.
    io.out(adminKey.secret);
    io.out(`created media ${media.id} "${media.name}" (locales ${media.locales.join(', ')}; default ${media.defaultLocale})`);
    io.out(`admin key ${adminKey.row.id}: the key above, shown only this once`);
  },
};

const mediaList: Command = {
  flags: { limit: '--limit', after: '--after' },
  async run(args, io, config) {
    const { values } = parseArgs({ args, options: { limit: { type: 'string' }, after: { type: 'string' }, json: { type: 'boolean' } } });
    const [{ pagingQuery }, { toMedia }] = await Promise.all([import('./shared/schemas.js'), import('./modules/core/tenancy/tenancy.mappers.js')]);
    const query = parseInput(pagingQuery, { limit: values.limit, after: values.after }, this.flags);
    const page = await withProvisioning(config, (p) => p.listMedia(query));
    const data = page.items.map(toMedia);
    if (values.json) return io.out(JSON.stringify({ data, next: page.next }));
    for (const m of data) io.out(`${m.id}  ${m.locales.join(',')} (default ${m.default_locale})  ${m.name}`);
    if (data.length === 0) io.out('no media yet');
    if (page.next) io.out(`more: media list --after ${page.next}`);
  },
};

const keyCreate: Command = {
  flags: { media: '--media', name: '--name', role: '--role' },
  async run(args, io, config) {
    const { values } = parseArgs({
      args,
      options: { media: { type: 'string' }, name: { type: 'string' }, role: { type: 'string' }, json: { type: 'boolean' } },
    });
    const [{ z }, { uuid }, { apiKeyCreateBody }, { toApiKey }] = await Promise.all([
      import('zod'),
      import('./shared/schemas.js'),
      import('./modules/core/api-keys/api-keys.schemas.js'),
      import('./modules/core/api-keys/api-keys.mappers.js'),
    ]);
    const mediaId = parseInput(z.object({ media: uuid }), { media: values.media }, this.flags).media;
    const body = parseInput(apiKeyCreateBody, { name: values.name ?? 'admin', role: values.role ?? 'admin' }, this.flags);
    const { row, secret } = await withProvisioning(config, (p) => p.createKey(mediaId, body));
    if (values.json) return io.out(JSON.stringify({ ...toApiKey(row), key: secret }));
    io.out(secret);
    io.out(`created key ${row.id} "${row.name}" (role ${row.role}) of media ${row.mediaId}: the key above, shown only this once`);
  },
};

const keyList: Command = {
  flags: { media: '--media', limit: '--limit', after: '--after' },
  async run(args, io, config) {
    const { values } = parseArgs({
      args,
      options: { media: { type: 'string' }, limit: { type: 'string' }, after: { type: 'string' }, json: { type: 'boolean' } },
    });
    const [{ z }, { pagingQuery, uuid }, { toApiKey }] = await Promise.all([
      import('zod'),
      import('./shared/schemas.js'),
      import('./modules/core/api-keys/api-keys.mappers.js'),
    ]);
    const mediaId = parseInput(z.object({ media: uuid }), { media: values.media }, this.flags).media;
    const query = parseInput(pagingQuery, { limit: values.limit, after: values.after }, this.flags);
    const page = await withProvisioning(config, (p) => p.listKeys(mediaId, query));
    const data = page.items.map(toApiKey);
    if (values.json) return io.out(JSON.stringify({ data, next: page.next }));
    if (data.length === 0) io.out('no keys');
    else {
      const now = new Date().toISOString();
      const state = (k: (typeof data)[number]) =>
        k.revoked_at ? `revoked ${k.revoked_at}` : !k.expires_at ? 'live' : k.expires_at <= now ? `expired ${k.expires_at}` : `expires ${k.expires_at}`;
      const rows = data.map((k) => [k.id, k.prefix, k.role, state(k), k.last_used_at ?? 'never', k.name]);
      for (const line of table([['ID', 'PREFIX', 'ROLE', 'STATE', 'LAST USED', 'NAME'], ...rows])) io.out(line);
    }
    if (page.next) io.out(`more: key list --media ${mediaId} --after ${page.next}`);
  },
};

const keyRevoke: Command = {
  flags: {},
  async run(args, io, config) {
    const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
    if (positionals.length !== 1) throw new UsageError('key revoke takes one key id');
    const [{ z }, { uuid }] = await Promise.all([import('zod'), import('./shared/schemas.js')]);
    const id = parseInput(z.object({ id: uuid }), { id: positionals[0] }, { id: '<key id>' }).id;
    const row = await withProvisioning(config, (p) => p.revokeKey(id));
    io.out(`revoked key ${row.id} of media ${row.mediaId} (at ${row.revokedAt!.toISOString()})`);
  },
};

const dbMigrate: Command = {
  flags: {},
  async run(args, io, config) {
    parseArgs({ args, options: {} });
    await withDatabase(config, async (database, applied) => io.out(`migrations applied: ${applied} (${database.kind})`));
  },
};

const openapi: Command = {
  flags: {},
  async run(args, io, config) {
    parseArgs({ args, options: {} });
    // The document is the routes' and their schemas', not the data's: the app is built over a pool
    // that never connects (a query would fail: nothing listens on port 1), never the configured
    // database, with secrets of its own (it signs nothing) and a job runner that does not look for
    // work. An embedded database here would run initdb and every migration for a document that reads no data.
    const [{ buildApp }, { createDatabase }] = await Promise.all([import('./app.js'), import('./db/client.js')]);
    const database = await createDatabase({ databaseUrl: 'postgres://openapi@127.0.0.1:1/none' });
    const app = await buildApp({ config: { ...config, logLevel: 'silent' }, database, secret: async () => randomBytes(32), findWork: false });
    try {
      await app.ready();
      io.out(JSON.stringify(app.swagger(), null, 2));
    } finally {
      await app.close();
    }
  },
};

const COMMANDS: Record<string, Command> = {
  'media create': mediaCreate,
  'media list': mediaList,
  'key create': keyCreate,
  'key list': keyList,
  'key revoke': keyRevoke,
  'db migrate': dbMigrate,
  openapi,
};

/** The package's version (package.json is beside src/ and dist/ alike). */
const version = () => (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** The one line an error of a command prints: an API field it names is the flag that set it. */
async function failureLine(name: string, command: Command, err: unknown, config: Config | undefined): Promise<string> {
  const [{ ConfigError }, { AppError }, { DataDirLockedError }, { describeDatabaseError, oneLine }] = await Promise.all([
    import('./config.js'),
    import('./shared/errors.js'),
    import('./db/data-dir-lock.js'),
    import('./db/database-errors.js'),
  ]);
  if (err instanceof ConfigError) return err.message;
  if (err instanceof DataDirLockedError) {
    return `${err.message} (the embedded database serves one process: stop the server, or use /operator/v1 while it runs)`;
  }
  if (err instanceof AppError) {
    const flagOf = (path: string) => command.flags[path.split('.')[0]!] ?? path;
    const details = err.details?.map((d) => `${flagOf(d.path)} ${d.message}`).join('; ');
    return `${name}: ${details || err.message} (${err.code})`;
  }
  return `${name} failed: ${describeDatabaseError(err, config?.databaseUrl) ?? oneLine(err)}`;
}

/** Runs one command; answers the exit code (0 done, 1 failed, 2 wrong command line). */
export async function runCli(argv: string[], io: Io = stdio, env: Record<string, string | undefined> = process.env): Promise<number> {
  const [first, second] = argv;
  if (!first || first === '--help' || first === '-h' || first === 'help') {
    (first ? io.out : io.err)(USAGE);
    return first ? 0 : 2;
  }
  if (first === '--version' || first === '-v') {
    io.out(version());
    return 0;
  }
  const name = COMMANDS[first] ? first : `${first} ${second ?? ''}`.trim();
  const command = COMMANDS[name];
  if (!command) {
    io.err(`unknown command: ${name} (media-publishing-service --help shows every command)`);
    return 2;
  }
  let config: Config | undefined;
  try {
    config = (await import('./config.js')).loadConfig(env);
    await command.run(argv.slice(name.split(' ').length), io, config);
    return 0;
  } catch (err) {
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`${name}: ${(err as Error).message} (media-publishing-service --help shows every command)`);
      return 2;
    }
    io.err(await failureLine(name, command, err, config));
    return 1;
  }
}
