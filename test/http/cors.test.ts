import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../src/app.js';
import type { Config } from '../../src/config.js';
import type { Database } from '../../src/db/client.js';
import { type TestContext, createTestApp, testConfig } from '../setup/app.js';
import { type SeededMedia, client, seedMedia } from '../setup/factories.js';
import { clientToken, registerClient } from '../setup/reader.js';

const FRONT_END = 'https://reader.example';
const DEV_SERVER = 'http://localhost:5173';
const ADMIN = 'https://admin.example';
const EXPOSED = 'RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, RateLimit-Policy, RateLimit, Retry-After, ETag, Idempotent-Replayed, Link, Deprecation, Sunset, x-request-id';

let ctx: TestContext;
let media: SeededMedia;
let token: string;
let ref: string;
const others: App[] = [];

/** Another app over this file's database, with other CORS settings. */
async function appWith(overrides: Partial<Config>): Promise<App> {
  const database: Database = { ...ctx.database, close: async () => {} };
  const app = await buildApp({ config: testConfig(overrides), database });
  await app.ready();
  others.push(app);
  return app;
}

beforeAll(async () => {
  ctx = await createTestApp({ corsOrigins: [FRONT_END, DEV_SERVER] });
  media = await seedMedia(ctx.app);
  token = (await clientToken(ctx.app, await registerClient(ctx.app, media.keys.admin, ['media:read']))).access_token;
  ref = (await client(ctx.app, media.keys.editor).post('/core/v2/references', { provider: 'cms', urn: `urn:mps:content:${randomUUID()}` }))
    .json().data.ref;
});
afterAll(async () => {
  for (const app of others) await app.close();
  await ctx?.close();
});

const preflight = (app: App, url: string, origin: string, method = 'GET', headers = 'authorization, x-service-media-id') =>
  app.inject({
    method: 'OPTIONS',
    url,
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
  });

const varyOf = (res: LightMyRequestResponse) =>
  String(res.headers.vary ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);

function expectNoCors(res: LightMyRequestResponse) {
  for (const name of Object.keys(res.headers)) expect(name, `${name} on ${res.statusCode}`).not.toMatch(/^access-control-/);
}

function expectRouteNotFound(res: LightMyRequestResponse) {
  expect(res.statusCode).toBe(404);
  expect(res.json()).toEqual({ error: expect.stringMatching(/^no route OPTIONS /), code: 'route_not_found' });
}

describe('CORS_ORIGINS: the Reader, the token endpoint and the Public API', () => {
  it('answers a preflight from a listed origin before authentication, cached for two hours', async () => {
    const res = await preflight(ctx.app, '/api/media/v1/categories', FRONT_END);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(res.headers['access-control-allow-origin']).toBe(FRONT_END);
    expect(res.headers['access-control-allow-methods']).toBe('GET, HEAD, POST, PUT, PATCH, DELETE');
    expect(res.headers['access-control-allow-headers']).toBe('authorization, x-service-media-id');
    expect(res.headers['access-control-max-age']).toBe('7200');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(varyOf(res)).toEqual(expect.arrayContaining(['origin', 'access-control-request-headers']));
    // Not counted against anyone's rate limit.
    expect(res.headers['ratelimit-limit']).toBeUndefined();
  });

  it('answers a preflight for the token endpoint with a form body', async () => {
    const res = await preflight(ctx.app, '/api/media/v1/oauth/token', DEV_SERVER, 'POST', 'content-type');
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(DEV_SERVER);
    expect(res.headers['access-control-allow-headers']).toBe('content-type');
  });

  it('gives an origin that is not listed no Access-Control-Allow-Origin, so the browser refuses', async () => {
    const res = await preflight(ctx.app, '/api/media/v1/categories', 'https://evil.example');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const get = await ctx.app.inject({
      method: 'GET',
      url: '/api/media/v1/categories',
      headers: { origin: 'https://evil.example', 'x-service-media-id': media.mediaId, authorization: `Bearer ${token}` },
    });
    expect(get.statusCode).toBe(200);
    expect(get.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('lets the front end read the answer and its rate-limit, paging and request-id headers', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/media/v1/categories',
      headers: { origin: FRONT_END, 'x-service-media-id': media.mediaId, authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([]);
    expect(res.headers['access-control-allow-origin']).toBe(FRONT_END);
    expect(res.headers['access-control-expose-headers']).toBe(EXPOSED);
    expect(varyOf(res)).toContain('origin');
    expect(res.headers['ratelimit-limit']).toEqual(expect.any(String));
  });

  it('lets the front end read errors too: a 401 and an RFC 6749 token error', async () => {
    const missing = await ctx.app.inject({
      method: 'GET',
      url: '/api/media/v1/categories',
      headers: { origin: FRONT_END, 'x-service-media-id': media.mediaId },
    });
    expect(missing.statusCode).toBe(401);
    expect(missing.json().code).toBe('missing_token');
    expect(missing.headers['access-control-allow-origin']).toBe(FRONT_END);

    const token = await ctx.app.inject({
      method: 'POST',
      url: '/api/media/v1/oauth/token',
      headers: { origin: FRONT_END, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=password',
    });
    expect(token.statusCode).toBe(400);
    expect(token.json().error).toBe('unsupported_grant_type');
    expect(token.headers['access-control-allow-origin']).toBe(FRONT_END);
  });

  it('keeps the JWKS cacheable per media and per origin', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/media/v1/oauth/jwks',
      headers: { origin: FRONT_END, 'x-service-media-id': media.mediaId },
    });
    expect(res.statusCode).toBe(200);
    expect(varyOf(res)).toEqual(['origin', 'x-service-media-id']);
  });

  it('opens the Public API read-only to the same origins, its deprecation headers readable', async () => {
    const url = `/api/public/core/v2/medias/${media.mediaId}/references/${ref}`;
    const pre = await preflight(ctx.app, url, FRONT_END, 'GET', 'accept');
    expect(pre.statusCode).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe(FRONT_END);
    expect(pre.headers['access-control-allow-methods']).toBe('GET, HEAD');
    const res = await ctx.app.inject({ method: 'GET', url, headers: { origin: FRONT_END } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(FRONT_END);
    expect(res.headers['access-control-expose-headers']).toBe(EXPOSED);
    expect(res.headers.deprecation).toBe('@1767225600');
  });

  it('leaves the Backoffice closed to browsers: no preflight route, no CORS headers', async () => {
    expectRouteNotFound(await preflight(ctx.app, '/core/v2/categories', FRONT_END, 'GET', 'x-api-key'));
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/core/v2/categories',
      headers: { origin: FRONT_END, 'x-api-key': media.keys.viewer },
    });
    expect(res.statusCode).toBe(200);
    expectNoCors(res);
  });
});

describe('CORS_ORIGINS=*', () => {
  it('allows any origin without Vary: Origin, and keeps the Backoffice closed', async () => {
    const app = await appWith({ corsOrigins: '*' });
    const pre = await preflight(app, '/api/media/v1/categories', 'https://anyone.example');
    expect(pre.statusCode).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('*');
    const res = await app.inject({
      method: 'GET',
      url: '/api/media/v1/oauth/jwks',
      headers: { origin: 'https://anyone.example', 'x-service-media-id': media.mediaId },
    });
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers.vary).toBe('x-service-media-id');
    expectRouteNotFound(await preflight(app, '/core/v2/categories', 'https://anyone.example'));
  });
});

