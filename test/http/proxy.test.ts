import { randomInt } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../src/app.js';
import type { Config } from '../../src/config.js';
import type { Database } from '../../src/db/client.js';
import { type TestContext, createTestApp, testConfig } from '../setup/app.js';
import { type SeededMedia, seedMedia } from '../setup/factories.js';
import { clientToken, registerClient } from '../setup/reader.js';

// TRUST_PROXY: who the client is (X-Forwarded-For), how it called (X-Forwarded-Proto) and
// which host it asked for (X-Forwarded-Host) are believed only from a trusted proxy. And the
// failed-authentication throttle, per client behind a proxy and shared through Redis.

const PROXY = '10.0.0.1';
const limits = { backoffice: 1000, reader: 1000, anonymous: 2, token: 1000 };

let ctx: TestContext;
let media: SeededMedia;
const apps: App[] = [];

async function appWith(overrides: Partial<Config>, redis?: Redis): Promise<App> {
  const database: Database = { ...ctx.database, close: async () => {} };
  const app = await buildApp({ config: testConfig({ rateLimit: limits, ...overrides }), database, ...(redis && { redis }) });
  await app.ready();
  apps.push(app);
  return app;
}

beforeAll(async () => {
  ctx = await createTestApp();
  media = await seedMedia(ctx.app);
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await ctx?.close();
});

/** A JWKS read (anonymous: counted per IP) arriving from `remoteAddress` with these forwarding headers. */
const jwks = (app: App, remoteAddress: string, forwardedFor?: string) =>
  app.inject({
    method: 'GET',
    url: '/api/media/v1/oauth/jwks',
    headers: { 'x-service-media-id': media.mediaId, ...(forwardedFor && { 'x-forwarded-for': forwardedFor }) },
    remoteAddress,
  });

/** The statuses of `count` calls. */
const statuses = async (count: number, call: () => Promise<{ statusCode: number }>) => {
  const seen: number[] = [];
  for (let i = 0; i < count; i++) seen.push((await call()).statusCode);
  return seen;
};

describe('X-Forwarded-For', () => {
  it('is ignored without TRUST_PROXY: everyone behind the proxy shares its address', async () => {
    const app = await appWith({});
    expect((await jwks(app, PROXY, '203.0.113.1')).statusCode).toBe(200);
    expect((await jwks(app, PROXY, '203.0.113.2')).statusCode).toBe(200);
    const third = await jwks(app, PROXY, '203.0.113.3');
    expect(third.statusCode).toBe(429);
    expect(third.json().code).toBe('rate_limited');
  });

  it('gives two clients behind a trusted proxy a bucket each', async () => {
    const app = await appWith({ trustProxy: [PROXY] });
    expect(await statuses(3, () => jwks(app, PROXY, '203.0.113.1'))).toEqual([200, 200, 429]);
    expect(await statuses(3, () => jwks(app, PROXY, '203.0.113.2'))).toEqual([200, 200, 429]);
    // The client's own claim about earlier hops counts for nothing: the proxy appended the address it saw.
    expect((await jwks(app, PROXY, '198.51.100.9, 203.0.113.1')).statusCode).toBe(429);
  });

  it('is ignored from an address that is not a trusted proxy', async () => {
    const app = await appWith({ trustProxy: ['10.0.0.0/30'] });
    expect(await statuses(2, () => jwks(app, '10.0.0.9', '203.0.113.5'))).toEqual([200, 200]);
    expect((await jwks(app, '10.0.0.9', '203.0.113.6')).statusCode).toBe(429);
    // From inside the trusted range the header is believed.
    expect((await jwks(app, '10.0.0.2', '203.0.113.6')).statusCode).toBe(200);
  });

  it('with a hop count, takes the address that many proxies back', async () => {
    const app = await appWith({ trustProxy: 1 });
    expect((await jwks(app, '192.0.2.1', 'forged-1, 198.51.100.7')).statusCode).toBe(200);
    expect((await jwks(app, '192.0.2.2', 'forged-2, 198.51.100.7')).statusCode).toBe(200);
    expect((await jwks(app, '192.0.2.3', '198.51.100.7')).statusCode).toBe(429);
    expect((await jwks(app, '192.0.2.1', 'forged-1, 198.51.100.8')).statusCode).toBe(200);
  });
});

