import { createHash, randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../src/app.js';
import { bootstrap } from '../src/bootstrap.js';
import type { Config } from '../src/config.js';
import { createServices } from '../src/container.js';
import type { Database } from '../src/db/client.js';
import { apiKeys } from '../src/modules/core/api-keys/api-keys.table.js';
import { media, statuses, workspaces } from '../src/modules/core/tenancy/tenancy.table.js';
import { REDACT_PATHS } from '../src/plugins/request-log.js';
import { type TestDatabase, pooledTestDatabase, testConfig } from './setup/app.js';
import { client } from './setup/factories.js';

/** A logger like the service's own, writing its JSON lines into memory. */
function memoryLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const logger = pino({ level: 'info', redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, stream);
  return { logger, lines, text: () => lines.map((l) => JSON.stringify(l)).join('\n') };
}

const PRINTED_KEY = /shown only this once: (\S+)$/;

interface Started {
  app: App;
  database: Database;
  config: Config;
  log: ReturnType<typeof memoryLogger>;
  drop: () => Promise<void>;
}

/** An app over a migrated and empty database (an earlier file's PGlite, emptied), as on a first start. */
async function start(overrides: Partial<Config> = {}): Promise<Started> {
  const { database, drop }: TestDatabase = await pooledTestDatabase();
  const config = testConfig(overrides);
  const log = memoryLogger();
  const app = await buildApp({ config, database, logger: log.logger });
  await app.ready();
  return { app, database, config, log, drop };
}

async function stop(started: Started | undefined) {
  if (!started) return;
  await started.app.close();
  await started.drop();
}

/** A later start over the same database: services built afresh, nothing cached. */
async function restart(started: Started, config: Config = started.config) {
  const log = memoryLogger();
  const services = await createServices({ db: started.database.db, logger: log.logger });
  await bootstrap(services, config, log.logger);
  return log;
}

async function counts(database: Database) {
  const { db } = database;
  return {
    media: (await db.select().from(media)).length,
    workspaces: (await db.select().from(workspaces)).length,
    statuses: (await db.select().from(statuses)).length,
    apiKeys: (await db.select().from(apiKeys)).length,
  };
}

describe('bootstrap on an empty database without BOOTSTRAP_API_KEY', () => {
  let started: Started;
  let printedKey: string;

  beforeAll(async () => {
    started = await start();
    expect(await counts(started.database)).toEqual({ media: 0, workspaces: 0, statuses: 0, apiKeys: 0 });
    await bootstrap(started.app.services, started.config, started.log.logger);
    const printed = started.log.lines.map((l) => PRINTED_KEY.exec(String(l.msg))).filter((m) => m !== null);
    expect(printed).toHaveLength(1);
    printedKey = printed[0]![1]!;
  });
  afterAll(() => stop(started));

  it('prints a fresh admin key once in the log, unredacted, as a warning', () => {
    expect(printedKey).toMatch(/^mps_[A-Za-z0-9_-]{43}$/);
    const line = started.log.lines.find((l) => String(l.msg).includes(printedKey))!;
    expect(line.level).toBe(40);
    expect(started.log.text().split(printedKey).length - 1).toBe(1);
  });

  it('creates a default media with workspace "main" and the default statuses, reachable with the printed key', async () => {
    const api = client(started.app, printedKey);
    const res = await api.get('/core/v2/media');
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ name: 'Default media', default_locale: 'en', locales: ['en'] });
    expect(started.log.lines.some((l) => l.media_id === data.id)).toBe(true);

    const listed = (await api.get('/core/v2/workspaces')).json().data;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ key: 'main', media_id: data.id });

    const statusList = (await api.get('/core/v2/statuses')).json().data as Array<{ key: string; is_published: boolean }>;
    expect(statusList.map((s) => [s.key, s.is_published]).sort()).toEqual([
      ['draft', false],
      ['published', true],
      ['unpublished', false],
    ]);
  });

  it('makes the printed key an admin key, stored only as its hash', async () => {
    const api = client(started.app, printedKey);
    const keys = (await api.get('/core/v2/api-keys')).json().data;
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ name: 'bootstrap', role: 'admin', prefix: printedKey.slice(0, 8), revoked_at: null });
    expect((await api.patch('/core/v2/media', { name: 'Renamed by admin' })).statusCode).toBe(200);
    expect((await api.post('/core/v2/api-keys', { name: 'second admin', role: 'admin' })).statusCode).toBe(201);

    const [row] = await started.database.db.select().from(apiKeys).where(eq(apiKeys.keyPrefix, printedKey.slice(0, 8)));
    expect(row!.keyHash).toBe(createHash('sha256').update(printedKey).digest('hex'));
  });

  it('creates nothing and prints no key when it runs again', async () => {
    const before = await counts(started.database);
    const log = await restart(started);
    expect(await counts(started.database)).toEqual(before);
    expect(log.text()).not.toMatch(/mps_/);
    expect(log.lines.some((l) => PRINTED_KEY.test(String(l.msg)))).toBe(false);
    expect((await client(started.app, printedKey).get('/core/v2/media')).statusCode).toBe(200);
    // Requests made with it never log it again: the x-api-key header is redacted.
    expect(started.log.text().split(printedKey).length - 1).toBe(1);
  });
});

