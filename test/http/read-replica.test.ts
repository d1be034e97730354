import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../src/app.js';
import { type Database, createDatabase } from '../../src/db/client.js';
import { type SeededMedia, client, createCategory, seedMedia } from '../setup/factories.js';
import { type TestDatabase, asReadOnlyReplica, createTestApp, createTestDatabase, testConfig } from '../setup/app.js';
import { createContent, docsFixture } from '../setup/docs.js';
import { onConnection } from '../setup/global-setup.js';
import { clientToken, readerClient, registerClient } from '../setup/reader.js';

describe('which routes read the replica (DATABASE_READ_URL)', () => {
  it('GET and HEAD of the Reader and Public trees, but not what a reader reads back of their own nor OAuth', async () => {
    const ctx = await createTestApp();
    try {
      const replica = (method: string, url: string) => {
        const entry = ctx.app.routeTable.find((e) => e.method === method && e.url === url);
        if (!entry) throw new Error(`no route ${method} ${url}`);
        return entry.replica;
      };
      expect(replica('GET', '/api/media/v1/categories')).toBe(true);
      expect(replica('GET', '/api/media/v1/contents/:id')).toBe(true);
      expect(replica('GET', '/api/public/docs/v2/contents/:id')).toBe(true);
      expect(replica('POST', '/api/media/v1/contents/:id/questions/:block_id/vote')).toBe(false);
      expect(replica('GET', '/api/media/v1/accounts/me/favorites')).toBe(false);
      expect(replica('GET', '/api/media/v1/oauth/userinfo')).toBe(false);
      expect(replica('GET', '/api/media/v1/oauth/jwks')).toBe(false);
      expect(replica('GET', '/api/public/messenger/v2/subscriptions/:id')).toBe(false);
      expect(replica('GET', '/core/v2/categories')).toBe(false);
    } finally {
      await ctx.close();
    }
  });
});

// The replica is the same database reached through a second pool (its own application_name, its
// sessions read-only as a standby's): what is counted is which pool each query took.
describe.skipIf(!process.env.TEST_DATABASE_URL)('DATABASE_READ_URL on PostgreSQL', () => {
  let clone: TestDatabase;
  let database: Database;
  let app: App;
  let media: SeededMedia;
  let token: string;
  let cloneName: string;
  const taken = { primary: 0, replica: 0 };

  beforeAll(async () => {
    clone = await createTestDatabase();
    const url = (clone.database.pool as unknown as { options: { connectionString: string } }).options.connectionString;
    await clone.database.close();
    cloneName = new URL(url).pathname.slice(1);
    database = await createDatabase({ databaseUrl: url, readDatabaseUrl: asReadOnlyReplica(url), poolSize: 4 });
    database.pool!.on('acquire', () => taken.primary++);
    database.readPool!.on('acquire', () => taken.replica++);
    app = await buildApp({ config: testConfig(), database });
    await app.ready();
    media = await seedMedia(app);
    token = (await clientToken(app, await registerClient(app, media.keys.admin))).access_token;
  });

  afterAll(async () => {
    await app?.close();
    await clone?.drop();
  });

  const counting = async (work: () => Promise<void>) => {
    const before = { ...taken };
    await work();
    return { primary: taken.primary - before.primary, replica: taken.replica - before.replica };
  };

  it('Reader reads go to the read pool, through a connection of its own', async () => {
    const category = await createCategory(client(app, media.keys.admin));
    const seen = await counting(async () => {
      const res = await readerClient(app, media.mediaId, token).get(`/api/media/v1/categories/${category.id}`);
      expect(res.statusCode).toBe(200);
      expect((res.json().data as { id: string }).id).toBe(category.id);
    });
    expect(seen.replica).toBeGreaterThan(0);

    const { rows } = await onConnection<{ n: number }>(
      process.env.TEST_DATABASE_URL!,
      "select count(*)::int as n from pg_stat_activity where application_name = 'mps-read-replica' and datname = $1",
      [cloneName],
    );
    expect(rows[0]!.n).toBeGreaterThan(0);
  });

  it("a Reader page's items and the assocs it names are read on the replica, not the primary", async () => {
    const api = client(app, media.keys.admin);
    const category = await createCategory(api);
    const fx = await docsFixture(api, media.workspaceId);
    await createContent(api, fx, { published_at: new Date(Date.now() - 60_000).toISOString(), content_categories: [{ category_id: category.id }] });
    const texts = { primary: [] as string[], replica: [] as string[] };
    const capture = (pool: { query: (...args: unknown[]) => unknown }, into: string[]) => {
      const own = pool.query;
      pool.query = function (this: unknown, ...args: unknown[]) {
        const [first] = args;
        into.push(typeof first === 'string' ? first : (first as { text: string }).text);
        return own.apply(this, args);
      };
      return () => (pool.query = own);
    };
    const restore = [capture(database.pool as never, texts.primary), capture(database.readPool as never, texts.replica)];
    try {
      const res = await readerClient(app, media.mediaId, token).get('/api/media/v1/contents');
      expect(res.statusCode).toBe(200);
      expect(res.json().assocs.categories.map((c: { id: string }) => c.id)).toEqual([category.id]);
      expect(res.json().assocs.templates.map((t: { id: string }) => t.id)).toEqual([fx.templateId]);
    } finally {
      for (const undo of restore) undo();
    }
    const reads = (texts: string[], table: string) => texts.filter((t) => new RegExp(`from "${table}"`).test(t)).length;
    for (const table of ['contents', 'categories', 'templates']) {
      expect(reads(texts.replica, table), table).toBeGreaterThan(0);
      expect(reads(texts.primary, table), table).toBe(0);
    }
  });

  it('writes, Backoffice reads and the auth before a Reader read stay on the primary', async () => {
    const seen = await counting(async () => {
      const api = client(app, media.keys.admin);
      await createCategory(api);
      expect((await api.get('/core/v2/categories')).statusCode).toBe(200);
    });
    expect(seen.replica).toBe(0);
    expect(seen.primary).toBeGreaterThan(0);
  });

  it('a Reader write (a POST) stays on the primary', async () => {
    const seen = await counting(async () => {
      const res = await readerClient(app, media.mediaId, token).post('/api/media/v1/contents/search', { query: 'x' });
      expect(res.statusCode).toBeLessThan(500);
    });
    expect(seen.replica).toBe(0);
  });
});
