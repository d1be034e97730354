import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../src/app.js';
import { type SeededMedia, client, createCategory, seedMedia } from '../setup/factories.js';
import { type TestContext, createTestApp, testConfig } from '../setup/app.js';
import { clientToken, readerClient, registerClient } from '../setup/reader.js';

/** Asks until `check` holds; answers how long it took, or fails after `withinMs`. */
async function within(withinMs: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > withinMs) throw new Error(`not within ${withinMs} ms`);
    await sleep(20);
  }
  return Date.now() - started;
}

// Two instances of the service in one process: two apps over the same database, each with its
// own Redis connection, as two processes behind a load balancer would be.
describe.skipIf(!process.env.TEST_REDIS_URL)('caches that decide access, across two instances (Redis pub/sub)', () => {
  let ctx: TestContext;
  let other: App;
  let redisA: Redis;
  let redisB: Redis;
  let media: SeededMedia;

  beforeAll(async () => {
    redisA = new Redis(process.env.TEST_REDIS_URL!, { maxRetriesPerRequest: 1 });
    redisB = new Redis(process.env.TEST_REDIS_URL!, { maxRetriesPerRequest: 1 });
    ctx = await createTestApp({}, { redis: redisA });
    // The same database; the first app closes it.
    other = await buildApp({ config: testConfig(), database: { ...ctx.database, close: async () => {} }, redis: redisB });
    await other.ready();
    await Promise.all([ctx.app.services.cacheBus.ready(), other.services.cacheBus.ready()]);
    media = await seedMedia(ctx.app);
  });

  afterAll(async () => {
    await other?.close();
    await ctx?.close();
    redisA?.disconnect();
    redisB?.disconnect();
  });

  it('an API key revoked through one instance is refused by the other within a second', async () => {
    const created = await client(ctx.app, media.keys.admin).post('/core/v2/api-keys', { name: 'shared', role: 'viewer' });
    expect(created.statusCode).toBe(201);
    const { id, key } = created.json().data as { id: string; key: string };
    // The other instance has it cached (trusted for 10 s without the bus).
    expect((await client(other, key).get('/core/v2/media')).statusCode).toBe(200);
    expect((await client(other, key).get('/core/v2/media')).statusCode).toBe(200);

    expect((await client(ctx.app, media.keys.admin).delete(`/core/v2/api-keys/${id}`)).statusCode).toBe(204);
    const ms = await within(1_000, async () => (await client(other, key).get('/core/v2/media')).statusCode === 401);
    expect(ms).toBeLessThan(1_000);
    const refused = await client(other, key).get('/core/v2/media');
    expect(refused.json().code).toBe('invalid_api_key');
  });

  it("an OAuth client deleted through one instance: the other refuses its tokens within a second", async () => {
    const categories = '/api/media/v1/categories';
    const own = await registerClient(ctx.app, media.keys.admin);
    const { access_token } = await clientToken(ctx.app, own);
    expect((await readerClient(other, media.mediaId, access_token).get(categories)).statusCode).toBe(200);

    expect((await client(ctx.app, media.keys.admin).delete(`/core/v2/oauth/clients/${own.clientId}`)).statusCode).toBe(204);
    const ms = await within(1_000, async () => (await readerClient(other, media.mediaId, access_token).get(categories)).statusCode === 401);
    expect(ms).toBeLessThan(1_000);
  });

  it("a media's languages changed through one instance are the other's within a second", async () => {
    const onOther = client(other, media.keys.admin);
    const german = { locales: [{ locale: 'de', name: 'Kategorie' }] };
    // The other instance caches the media (30 s without the bus): German is not one of its languages.
    const before = await onOther.post('/core/v2/categories', german);
    expect(before.statusCode).toBe(400);

    const patched = await client(ctx.app, media.keys.admin).patch('/core/v2/media', { locales: ['en', 'fr', 'de'] });
    expect(patched.statusCode).toBe(200);
    expect((patched.json().data as { locales: string[] }).locales).toEqual(['en', 'fr', 'de']);
    await within(1_000, async () => (await onOther.post('/core/v2/categories', german)).statusCode === 201);
    await createCategory(onOther);
  });

  it('without Redis an instance forgets only its own cache (the bus is local)', async () => {
    const { createCacheBus } = await import('../../src/shared/cache-bus.js');
    const bus = createCacheBus();
    const cache = new Map([['k', 1]]);
    const forget = bus.channel('local', cache);
    forget('k');
    expect(cache.has('k')).toBe(false);
    await bus.ready();
    await bus.close();
  });
});