describe('bootstrap with BOOTSTRAP_API_KEY', () => {
  const secret = `boot_${randomBytes(24).toString('hex')}`;
  let started: Started;

  beforeAll(async () => {
    started = await start({ bootstrapApiKey: secret });
    await bootstrap(started.app.services, started.config, started.log.logger);
  });
  afterAll(() => stop(started));

  it('makes a key with exactly that value work as admin of the default media, and prints no key', async () => {
    const api = client(started.app, secret);
    const res = await api.get('/core/v2/media');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ name: 'Default media', default_locale: 'en', locales: ['en'] });
    expect((await api.patch('/core/v2/media', { locales: ['en', 'fr'] })).statusCode).toBe(200);
    expect((await api.post('/core/v2/api-keys', { name: 'made by bootstrap key', role: 'viewer' })).statusCode).toBe(201);

    const keys = (await api.get('/core/v2/api-keys?limit=100')).json().data;
    expect(keys.find((k: { name: string }) => k.name === 'bootstrap')).toMatchObject({ role: 'admin', prefix: secret.slice(0, 8) });

    expect(started.log.text()).not.toContain(secret);
    expect(started.log.lines.some((l) => PRINTED_KEY.test(String(l.msg)))).toBe(false);
    expect((await counts(started.database)).media).toBe(1);
  });

  it('does not duplicate the key or the media when it runs again', async () => {
    const hash = createHash('sha256').update(secret).digest('hex');
    const before = await counts(started.database);
    const log = await restart(started);
    await restart(started);
    expect(await counts(started.database)).toEqual(before);
    expect(await started.database.db.select().from(apiKeys).where(eq(apiKeys.keyHash, hash))).toHaveLength(1);
    expect(log.text()).not.toContain(secret);
    expect((await client(started.app, secret).get('/core/v2/media')).statusCode).toBe(200);
  });

  it('adds the key to the existing media when a database first started without it', async () => {
    const other = await start();
    try {
      await bootstrap(other.app.services, other.config, other.log.logger);
      const mediaId = (await other.database.db.select().from(media))[0]!.id;
      const otherSecret = `later_${randomBytes(24).toString('hex')}`;
      const log = await restart(other, { ...other.config, bootstrapApiKey: otherSecret });
      expect(log.lines.some((l) => PRINTED_KEY.test(String(l.msg)))).toBe(false);
      expect(await counts(other.database)).toMatchObject({ media: 1, apiKeys: 2 });
      const res = await client(other.app, otherSecret).get('/core/v2/api-keys');
      expect(res.statusCode).toBe(200);
      expect((await client(other.app, otherSecret).get('/core/v2/media')).json().data.id).toBe(mediaId);
    } finally {
      await stop(other);
    }
  });
});

