import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../src/app.js';
import type { Config } from '../../src/config.js';
import type { Database } from '../../src/db/client.js';
import { freePort } from '../reliability/server-process.js';
import { type TestContext, createTestApp, testConfig } from '../setup/app.js';
import { expectError } from '../setup/expect.js';
import { type SeededMedia, client, seedMedia } from '../setup/factories.js';

const token = randomBytes(32).toString('hex');
let ctx: TestContext;
let seeded: SeededMedia;

beforeAll(async () => {
  ctx = await createTestApp({ metricsToken: token, rateLimit: { backoffice: 2, reader: 1000, anonymous: 1000, token: 1000 } });
  seeded = await seedMedia(ctx.app);
});
afterAll(() => ctx.close());

/** Another app over this file's database; the main context closes the database. */
async function appOver(overrides: Partial<Config>): Promise<App> {
  const database: Database = { ...ctx.database, close: async () => {} };
  const app = await buildApp({ config: testConfig(overrides), database });
  await app.ready();
  return app;
}

const scrape = (app: App, authorization?: string) =>
  app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });

/** The value of one sample line, by metric name and the labels it must carry. */
function sample(body: string, name: string, labels: Record<string, string>): number | undefined {
  const line = body
    .split('\n')
    .find((l) => l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)));
  return line === undefined ? undefined : Number(line.split(' ').pop());
}

describe('GET /metrics with METRICS_TOKEN', () => {
  it('answers 401 without a token, with a wrong one and with another scheme, before writing any metric', async () => {
    for (const authorization of [undefined, `Bearer ${token.slice(1)}x`, `Bearer ${token}x`, `Basic ${token}`, token, 'Bearer']) {
      const res = await scrape(ctx.app, authorization);
      expectError(res, 401, 'invalid_token');
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(res.body).not.toContain('http_request_duration_seconds');
    }
  });

  it('answers the Prometheus text format with the request-duration histogram labelled by operationId, method and status', async () => {
    const api = client(ctx.app, seeded.keys.viewer);
    expect((await api.get('/core/v2/categories')).statusCode).toBe(200);
    expect((await api.get('/core/v2/categories/not-a-uuid')).statusCode).toBe(400);
    expect((await ctx.app.inject({ method: 'GET', url: `/nowhere/${randomBytes(4).toString('hex')}` })).statusCode).toBe(404);

    const res = await scrape(ctx.app, `Bearer ${token}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const body = res.body;
    expect(body).toContain('# TYPE http_request_duration_seconds histogram');
    expect(sample(body, 'http_request_duration_seconds_count', { operation: 'listCategories', method: 'GET', status: '200' })).toBe(1);
    expect(sample(body, 'http_request_duration_seconds_bucket', { operation: 'listCategories', status: '200', le: '+Inf' })).toBe(1);
    expect(sample(body, 'http_request_duration_seconds_count', { operation: 'getCategory', method: 'GET', status: '400' })).toBe(1);
    // Paths no route matched share one series, whatever they were.
    expect(sample(body, 'http_request_duration_seconds_count', { operation: 'unknown', method: 'GET', status: '404' })).toBe(1);
    expect(body).not.toContain('/nowhere');
    // prom-client's process metrics, the event-loop delay among them.
    expect(body).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    expect(body).toMatch(/^nodejs_eventloop_lag_p99_seconds \d/m);
    // Pool usage exists where there is a pool: PostgreSQL, not PGlite.
    if (ctx.database.pool) {
      expect(Number(/^db_pool_connections (\d+)/m.exec(body)?.[1])).toBeGreaterThanOrEqual(1);
      expect(body).toMatch(/^db_pool_idle_connections \d+/m);
      expect(body).toMatch(/^db_pool_waiting_requests \d+/m);
    } else {
      expect(body).not.toContain('db_pool_');
    }
  });

  it('counts the requests a rate limit refused, by operationId', async () => {
    const api = client(ctx.app, seeded.keys.editor);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await api.get('/core/v2/media')).statusCode);
    expect(statuses).toEqual([200, 200, 429]);
    const body = (await scrape(ctx.app, `Bearer ${token}`)).body;
    expect(sample(body, 'http_rate_limited_total', { operation: 'getMedia' })).toBe(1);
    expect(sample(body, 'http_request_duration_seconds_count', { operation: 'getMedia', status: '429' })).toBe(1);
  });

  it('is not in the OpenAPI document', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(doc.paths['/metrics']).toBeUndefined();
  });
});

describe('without METRICS_TOKEN and METRICS_PORT', () => {
  let app: App;
  beforeAll(async () => {
    app = await appOver({});
  });
  afterAll(() => app.close());

  it('has no /metrics route: 404, with or without a token', async () => {
    expectError(await scrape(app), 404, 'route_not_found');
    expectError(await scrape(app, `Bearer ${token}`), 404, 'route_not_found');
  });
});

describe('METRICS_PORT', () => {
  let app: App;
  let port: number;
  let apiPort: number;
  beforeAll(async () => {
    port = await freePort();
    app = await appOver({ metricsPort: port, host: '127.0.0.1' });
    await app.listen({ port: 0, host: '127.0.0.1' });
    apiPort = (app.server.address() as { port: number }).port;
  });
  afterAll(() => app.close());

  it('serves /metrics on its own port without a token, and not on the API port', async () => {
    expect((await fetch(`http://127.0.0.1:${apiPort}/health`)).status).toBe(200);
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const body = await res.text();
    expect(sample(body, 'http_request_duration_seconds_count', { operation: 'getHealth', method: 'GET', status: '200' })).toBe(1);

    expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${apiPort}/metrics`)).status).toBe(404);
  });

  it('asks for the token on its own port too when METRICS_TOKEN is set', async () => {
    const own = await freePort();
    const guarded = await appOver({ metricsPort: own, metricsToken: token, host: '127.0.0.1' });
    try {
      await guarded.listen({ port: 0, host: '127.0.0.1' });
      expect((await fetch(`http://127.0.0.1:${own}/metrics`)).status).toBe(401);
      const res = await fetch(`http://127.0.0.1:${own}/metrics`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
    } finally {
      await guarded.close();
    }
  });
});
