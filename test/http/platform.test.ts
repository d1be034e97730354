import { createHash, randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import pino from 'pino';
import type { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../src/app.js';
import type { Config } from '../../src/config.js';
import type { Database } from '../../src/db/client.js';
import { REDACT_PATHS } from '../../src/plugins/request-log.js';
import { compileSerializer } from '../../src/plugins/serializer.js';
import type { ContentResponse } from '../../src/shared/http/route.js';
import { type TestContext, createTestApp, createTestDatabase, testConfig } from '../setup/app.js';
import { UUID } from '../setup/expect.js';
import { type SeededMedia, client, seedMedia } from '../setup/factories.js';

// The schemas each interface route declares, as Fastify saw them, to hold the OpenAPI
// document against. Recording only: the real recordRoutes still runs.
// The schemas each interface route declared, as the route table recorded them.
const declaredIn = (app: App) => new Map(app.routeTable.map((r) => [`${r.method} ${r.url}`, r.schema]));


let ctx: TestContext;
let seeded: SeededMedia;

beforeAll(async () => {
  ctx = await createTestApp();
  seeded = await seedMedia(ctx.app);
});
afterAll(() => ctx.close());

/** Another app over this file's database (one migration per file); the main context closes it. */
async function appOver(overrides: Partial<Config>, extra: { logger?: pino.Logger; redis?: Redis } = {}): Promise<App> {
  const database: Database = { ...ctx.database, close: async () => {} };
  const app = await buildApp({ config: testConfig(overrides), database, ...extra });
  await app.ready();
  return app;
}

/** A pino logger like the service's own (same redaction), writing to memory. */
function memoryLogger() {
  const raw: string[] = [];
  const logger = pino({ level: 'info', redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, { write: (line: string) => raw.push(line) });
  const lines = () => raw.flatMap((chunk) => chunk.split('\n').filter(Boolean)).map((l) => JSON.parse(l) as Record<string, unknown>);
  return { logger, raw, lines };
}

const requestId = (res: LightMyRequestResponse) => res.headers['x-request-id'] as string;

describe('GET /health and GET /ready', () => {
  it('answers 200 {status: ok} while the process is up', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('answers ready 200 {status: ok} while the database answers', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });
});

describe('once shutdown has begun', () => {
  it('every answer closes its connection: records, errors, 404s, /ready, /health and /docs; none did before', async () => {
    const app = await appOver({});
    try {
      const key = seeded.keys.viewer;
      const requests = [
        { url: '/core/v2/categories?limit=1', headers: { 'x-api-key': key }, status: 200 },
        { url: '/core/v2/categories?limit=1', headers: {}, status: 401 },
        { url: `/core/v2/categories/${randomUUID()}`, headers: { 'x-api-key': key }, status: 404 },
        { url: '/no/such/route', headers: {}, status: 404 },
        { url: '/health', headers: {}, status: 200 },
        { url: '/docs/json', headers: {}, status: 200 },
      ];
      const answers = async () => Promise.all(requests.map(({ url, headers }) => app.inject({ method: 'GET', url, headers })));
      const before = await answers();
      expect(before.map((r) => r.statusCode)).toEqual(requests.map((r) => r.status));
      expect(before.map((r) => r.headers.connection)).toEqual(requests.map(() => 'keep-alive'));
      expect((await app.inject({ method: 'GET', url: '/ready' })).headers.connection).toBe('keep-alive');

      app.beginShutdown();
      const after = await answers();
      expect(after.map((r) => r.statusCode)).toEqual(requests.map((r) => r.status));
      expect(after.map((r) => r.headers.connection)).toEqual(requests.map(() => 'close'));
      const ready = await app.inject({ method: 'GET', url: '/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'unavailable', error: 'the service is shutting down', code: 'shutting_down' });
      expect(ready.headers.connection).toBe('close');
    } finally {
      await app.close();
    }
  });
});

describe('a database that went away', () => {
  let app: App;
  let drop: () => Promise<void>;
  let closeDatabase: () => Promise<void>;
  const log = memoryLogger();

  beforeAll(async () => {
    const own = await createTestDatabase();
    drop = own.drop;
    let closing: Promise<void> | undefined;
    // The test closes the database under the running app; app.close() must not close it twice.
    closeDatabase = () => (closing ??= own.database.close());
    app = await buildApp({ config: testConfig(), database: { ...own.database, close: closeDatabase }, logger: log.logger });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await drop();
  });

  it('turns ready into 503 database_unavailable and an API call into a 503 with Retry-After, logged as a warning with its request id', async () => {
    const media = await seedMedia(app);
    const api = client(app, media.keys.viewer);
    // The first call caches the key, so the second reaches the listing's own query.
    expect((await api.get('/core/v2/categories')).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);

    await closeDatabase();

    const health = await app.inject({ method: 'GET', url: '/health' });
    expect(health.statusCode).toBe(200);
    const ready = await app.inject({ method: 'GET', url: '/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'unavailable', error: 'the database is unavailable; retry shortly', code: 'database_unavailable' });

    // An outage is not a bug: 503 with Retry-After (issue 7), logged as a warning, never a 500.
    const res = await api.get('/core/v2/categories');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ error: 'the database is unavailable; retry shortly', code: 'database_unavailable' });
    expect(res.headers['retry-after']).toBe('1');
    expect(res.body).not.toMatch(/stack|select|categories|pglite|pool/i);

    const unavailable = log.lines().filter((l) => l.msg === 'database unavailable');
    expect(unavailable).toHaveLength(1);
    expect(unavailable[0]).toMatchObject({ level: 40, reqId: requestId(res) });
    expect(log.lines().filter((l) => l.msg === 'request failed')).toHaveLength(0);
  });
});

describe('GET /openapi.json', () => {
  type Operation = {
    parameters?: Array<{ in: string; name: string; required?: boolean; schema?: unknown }>;
    requestBody?: { content?: Record<string, { schema?: unknown }> };
    responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
    security?: Array<Record<string, string[]>>;
    deprecated?: boolean;
  };
  let doc: {
    openapi: string;
    paths: Record<string, Record<string, Operation>>;
    components: { securitySchemes: Record<string, Record<string, unknown>> };
  };

  beforeAll(async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });

  const toOpenApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');
  const hasSchema = (content: Record<string, { schema?: unknown }> | undefined) =>
    Object.values(content ?? {}).some((media) => media.schema !== undefined);
  const keysOf = (schema: unknown) =>
    schema && typeof schema === 'object' && 'shape' in schema ? Object.keys((schema as z.ZodObject).shape) : [];

  it('is OpenAPI 3.1 with the apiKey security scheme', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'x-api-key' });
  });

  it('documents every route of the route table with its request and response schemas', () => {
    expect(ctx.app.routeTable.length).toBeGreaterThan(0);
    const declared = declaredIn(ctx.app);
    for (const route of ctx.app.routeTable) {
      const where = `${route.method} ${route.url}`;
      const op = doc.paths[toOpenApiPath(route.url)]?.[route.method.toLowerCase()];
      expect(op, `${where} is missing from the document`).toBeDefined();
      const schema = declared.get(where);
      expect(schema, `${where} declares no schema`).toBeDefined();
      const parameters = op!.parameters ?? [];

      for (const [, name] of route.url.matchAll(/:(\w+)/g)) {
        const param = parameters.find((p) => p.in === 'path' && p.name === name);
        expect(param, `${where}: path parameter ${name}`).toMatchObject({ required: true, schema: expect.any(Object) });
      }
      if (schema!.querystring) {
        const names = keysOf(schema!.querystring);
        expect(names.length, `${where}: query parameters`).toBeGreaterThan(0);
        for (const name of names) {
          expect(parameters.find((p) => p.in === 'query' && p.name === name), `${where}: query ${name}`).toBeDefined();
        }
      }
      if (schema!.body) {
        expect(hasSchema(op!.requestBody?.content), `${where}: request body`).toBe(true);
      }

      const statuses = Object.keys(schema!.response ?? {});
      expect(statuses.some((s) => /^2\d\d$/.test(s)), `${where}: a success response`).toBe(true);
      for (const status of statuses) {
        const response = op!.responses?.[status];
        expect(response, `${where}: response ${status}`).toBeDefined();
        if (status !== '204') expect(hasSchema(response!.content), `${where}: response ${status} schema`).toBe(true);
      }

      for (const requirement of op!.security ?? []) {
        for (const scheme of Object.keys(requirement)) {
          expect(doc.components.securitySchemes[scheme], `${where}: security scheme ${scheme}`).toBeDefined();
        }
      }
      if (route.interface === 'backoffice') expect(op!.security, where).toContainEqual({ apiKey: [] });
      if (route.interface === 'reader' && !route.anonymous) {
        expect(op!.security?.some((r) => 'bearer' in r), `${where}: bearer security`).toBe(true);
      }
      // Every Public operation is deprecated; its index (GET /api/public) documents the move away.
      if (route.interface === 'public') expect(op!.deprecated, where).toBe(route.operationId === 'publicListOperations' ? undefined : true);
    }
  });

  it('has a serializer for every response a route declares (compiled at the first answer, so checked here)', () => {
    let compiled = 0;
    for (const route of ctx.app.routeTable) {
      for (const [status, response] of Object.entries((route.schema?.response ?? {}) as Record<string, z.ZodType | ContentResponse>)) {
        // A response per media type (RSS, sitemaps) has a schema for each.
        const schemas = 'content' in response ? Object.values(response.content).map((c) => c.schema as z.ZodType) : [response];
        for (const schema of schemas) {
          expect(() => compileSerializer(schema), `${route.method} ${route.url} ${status}`).not.toThrow();
          expect(compileSerializer(schema)).toBeTypeOf('function');
          compiled++;
        }
      }
    }
    expect(compiled).toBeGreaterThan(ctx.app.routeTable.length);
  });

  it('documents the operations routes too', () => {
    expect(Object.keys(doc.paths['/health']!.get!.responses!)).toEqual(['200']);
    expect(Object.keys(doc.paths['/ready']!.get!.responses!).sort()).toEqual(['200', '503']);
  });
});

describe('GET /docs', () => {
  it('serves an HTML reference whose every asset is served locally', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const refs = [...res.body.matchAll(/\b(?:src|href)\s*=\s*["']([^"']+)["']/gi)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      expect(ref, 'an asset from another host').not.toMatch(/^(?:[a-z][a-z0-9+.-]*:|\/\/)/i);
      const url = new URL(ref, 'http://local/docs/').pathname;
      const asset = await ctx.app.inject({ method: 'GET', url });
      expect(asset.statusCode, url).toBe(200);
    }
  });

  it('points the UI at the local document and switches off the online validator', async () => {
    const init = await ctx.app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    expect(init.statusCode).toBe(200);
    expect(init.body).toMatch(/validatorUrl:\s*null/);
    expect(init.body).toMatch(/url:\s*resolveUrl\(['"]\.\/json['"]\)/);
    const json = await ctx.app.inject({ method: 'GET', url: '/docs/json' });
    expect(json.statusCode).toBe(200);
    expect(json.json().openapi).toMatch(/^3\.1\./);
  });

  it('starts collapsed, with its filter on', async () => {
    const init = await ctx.app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    const config = /const config = (\{.*?\})\n/s.exec(init.body)?.[1];
    expect(config, 'the UI config in the initializer').toBeDefined();
    expect(JSON.parse(config!)).toMatchObject({ docExpansion: 'none', filter: true, defaultModelsExpandDepth: -1 });
  });

  it('allows by its hash the inline style its scripts render, and no other inline style', async () => {
    const preset = await ctx.app.inject({ method: 'GET', url: '/docs/static/swagger-ui-standalone-preset.js' });
    const styles = [...preset.body.matchAll(/createElement\("style",null,("(?:[^"\\]|\\.)*")\)/g)].map((m) => JSON.parse(m[1]!) as string);
    expect(styles.length).toBeGreaterThan(0);
    for (const url of ['/docs', '/docs/static/swagger-ui-standalone-preset.js']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      const styleSrc = /style-src ([^;]*)/.exec(String(res.headers['content-security-policy']))?.[1];
      const expected = styles.map((text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`);
      expect(styleSrc?.split(' ').sort(), url).toEqual(["'self'", ...new Set(expected)].sort());
    }
  });
});

describe('request ids', () => {
  it('echoes a plain x-request-id as given', async () => {
    const given = `trace-${randomUUID()}.a:b_c`;
    const res = await ctx.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': given } });
    expect(res.headers['x-request-id']).toBe(given);
  });

  it('replaces a malformed x-request-id with a generated one', async () => {
    for (const given of ['has spaces in it', 'line\nbreak', 'tab\tbed', 'semi;colon', 'x'.repeat(129)]) {
      const res = await ctx.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': given } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-request-id'], JSON.stringify(given)).toMatch(UUID);
    }
  });

  it('generates one when none is given, a new one each time', async () => {
    const a = await ctx.app.inject({ method: 'GET', url: '/health' });
    const b = await ctx.app.inject({ method: 'GET', url: '/health' });
    expect(requestId(a)).toMatch(UUID);
    expect(requestId(b)).toMatch(UUID);
    expect(requestId(a)).not.toBe(requestId(b));
  });
});

describe('security headers', () => {
  it('sends nosniff and a restrictive content security policy on JSON answers, errors included', async () => {
    const api = client(ctx.app, seeded.keys.viewer);
    for (const res of [
      await ctx.app.inject({ method: 'GET', url: '/health' }),
      await api.get('/core/v2/categories'),
      await client(ctx.app).get('/core/v2/categories'),
      await ctx.app.inject({ method: 'GET', url: '/nowhere' }),
    ]) {
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-site');
    }
  });
});

describe('unknown routes', () => {
  it('answer 404 {error, code: route_not_found}, before any authentication', async () => {
    for (const [method, url] of [
      ['GET', '/nowhere'],
      ['POST', '/core/v2/nothing-here'],
      ['DELETE', '/core/v2/categories'],
    ] as const) {
      const res = await ctx.app.inject({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toEqual({ error: expect.any(String), code: 'route_not_found' });
    }
  });
});

describe('rate limits', () => {
  let app: App;
  let media: SeededMedia;
  const limits = { backoffice: 3, reader: 3, anonymous: 3, token: 3 };

  beforeAll(async () => {
    app = await appOver({ rateLimit: limits });
    media = await seedMedia(app);
  });
  afterAll(() => app.close());

  it('answers the 4th Backoffice call of a key within a minute with 429 and RateLimit headers', async () => {
    const api = client(app, media.keys.editor);
    for (let i = 0; i < 3; i++) {
      const res = await api.get('/core/v2/categories');
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-limit']).toBe('3');
      expect(res.headers['ratelimit-remaining']).toBe(String(2 - i));
    }
    const res = await api.get('/core/v2/categories');
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({ error: expect.any(String), code: 'rate_limited' });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(res.headers['ratelimit-limit']).toBe('3');
    expect(res.headers['ratelimit-remaining']).toBe('0');
    expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThan(0);

    // The bucket is the key's, whatever the route.
    expect((await api.get('/core/v2/media')).statusCode).toBe(429);
  });

  it('keeps a bucket per key: another key of the same media still passes', async () => {
    const res = await client(app, media.keys.viewer).get('/core/v2/categories');
    expect(res.statusCode).toBe(200);
    expect(res.headers['ratelimit-remaining']).toBe('2');
  });

  describe.skipIf(!process.env.TEST_REDIS_URL)('with a shared Redis store', () => {
    let redis: Redis;
    let apps: App[];
    let shared: SeededMedia;
    const counters: string[] = [];

    beforeAll(async () => {
      redis = new Redis(process.env.TEST_REDIS_URL!, { maxRetriesPerRequest: 1 });
      apps = [await appOver({ rateLimit: limits }, { redis }), await appOver({ rateLimit: limits }, { redis })];
      shared = await seedMedia(apps[0]!);
      // Counters are named after fresh key ids, so this run touches no one else's keys.
      for (const secret of [shared.keys.editor, shared.keys.viewer]) {
        const principal = await apps[0]!.services.core.apiKeys.authenticate(secret);
        counters.push(`mps-rl-backoffice-key:${principal!.keyId}`);
      }
    });
    afterAll(async () => {
      if (counters.length > 0) await redis.del(...counters);
      for (const app of apps ?? []) await app.close();
      await redis.quit();
    });

    it('counts a key across instances: the 4th call, on either instance, is 429', async () => {
      const [a, b] = [client(apps[0]!, shared.keys.editor), client(apps[1]!, shared.keys.editor)];
      expect((await a.get('/core/v2/categories')).statusCode).toBe(200);
      expect((await b.get('/core/v2/categories')).statusCode).toBe(200);
      const third = await a.get('/core/v2/categories');
      expect(third.statusCode).toBe(200);
      expect(third.headers['ratelimit-remaining']).toBe('0');

      const res = await b.get('/core/v2/categories');
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual({ error: expect.any(String), code: 'rate_limited' });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.headers['ratelimit-limit']).toBe('3');
      expect(res.headers['ratelimit-remaining']).toBe('0');
      expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThan(0);
      expect(Number(await redis.get(counters[0]!))).toBe(4);
      expect(await redis.pttl(counters[0]!)).toBeGreaterThan(0);
    });

    it('keeps a bucket per key in Redis too', async () => {
      const res = await client(apps[1]!, shared.keys.viewer).get('/core/v2/categories');
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-remaining']).toBe('2');
    });
  });
});

describe('request log', () => {
  let app: App;
  let media: SeededMedia;
  const log = memoryLogger();

  beforeAll(async () => {
    app = await appOver({ logLevel: 'info' }, { logger: log.logger });
    media = await seedMedia(app);
  });
  afterAll(() => app.close());

  it('writes one line per request with id, route, status and duration, and never a secret', async () => {
    const key = media.keys.viewer;
    const querySecret = `qs-${randomUUID()}`;
    const bearer = `bearer-${randomUUID()}`;
    const cookie = `cookie-${randomUUID()}`;
    const wrongKey = `mps_${randomUUID()}${randomUUID()}`;

    const sent: Array<{ res: LightMyRequestResponse; route: string | null; status: number }> = [];
    const send = async (url: string, headers: Record<string, string>, route: string | null, status: number) =>
      sent.push({ res: await app.inject({ method: 'GET', url, headers }), route, status });

    await send('/core/v2/categories?limit=5', { 'x-api-key': key, cookie: `session=${cookie}` }, '/core/v2/categories', 200);
    await send(`/core/v2/categories?api_key=${querySecret}`, {}, '/core/v2/categories', 401);
    await send(`/health?api_key=${querySecret}&token=${querySecret}`, { authorization: `Bearer ${bearer}` }, '/health', 200);
    await send('/core/v2/categories', { 'x-api-key': wrongKey }, '/core/v2/categories', 401);
    await send(`/nowhere?api_key=${querySecret}`, { 'x-api-key': key }, null, 404);

    const completed = log.lines().filter((l) => l.msg === 'request completed');
    for (const { res, route, status } of sent) {
      expect(res.statusCode).toBe(status);
      const mine = completed.filter((l) => l.reqId === requestId(res));
      expect(mine, `${route} ${status}`).toHaveLength(1);
      expect(mine[0]).toMatchObject({ level: 30, method: 'GET', route, status, duration_ms: expect.any(Number) });
      expect(mine[0]!.duration_ms as number).toBeGreaterThanOrEqual(0);
    }
    expect(completed).toHaveLength(sent.length);

    const queryLine = completed.find((l) => l.reqId === requestId(sent[1]!.res))!;
    expect(queryLine.url).toMatch(/^\/core\/v2\/categories\?api_key=(%5B|\[)redacted(%5D|\])$/);

    const text = log.raw.join('');
    for (const secret of [key, querySecret, bearer, cookie, wrongKey]) expect(text).not.toContain(secret);
  });

  it('logs the generated id, not a malformed one that was sent', async () => {
    const res = await app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'forged" "msg":"hacked' } });
    expect(requestId(res)).toMatch(UUID);
    const mine = log.lines().filter((l) => l.reqId === requestId(res));
    expect(mine).toHaveLength(1);
    expect(log.raw.join('')).not.toContain('hacked');
  });
});