describe('X-Forwarded-Proto and X-Forwarded-Host', () => {
  it('build the Reader paging links of a client behind a trusted proxy, and only then', async () => {
    const trusted = await appWith({ trustProxy: [PROXY] });
    const creds = await registerClient(trusted, media.keys.admin, ['media:read']);
    const { access_token } = await clientToken(trusted, creds);
    const list = (app: App) =>
      app.inject({
        method: 'GET',
        url: '/api/media/v1/categories',
        headers: {
          'x-service-media-id': media.mediaId,
          authorization: `Bearer ${access_token}`,
          host: 'service.internal:3000',
          'x-forwarded-proto': 'https',
          'x-forwarded-host': 'news.example',
        },
        remoteAddress: PROXY,
      });
    expect((await list(trusted)).json().meta.base).toBe('https://news.example/api/media/v1/categories');
    const untrusted = await appWith({});
    expect((await list(untrusted)).json().meta.base).toBe('http://service.internal:3000/api/media/v1/categories');
  });
});

describe('/docs security policy', () => {
  const docs = (app: App, headers: Record<string, string> = {}, remoteAddress = PROXY) =>
    app.inject({ method: 'GET', url: '/docs', headers, remoteAddress });

  it('has no upgrade-insecure-requests over plain HTTP, and has it behind a trusted TLS-terminating proxy', async () => {
    const trusted = await appWith({ trustProxy: [PROXY] });
    const plain = await docs(trusted);
    expect(plain.statusCode).toBe(200);
    const policy = String(plain.headers['content-security-policy']);
    expect(policy).not.toContain('upgrade-insecure-requests');
    expect(policy.split('; ')).toEqual(
      expect.arrayContaining(["default-src 'self'", "script-src 'self'", "object-src 'none'", "frame-ancestors 'self'"]),
    );
    const https = await docs(trusted, { 'x-forwarded-proto': 'https' });
    expect(String(https.headers['content-security-policy']).split('; ')).toContain('upgrade-insecure-requests');
    // Its assets get the same policy.
    const asset = await trusted.inject({ method: 'GET', url: '/docs/static/swagger-ui.css', remoteAddress: PROXY });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-security-policy']).toBe(policy);

    // A client cannot claim HTTPS when it does not come through the trusted proxy.
    expect(String((await docs(trusted, { 'x-forwarded-proto': 'https' }, '192.0.2.50')).headers['content-security-policy'])).not.toContain(
      'upgrade-insecure-requests',
    );
    const untrusted = await appWith({});
    expect(String((await docs(untrusted, { 'x-forwarded-proto': 'https' })).headers['content-security-policy'])).not.toContain(
      'upgrade-insecure-requests',
    );
  });

  it('points the interface at /openapi.json, and the API keeps its own policy', async () => {
    const init = await ctx.app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    expect(init.body).toContain('"urls":[{"url":"/openapi.json","name":"Media Publishing Service"}]');
    const api = await ctx.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(api.statusCode).toBe(200);
    expect(api.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
  });
});

describe('failed-authentication throttle behind a trusted proxy', () => {
  it('counts each client on its own, not the proxy', async () => {
    const app = await appWith({ trustProxy: [PROXY], authFailureLimit: 2 });
    const call = (client: string, key: string) =>
      app.inject({
        method: 'GET',
        url: '/core/v2/media',
        headers: { 'x-api-key': key, 'x-forwarded-for': client },
        remoteAddress: PROXY,
      });
    expect(await statuses(2, () => call('203.0.113.20', 'mps_wrong'))).toEqual([401, 401]);
    const blocked = await call('203.0.113.20', media.keys.viewer);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBe('60');
    expect((await call('203.0.113.21', media.keys.viewer)).statusCode).toBe(200);
  });

  it('keeps counting in the process while Redis is unreachable', async () => {
    const broken = new Redis('redis://127.0.0.1:1', { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
    broken.on('error', () => {});
    try {
      const app = await appWith({ authFailureLimit: 2 }, broken);
      const call = (key: string) =>
        app.inject({ method: 'GET', url: '/core/v2/media', headers: { 'x-api-key': key }, remoteAddress: '192.0.2.77' });
      expect(await statuses(2, () => call('mps_wrong'))).toEqual([401, 401]);
      expect((await call(media.keys.viewer)).statusCode).toBe(429);
    } finally {
      broken.disconnect();
    }
  });
});

describe.skipIf(!process.env.TEST_REDIS_URL)('failed-authentication throttle shared through Redis', () => {
  let redis: Redis;
  let a: App;
  let b: App;
  let token: string;
  // Counters are named after the address: fresh ones each run touch nobody else's.
  const ips = Array.from({ length: 3 }, () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`);

  beforeAll(async () => {
    redis = new Redis(process.env.TEST_REDIS_URL!, { maxRetriesPerRequest: 1 });
    a = await appWith({ authFailureLimit: 3 }, redis);
    b = await appWith({ authFailureLimit: 3 }, redis);
    // Set up through the app without the shared count: these calls come from 127.0.0.1, whose
    // count in this Redis other files' apps share (cache-bus polls until a revoked key is a 401),
    // and a limit of 3 would refuse them.
    token = (await clientToken(ctx.app, await registerClient(ctx.app, media.keys.admin, ['media:read']))).access_token;
  });
  afterAll(async () => {
    await redis?.del(...ips.map((ip) => `mps-af-${ip}`));
    await redis?.quit();
  });

  const backoffice = (app: App, ip: string, key: string) =>
    app.inject({ method: 'GET', url: '/core/v2/media', headers: { 'x-api-key': key }, remoteAddress: ip });
  const reader = (app: App, ip: string, bearer: string) =>
    app.inject({
      method: 'GET',
      url: '/api/media/v1/categories',
      headers: { 'x-service-media-id': media.mediaId, authorization: `Bearer ${bearer}` },
      remoteAddress: ip,
    });

  it('counts an address across instances: two failures on one and one on the other lock it out of both', async () => {
    const [ip] = ips as [string];
    expect((await backoffice(a, ip, 'mps_wrong_1')).statusCode).toBe(401);
    expect((await backoffice(a, ip, 'mps_wrong_2')).statusCode).toBe(401);
    expect((await backoffice(b, ip, 'mps_wrong_3')).statusCode).toBe(401);
    expect(Number(await redis.get(`mps-af-${ip}`))).toBe(3);
    const ttl = await redis.pttl(`mps-af-${ip}`);
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);

    for (const app of [a, b]) {
      const res = await backoffice(app, ip, media.keys.viewer);
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual({ error: expect.any(String), code: 'rate_limited' });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(50);
      expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect((await reader(app, ip, token)).statusCode).toBe(429);
    }
  });

  it('counts Reader bearer failures in the same shared count, per address', async () => {
    const [, ip, other] = ips as [string, string, string];
    expect((await reader(a, ip, 'garbage-1')).statusCode).toBe(401);
    expect((await reader(b, ip, 'garbage-2')).statusCode).toBe(401);
    expect((await backoffice(a, ip, 'mps_wrong')).statusCode).toBe(401);
    expect((await reader(b, ip, token)).statusCode).toBe(429);
    expect((await reader(a, ip, token)).statusCode).toBe(429);
    expect((await reader(b, other, token)).statusCode).toBe(200);
    expect(await redis.get(`mps-af-${other}`)).toBeNull();
  });
});