describe('changing BOOTSTRAP_API_KEY', () => {
  const first = `first_${randomBytes(24).toString('hex')}`;
  const second = `second_${randomBytes(24).toString('hex')}`;
  let started: Started;

  beforeAll(async () => {
    started = await start({ bootstrapApiKey: first });
    await bootstrap(started.app.services, started.config, started.log.logger);
  });
  afterAll(() => stop(started));

  const revokedLines = (log: ReturnType<typeof memoryLogger>) => log.lines.filter((l) => /revoked the previous bootstrap key/.test(String(l.msg)));

  it('revokes the key the previous value made: the new one works, the old one is refused, other keys stay', async () => {
    const mediaId = (await started.database.db.select().from(media))[0]!.id;
    const cms = (await started.app.services.core.apiKeys.create(mediaId, { name: 'CMS', role: 'admin' })).secret;
    // `first` never goes through this app, so no acceptance it cached (for 10 s) hides the revocation:
    // the restart stands for a new process, the app for the one before it.
    const log = await restart(started, { ...started.config, bootstrapApiKey: second });

    expect((await client(started.app, second).get('/core/v2/media')).statusCode).toBe(200);
    expect((await client(started.app, cms).get('/core/v2/media')).statusCode).toBe(200);
    const keys = (await client(started.app, second).get('/core/v2/api-keys?limit=100')).json().data as Array<Record<string, unknown>>;
    const bootstrapKeys = keys.filter((k) => k.name === 'bootstrap');
    expect(bootstrapKeys.map((k) => [k.prefix, k.revoked_at === null])).toEqual(
      expect.arrayContaining([
        [second.slice(0, 8), true],
        [first.slice(0, 8), false],
      ]),
    );
    expect(bootstrapKeys).toHaveLength(2);
    expect(keys.find((k) => k.name === 'CMS')!.revoked_at).toBeNull();

    const lines = revokedLines(log);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, prefix: first.slice(0, 8) });
    expect(log.text()).not.toContain(first);
    expect(log.text()).not.toContain(second);
  });

  it('refuses the previous key from then on, and revokes nothing more when the value stays the same', async () => {
    const again = await restart(started, { ...started.config, bootstrapApiKey: second });
    expect(revokedLines(again)).toEqual([]);
    const res = await client(started.app, first).get('/core/v2/media');
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('invalid_api_key');
    expect((await client(started.app, second).get('/core/v2/media')).statusCode).toBe(200);
  });

  it('does not bring back a revoked bootstrap key when the value goes back to it, nor revoke the current one', async () => {
    const log = await restart(started, { ...started.config, bootstrapApiKey: first });
    expect(revokedLines(log)).toEqual([]);
    expect(log.lines.some((l) => /names a revoked key/.test(String(l.msg)))).toBe(true);
    expect((await client(started.app, first).get('/core/v2/media')).statusCode).toBe(401);
    expect((await client(started.app, second).get('/core/v2/media')).statusCode).toBe(200);
  });

  it('revokes the key printed on a first start without BOOTSTRAP_API_KEY once it is set', async () => {
    const other = await start();
    try {
      await bootstrap(other.app.services, other.config, other.log.logger);
      const printed = other.log.lines.map((l) => PRINTED_KEY.exec(String(l.msg))).find((m) => m !== null)![1]!;
      const chosen = `chosen_${randomBytes(24).toString('hex')}`;
      const log = await restart(other, { ...other.config, bootstrapApiKey: chosen });
      expect(revokedLines(log)).toHaveLength(1);
      expect((await client(other.app, printed).get('/core/v2/media')).statusCode).toBe(401);
      expect((await client(other.app, chosen).get('/core/v2/media')).statusCode).toBe(200);
    } finally {
      await stop(other);
    }
  });
});