describe('CORS_BACKOFFICE_ORIGINS', () => {
  it('opens the Backoffice to its own origins only, and the Reader stays as CORS_ORIGINS says', async () => {
    const app = await appWith({ corsOrigins: [FRONT_END], corsBackofficeOrigins: [ADMIN] });
    const pre = await preflight(app, '/core/v2/categories', ADMIN, 'POST', 'x-api-key, content-type');
    expect(pre.statusCode).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe(ADMIN);
    expect(pre.headers['access-control-allow-headers']).toBe('x-api-key, content-type');
    const res = await app.inject({ method: 'GET', url: '/core/v2/categories', headers: { origin: ADMIN, 'x-api-key': media.keys.viewer } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(ADMIN);
    expect(res.headers['access-control-expose-headers']).toBe(EXPOSED);

    expect((await preflight(app, '/core/v2/categories', FRONT_END)).headers['access-control-allow-origin']).toBeUndefined();
    expect((await preflight(app, '/api/media/v1/categories', ADMIN)).headers['access-control-allow-origin']).toBeUndefined();
    expect((await preflight(app, '/api/media/v1/categories', FRONT_END)).headers['access-control-allow-origin']).toBe(FRONT_END);
  });

  it('does not open the Reader when only the Backoffice has origins', async () => {
    const app = await appWith({ corsBackofficeOrigins: [ADMIN] });
    expect((await preflight(app, '/core/v2/categories', ADMIN)).statusCode).toBe(204);
    expectRouteNotFound(await preflight(app, '/api/media/v1/categories', ADMIN));
    expectRouteNotFound(await preflight(app, `/api/public/core/v2/medias/${media.mediaId}/references/${ref}`, ADMIN));
    const res = await app.inject({
      method: 'GET',
      url: '/api/media/v1/categories',
      headers: { origin: ADMIN, 'x-service-media-id': media.mediaId, authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(200);
    expectNoCors(res);
  });
});

describe('without CORS settings', () => {
  it('answers as before: a preflight is 404 and no answer carries CORS headers', async () => {
    const app = await appWith({});
    expectRouteNotFound(await preflight(app, '/api/media/v1/categories', FRONT_END));
    expectRouteNotFound(await preflight(app, '/core/v2/categories', FRONT_END));
    const res = await app.inject({
      method: 'GET',
      url: '/api/media/v1/oauth/jwks',
      headers: { origin: FRONT_END, 'x-service-media-id': media.mediaId },
    });
    expect(res.statusCode).toBe(200);
    expectNoCors(res);
    expect(res.headers.vary).toBe('x-service-media-id');
  });
});
