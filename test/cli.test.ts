import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { runCli } from '../src/cli-commands.js';
import { createDatabase } from '../src/db/client.js';
import { migrationsFolder } from '../src/db/migrate.js';
import { testConfig } from './setup/app.js';
import { ISO_MS, UUID } from './setup/expect.js';
import { client } from './setup/factories.js';
import { embeddedProcessTests, killSpawned, spawnNode } from './setup/processes.js';
import { onConnection, withDatabase } from './setup/global-setup.js';

// The operator CLI as an operator runs it: the package's bin, in a process (group) of its own,
// from a working directory with a .env, on an embedded database in a temporary directory.
const BIN = fileURLToPath(new URL('../bin/media-publishing-service.js', import.meta.url));
const MIGRATIONS = (JSON.parse(readFileSync(join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] }).entries.length;

const cwd = mkdtempSync(join(tmpdir(), 'mps-cli-'));
const OPERATOR_KEY = `op_${randomBytes(24).toString('hex')}`;
// Read by every command below. Its RATE_LIMIT_OPERATOR is invalid: each command runs only because
// the environment's value wins over the file's.
writeFileSync(join(cwd, '.env'), `DATA_DIR=./from-env-file\nOPERATOR_API_KEY=${OPERATOR_KEY}\nRATE_LIMIT_OPERATOR=not-a-number\n`);
const dataDir = join(cwd, 'from-env-file');
const ENV = { RATE_LIMIT_OPERATOR: '5' };
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

afterEach(killSpawned);

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

async function cli(args: string[], env: Record<string, string> = ENV): Promise<Result> {
  const proc = spawnNode([BIN, ...args], { cwd, env });
  const code = await proc.exited;
  return { code, stdout: proc.stdout(), stderr: proc.stderr() };
}

const lines = (text: string) => text.split('\n').filter(Boolean);

const quote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;

/**
 * The bin with its stdout in a real pipe to `reader` (a shell command that may close it early):
 * what the reader printed, and the bin's stderr followed by `exit <its exit code>`.
 */
async function cliPiped(args: string[], reader: string): Promise<{ stdout: string; stderr: string }> {
  const bin = [process.execPath, BIN, ...args].map(quote).join(' ');
  const proc = spawnNode(['-e', `require('node:child_process').spawn('sh', ['-c', process.argv[1]], { stdio: 'inherit' }).on('exit', (code) => process.exit(code ?? 1))`, `{ ${bin}; echo "exit $?" >&2; } | ${reader}`], { cwd, env: ENV });
  await proc.exited;
  return { stdout: proc.stdout(), stderr: proc.stderr() };
}

/**
 * The same commands in this process (runCli is what the bin runs after reading .env): each spawned
 * command costs a Node start with the TypeScript loader, so the process path is tested by the
 * commands that need it (the bin, .env, the lock held by another process) and the rest run here,
 * with the environment .env gives the spawned ones.
 */
const IN_PROCESS_ENV = { DATA_DIR: dataDir, OPERATOR_API_KEY: OPERATOR_KEY, ...ENV };
async function run(args: string[], env: Record<string, string> = IN_PROCESS_ENV): Promise<Result> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { out: (l) => (stdout += `${l}\n`), err: (l) => (stderr += `${l}\n`) }, env);
  return { code, stdout, stderr };
}

