import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { type SeededMedia, seedMedia } from '../../setup/factories.js';
import { type JwksTestProvider, startJwksProvider } from '../../setup/identity-providers.js';
import { clientToken, registerClient, registerProvider } from '../../setup/reader.js';

// Every Reader route, enumerated at run time: routes added later are covered without edits.
let ctx: TestContext;
let media: SeededMedia;
let idp: JwksTestProvider;
let readerToken: string;
let appToken: string;
let noScopeToken: string;

beforeAll(async () => {
  ctx = await createTestApp({ rateLimit: { backoffice: 10_000, reader: 10_000, anonymous: 10_000, token: 10_000 } });
  media = await seedMedia(ctx.app);
  idp = await startJwksProvider();
  await registerProvider(ctx.app, media.keys.admin, idp.registration);
  readerToken = await idp.mint({ sub: 'route-table-reader' });
  appToken = (await clientToken(ctx.app, await registerClient(ctx.app, media.keys.admin))).access_token;
  // A token with one scope only, used on routes that need another.
  noScopeToken = (await clientToken(ctx.app, await registerClient(ctx.app, media.keys.admin, ['media:read']))).access_token;
});
afterAll(async () => {
  await ctx?.close();
  await idp?.close();
});

const call = (method: string, url: string, headers: Record<string, string>) =>
  ctx.app.inject({ method: method as 'GET', url, headers });
const withIds = (url: string) => url.replace(/:(\w+)/g, () => randomUUID());

describe('every Reader route', () => {
  it('the table lists Reader routes, each with a scope or marked anonymous', () => {
    const routes = ctx.app.routeTable.filter((r) => r.interface === 'reader');
    expect(routes.length).toBeGreaterThan(15);
    for (const route of routes) expect(route.anonymous || Boolean(route.scope), `${route.method} ${route.url}`).toBe(true);
  });

  it('answers 400 missing_media_id without x-service-media-id, unless the route does not need it', async () => {
    for (const route of ctx.app.routeTable.filter((r) => r.interface === 'reader')) {
      const res = await call(route.method, withIds(route.url), { authorization: `Bearer ${readerToken}` });
      if (route.url.endsWith('/oauth/token') || route.mediaOptional) continue;
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(400);
      expect(res.json().code).toBe('missing_media_id');
    }
  });

  it('answers 401 missing_token without a bearer token, on every route that is not anonymous', async () => {
    for (const route of ctx.app.routeTable.filter((r) => r.interface === 'reader' && !r.anonymous)) {
      const res = await call(route.method, withIds(route.url), { 'x-service-media-id': media.mediaId });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
      expect(res.json().code).toBe('missing_token');
    }
  });

  it('answers 403 insufficient_scope to a token without the route scope', async () => {
    const routes = ctx.app.routeTable.filter((r) => r.interface === 'reader' && r.scope && r.scope !== 'media:read');
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) {
      const res = await call(route.method, withIds(route.url), {
        'x-service-media-id': media.mediaId,
        authorization: `Bearer ${noScopeToken}`,
      });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(res.json().code).toBe('insufficient_scope');
    }
  });

  it('answers 403 reader_required to an application token on routes about the signed-in reader', async () => {
    const routes = ctx.app.routeTable.filter((r) => r.interface === 'reader' && r.readerRequired);
    expect(routes.length).toBeGreaterThan(5);
    for (const route of routes) {
      const res = await call(route.method, withIds(route.url), {
        'x-service-media-id': media.mediaId,
        authorization: `Bearer ${appToken}`,
      });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(res.json().code).toBe('reader_required');
    }
  });

  it('answers 400 invalid_uuid to malformed ids in the path, and never a 5xx', async () => {
    const routes = ctx.app.routeTable.filter((r) => r.interface === 'reader' && r.hasUuidParam);
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) {
      for (const bad of ['not-a-uuid', '1234', randomUUID().slice(1)]) {
        const res = await call(route.method, route.url.replace(/:(\w+)/g, bad), {
          'x-service-media-id': media.mediaId,
          authorization: `Bearer ${readerToken}`,
        });
        expect(res.statusCode, `${route.method} ${route.url} ${bad}`).toBe(400);
        expect(res.json()).toMatchObject({ error: expect.any(String), code: 'invalid_uuid' });
      }
    }
  });
});