describe.runIf(embeddedProcessTests)('the operator CLI on the embedded database', () => {
  let mediaId: string;
  let adminKey: string;
  let revokedKey: string;

  it('db migrate applies every migration to the data directory .env names, then none', async () => {
    const first = await cli(['db', 'migrate']);
    expect(first.stderr).toBe('');
    expect(lines(first.stdout)).toEqual([`migrations applied: ${MIGRATIONS} (pglite)`]);
    expect(existsSync(join(dataDir, 'pglite'))).toBe(true);
    const again = await run(['db', 'migrate']);
    expect(lines(again.stdout)).toEqual(['migrations applied: 0 (pglite)']);
  }, 90_000);

  it('reads .env, where the environment wins: without its RATE_LIMIT_OPERATOR, the file\'s stops every command in one line', async () => {
    const res = await cli(['media', 'list'], {});
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(lines(res.stderr)).toEqual(['Invalid configuration: RATE_LIMIT_OPERATOR must be a positive integer']);
  }, 60_000);

  it('media create prints the first admin key of the new media, once and first, then the media', async () => {
    const res = await run(['media', 'create', '--name', 'Daily Planet', '--locales', 'en, FR', '--default-locale', 'fr']);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const out = lines(res.stdout);
    expect(out).toHaveLength(3);
    expect(out[0]).toMatch(/^mps_[A-Za-z0-9_-]{43}$/);
    adminKey = out[0]!;
    const created = /^created media ([0-9a-f-]{36}) "Daily Planet" \(locales en, fr; default fr\)$/.exec(out[1]!);
    expect(created, out[1]).not.toBeNull();
    mediaId = created![1]!;
    expect(mediaId).toMatch(UUID);
    expect(out[2]).toMatch(/^admin key [0-9a-f-]{36}: the key above, shown only this once$/);
  }, 60_000);

  it('media list shows it, in the API wire shape with --json', async () => {
    const text = await run(['media', 'list']);
    expect(text.code).toBe(0);
    expect(lines(text.stdout)).toEqual([`${mediaId}  en,fr (default fr)  Daily Planet`]);

    const json = await run(['media', 'list', '--json', '--limit', '5']);
    expect(json.code).toBe(0);
    const body = JSON.parse(json.stdout);
    expect(body.next).toBeNull();
    expect(body.data).toHaveLength(1);
    expect(Object.keys(body.data[0]).sort()).toEqual(['default_locale', 'id', 'inserted_at', 'locale_fallbacks', 'locales', 'meter', 'name', 'site_url', 'updated_at']);
    expect(body.data[0]).toMatchObject({ id: mediaId, name: 'Daily Planet', default_locale: 'fr', locales: ['en', 'fr'] });
    expect(body.data[0].inserted_at).toMatch(ISO_MS);
  }, 60_000);

  it('key create makes a key of that media (shown once) and key revoke revokes it; an unknown id fails in one line', async () => {
    const made = await run(['key', 'create', '--media', mediaId, '--name', 'CI', '--role', 'editor', '--json']);
    expect(made.code).toBe(0);
    const key = JSON.parse(made.stdout);
    expect(Object.keys(key).sort()).toEqual(
      ['expires_at', 'id', 'inserted_at', 'key', 'last_used_at', 'name', 'prefix', 'revoked_at', 'role', 'updated_at'],
    );
    expect(key).toMatchObject({ name: 'CI', role: 'editor', revoked_at: null, prefix: key.key.slice(0, 8) });
    revokedKey = key.key;

    const revoked = await run(['key', 'revoke', key.id]);
    expect(revoked.code).toBe(0);
    expect(lines(revoked.stdout)).toEqual([expect.stringMatching(new RegExp(`^revoked key ${key.id} of media ${mediaId} \\(at \\d{4}-.+Z\\)$`))]);

    const unknown = await run(['key', 'revoke', '01900000-0000-7000-8000-000000000000']);
    expect(unknown.code).toBe(1);
    expect(lines(unknown.stderr)).toEqual(['key revoke: api key not found (api_key_not_found)']);
  }, 90_000);

  it('key list shows the media\'s keys as a table, revoked ones too, and the wire shape with --json; never a secret', async () => {
    const text = await run(['key', 'list', '--media', mediaId]);
    expect(text.stderr).toBe('');
    expect(text.code).toBe(0);
    const json = await run(['key', 'list', '--media', mediaId, '--json']);
    expect(json.code).toBe(0);
    const body = JSON.parse(json.stdout);
    expect(body.next).toBeNull();
    expect(body.data.map((k: { name: string }) => k.name)).toEqual(['CI', 'admin']);
    const [ci, admin] = body.data;
    expect(Object.keys(ci).sort()).toEqual(['expires_at', 'id', 'inserted_at', 'last_used_at', 'name', 'prefix', 'revoked_at', 'role', 'updated_at']);
    expect(ci).toMatchObject({ role: 'editor', prefix: revokedKey.slice(0, 8), revoked_at: expect.stringMatching(ISO_MS) });
    expect(admin).toMatchObject({ role: 'admin', prefix: adminKey.slice(0, 8), revoked_at: null });

    const table = lines(text.stdout).map((line) => line.split(/ {2,}/));
    expect(table).toEqual([
      ['ID', 'PREFIX', 'ROLE', 'STATE', 'LAST USED', 'NAME'],
      [ci.id, ci.prefix, 'editor', `revoked ${ci.revoked_at}`, 'never', 'CI'],
      [admin.id, admin.prefix, 'admin', 'live', 'never', 'admin'],
    ]);
    // The columns line up: each starts at the same offset on every line.
    const starts = (line: string) => [...line.matchAll(/(?:^| {2,})(\S)/g)].map((m) => m.index! + m[0].length - 1);
    expect(new Set(lines(text.stdout).map((line) => starts(line).join(','))).size).toBe(1);
    for (const out of [text.stdout, json.stdout]) {
      expect(out).not.toContain(adminKey);
      expect(out).not.toContain(revokedKey);
    }

    const paged = await run(['key', 'list', '--media', mediaId, '--limit', '1']);
    const cursor = /^more: key list --media ([0-9a-f-]{36}) --after (\S+)$/.exec(lines(paged.stdout).at(-1)!);
    expect(cursor?.[1]).toBe(mediaId);
    const rest = await run(['key', 'list', '--media', mediaId, '--after', cursor![2]!, '--json']);
    expect(JSON.parse(rest.stdout).data.map((k: { id: string }) => k.id)).toEqual([admin.id]);

    const unknown = await run(['key', 'list', '--media', '01900000-0000-7000-8000-000000000000']);
    expect(unknown.code).toBe(1);
    expect(lines(unknown.stderr)).toEqual(['key list: media not found (media_not_found)']);
    const missing = await run(['key', 'list']);
    expect(missing.code).toBe(2);
    expect(lines(missing.stderr)).toEqual(['key list: --media is required (media-publishing-service --help shows every command)']);
  }, 90_000);

  it('takes --locales in any case and keeps them as BCP 47 writes them; an error names the flag, not the API field', async () => {
    const made = await run(['media', 'create', '--name', 'Le Temps', '--locales', 'fr-ch,EN', '--default-locale', 'FR-CH', '--json']);
    expect(made.code).toBe(0);
    expect(JSON.parse(made.stdout).media).toMatchObject({ name: 'Le Temps', locales: ['fr-CH', 'en'], default_locale: 'fr-CH' });

    const outside = await run(['media', 'create', '--name', 'X', '--locales', 'en', '--default-locale', 'fr']);
    expect(outside.code).toBe(1);
    expect(lines(outside.stderr)).toEqual(['media create: --default-locale must be one of en (invalid_default_locale)']);
    // The message's own example is a locale it takes.
    const malformed = await run(['media', 'create', '--name', 'X', '--locales', 'en,fr_CH']);
    expect(malformed.code).toBe(2);
    expect(lines(malformed.stderr)).toEqual([
      'media create: --locales must be a language code such as en or fr-CH (media-publishing-service --help shows every command)',
    ]);
  }, 90_000);

  it('media create into a pipe that keeps one line prints the key there and ends cleanly, as when the reader reads nothing', async () => {
    const head = await cliPiped(['media', 'create', '--name', 'Piped', '--locales', 'en'], 'head -1');
    expect(head.stderr).toBe('exit 0\n');
    expect(head.stdout).toMatch(/^mps_[A-Za-z0-9_-]{43}\n$/);
    const none = await cliPiped(['media', 'create', '--name', 'Unread', '--locales', 'en'], 'true');
    expect(none.stderr).toBe('exit 0\n');
    expect(none.stdout).toBe('');

    // Both medias were made, and the line kept is the admin key of the first.
    const medias = JSON.parse((await run(['media', 'list', '--json', '--limit', '100'])).stdout).data as Array<{ id: string; name: string }>;
    expect(medias.map((m) => m.name)).toEqual(expect.arrayContaining(['Piped', 'Unread']));
    const piped = medias.find((m) => m.name === 'Piped')!;
    const keys = JSON.parse((await run(['key', 'list', '--media', piped.id, '--json'])).stdout).data;
    expect(keys).toEqual([expect.objectContaining({ name: 'admin', role: 'admin', prefix: head.stdout.slice(0, 8) })]);
  }, 120_000);

  it('left what it said: the admin key works on its media, the revoked key is refused; and it stays out while the database is open elsewhere', async () => {
    const database = await createDatabase({ dataDir: join(dataDir, 'pglite') });
    const app = await buildApp({ config: testConfig(), database });
    try {
      const media = await client(app, adminKey).get('/core/v2/media');
      expect(media.statusCode).toBe(200);
      expect(media.json().data).toMatchObject({ id: mediaId, name: 'Daily Planet', locales: ['en', 'fr'], default_locale: 'fr' });
      expect((await client(app, revokedKey).get('/core/v2/media')).statusCode).toBe(401);

      // This test process holds the embedded database now: the CLI refuses, in one line, and touches nothing.
      const refused = await cli(['media', 'list']);
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe('');
      expect(lines(refused.stderr)).toHaveLength(1);
      expect(refused.stderr).toContain(`is in use by process ${process.pid}`);
    } finally {
      await app.close();
    }
  }, 90_000);

  it('openapi writes the document to stdout, with the operator API as OPERATOR_API_KEY is set, touching no database', async () => {
    // The configured database does not answer (nothing listens on port 9): the document needs none.
    const res = await run(['openapi'], { ...IN_PROCESS_ENV, DATABASE_URL: 'postgres://nobody@127.0.0.1:9/nothing' });
    expect(res.code).toBe(0);
    const doc = JSON.parse(res.stdout);
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.paths['/core/v2/media']).toBeDefined();
    expect(doc.paths['/operator/v1/medias'].post.operationId).toBe('operatorCreateMedia');
  }, 90_000);

  it('answers a wrong command line with one line and exit code 2, and --help with the usage', async () => {
    const missing = await run(['media', 'create', '--locales', 'en']);
    expect(missing.code).toBe(2);
    expect(lines(missing.stderr)).toEqual(['media create: --name is required (media-publishing-service --help shows every command)']);

    const unknown = await run(['medias', 'make']);
    expect(unknown.code).toBe(2);
    expect(lines(unknown.stderr)).toEqual(['unknown command: medias make (media-publishing-service --help shows every command)']);

    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('media create --name <name> --locales <en,fr>');
    expect(help.stdout).toContain('key list --media <media id>');
  }, 90_000);

  it('--version prints the package version, from the bin too', async () => {
    const { version } = JSON.parse(readFileSync(fileURLToPath(new URL('../package.json', import.meta.url)), 'utf8')) as { version: string };
    const here = await run(['--version']);
    expect(here).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    const bin = await cli(['--version']);
    expect(bin).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  }, 60_000);
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('the operator CLI on PostgreSQL', () => {
  it('db migrate on a database that does not exist fails with one line saying to create it', async () => {
    const name = `mps_missing_${process.pid}_${Date.now()}`;
    const url = withDatabase(process.env.TEST_DATABASE_URL!, name);
    await onConnection(process.env.TEST_DATABASE_URL!, `drop database if exists ${name}`);
    const res = await run(['db', 'migrate'], { ...ENV, DATABASE_URL: url });
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    const [line, ...rest] = lines(res.stderr);
    expect(rest).toEqual([]);
    expect(line).toMatch(new RegExp(`^db migrate failed: the database "${name}" does not exist on [^;]+; create it first \\(createdb ${name}`));
  }, 60_000);
});
