import { randomBytes, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RouteEntry } from '../../../src/shared/http/route-table.js';
import { ROLES, type Role, can } from '../../../src/shared/permissions.js';
import type { TestContext } from '../app.js';
import { expectError } from '../expect.js';
import { type SeededMedia, client, seedMedia } from '../factories.js';
import { type JwksTestProvider, startJwksProvider } from '../identity-providers.js';
import { clientToken, registerClient, registerProvider } from '../reader.js';

/**
 * The checks every route of a tree gets from the route table alone (its auth, its tenancy of ids,
 * its malformed params), declared per route, so that an area's routes, an added one among them, are
 * covered without a test naming them.
 */

const PARAM = /:([A-Za-z_][A-Za-z0-9_]*)(\([^)]*\))?/g;

export const paramNames = (url: string) => [...url.matchAll(PARAM)].map((m) => m[1]!);

/** Params that name a record by uuid: `id`, `event_id`, `blockId`, ... */
const isIdParam = (name: string) => /^id$|_id$|[a-z]Id$/.test(name);

/** A plausible value for any path parameter, so that the request reaches the route. */
function sampleValue(name: string): string {
  if (isIdParam(name)) return randomUUID();
  if (name === 'ref') return `prov:${randomUUID()}`;
  if (name === 'locale') return 'en';
  return `sample-${name}`;
}

/** The route's URL with every parameter filled in; `override` replaces chosen ones. */
function pathOf(entry: RouteEntry, override: Record<string, string> = {}): string {
  return entry.url.replace(PARAM, (_m, name: string) => encodeURIComponent(override[name] ?? sampleValue(name))).replace(/\*$/, 'sample');
}

export const rolesLacking = (permission: RouteEntry['permission']): Role[] => (permission ? ROLES.filter((role) => !can(role, permission)) : []);

/** A minimal valid create body per Backoffice collection path, so that the routes on one record can be called on a real one. */
export type CreateBodies = Record<string, () => Record<string, unknown>>;

/**
 * The Backoffice checks of `routes` (read from the table at collection time): 401 without a key,
 * with a bad, revoked or expired one; 403 to each role lacking the permission; past authentication
 * (on a real record where `bodies` can create one) for each role holding it; no 5xx and 400
 * invalid_uuid on malformed params. Returns what a file's own tests ask of the same table.
 */
export function backofficeRouteTable(ctx: TestContext, routes: RouteEntry[], bodies: CreateBodies) {
  let seeded: SeededMedia;
  let revokedKey: string;
  let expiredKeys: string[];

  beforeAll(async () => {
    seeded = await seedMedia(ctx.app);
    const admin = client(ctx.app, seeded.keys.admin);

    // Both keys are shown to work first, so that the 401s below come from revocation and
    // expiry, not from a key that never existed.
    const created = await admin.post('/core/v2/api-keys', { name: 'to be revoked', role: 'admin' });
    expect(created.statusCode).toBe(201);
    revokedKey = created.json().data.key;
    expect((await client(ctx.app, revokedKey).get('/core/v2/media')).statusCode).toBe(200);
    expect((await admin.delete(`/core/v2/api-keys/${created.json().data.id}`)).statusCode).toBe(204);

    const expiresAt = new Date(Date.now() + 1_000);
    const expiring = await ctx.app.services.core.apiKeys.create(seeded.mediaId, { name: 'expiring', role: 'admin', expires_at: expiresAt });
    expect((await client(ctx.app, expiring.secret).get('/core/v2/media')).statusCode).toBe(200);
    const expired = await ctx.app.services.core.apiKeys.create(seeded.mediaId, {
      name: 'expired',
      role: 'admin',
      expires_at: new Date(Date.now() - 60_000),
    });
    expiredKeys = [expiring.secret, expired.secret];
    await new Promise((resolve) => setTimeout(resolve, expiresAt.getTime() - Date.now() + 50));
  });

  const call = (entry: RouteEntry, headers: Record<string, string>, override: Record<string, string> = {}) =>
    ctx.app.inject({ method: entry.method as 'GET', url: pathOf(entry, override), headers });

  /**
   * How to reach a real record for a route that reads or acts on one record without a body
   * (GET, DELETE or POST …/restore on `<collection>/:param`), when the collection can be created here.
   */
  function recordRoute(entry: RouteEntry) {
    const match = /^(.*)\/:(id|ref)(\/restore)?$/.exec(entry.url);
    if (!match) return undefined;
    const [, collection, param, restore] = match as unknown as [string, string, 'id' | 'ref', string | undefined];
    const bodyless = restore ? entry.method === 'POST' : entry.method === 'GET' || entry.method === 'DELETE';
    const body = bodies[collection];
    const creatable = routes.some((r) => r.method === 'POST' && r.url === collection);
    if (!bodyless || !body || !creatable) return undefined;
    const deletable = routes.some((r) => r.method === 'DELETE' && r.url === `${collection}/:${param}`);
    return { collection, param, restore: Boolean(restore), body, deletable };
  }

  for (const entry of routes) {
    describe(`${entry.method} ${entry.url}`, () => {
      it('answers 401 missing_api_key without a key, and with an empty one', async () => {
        expectError(await call(entry, {}), 401, 'missing_api_key');
        expectError(await call(entry, { 'x-api-key': '' }), 401, 'missing_api_key');
      });

      it('answers 401 invalid_api_key with an unknown, a garbled or an oversized key', async () => {
        expectError(await call(entry, { 'x-api-key': `mps_${randomBytes(32).toString('base64url')}` }), 401, 'invalid_api_key');
        expectError(await call(entry, { 'x-api-key': 'not a key' }), 401, 'invalid_api_key');
        expectError(await call(entry, { 'x-api-key': `mps_${'a'.repeat(5000)}` }), 401, 'invalid_api_key');
      });

      it('answers 401 to a revoked key and to an expired key, even with the admin role', async () => {
        expectError(await call(entry, { 'x-api-key': revokedKey }), 401, 'invalid_api_key');
        for (const key of expiredKeys) expectError(await call(entry, { 'x-api-key': key }), 401, 'invalid_api_key');
      });

      it('answers 403 forbidden to every built-in role that lacks its permission', async () => {
        const lacking = rolesLacking(entry.permission);
        expect(lacking, 'no built-in role lacks the permission, or the route declares none').not.toEqual([]);
        for (const role of lacking) {
          const res = await call(entry, { 'x-api-key': seeded.keys[role] });
          expectError(res, 403, 'forbidden');
        }
      });

      it('lets a role that holds its permission past authentication', async () => {
        const allowed = ROLES.filter((role) => entry.permission && can(role, entry.permission));
        expect(allowed).toContain('admin');
        for (const role of allowed) {
          const res = await call(entry, { 'x-api-key': seeded.keys[role] });
          expect([401, 403], `${role}: ${res.body}`).not.toContain(res.statusCode);
          expect(res.statusCode, res.body).toBeLessThan(500);
        }

        // A random id can only miss; on a real record of the media each role must succeed.
        const target = recordRoute(entry);
        if (!target) return;
        const admin = client(ctx.app, seeded.keys.admin);
        for (const role of allowed) {
          const created = await admin.post(target.collection, target.body());
          expect(created.statusCode, created.body).toBe(201);
          const record = created.json().data as Record<string, string>;
          const key = record[target.param]!;
          if (target.restore && target.deletable) {
            expect((await admin.delete(`${target.collection}/${encodeURIComponent(key)}`)).statusCode).toBe(204);
          }
          const res = await call(entry, { 'x-api-key': seeded.keys[role] }, { [target.param]: key });
          expect(res.statusCode, `${role}: ${res.body}`).toBeGreaterThanOrEqual(200);
          expect(res.statusCode, `${role}: ${res.body}`).toBeLessThan(300);
          if (entry.method === 'DELETE') expect(res.statusCode).toBe(204);
          else expect(res.json().data[target.param], `${role}: ${res.body}`).toBe(key);
          if (target.restore) expect(res.json().data.deleted_at).toBeNull();
        }
      });

      const params = paramNames(entry.url);
      if (params.length > 0) {
        const malformed = ['not-a-uuid', '1234', randomUUID().slice(0, -1)];

        it('never answers 5xx to malformed path parameters', async () => {
          for (const name of params) {
            for (const bad of [...malformed, "' or 1=1 --", '%00', '\u0000', '../..', 'x'.repeat(190)]) {
              const res = await call(entry, { 'x-api-key': seeded.keys.admin }, { [name]: bad });
              expect(res.statusCode, `${name}=${bad}: ${res.body}`).toBeLessThan(500);
              // A free-form parameter may find nothing and still answer 200; a malformed id may not.
              if (isIdParam(name)) expect(res.statusCode, `${name}=${bad}`).toBeGreaterThanOrEqual(400);
            }
          }
        });

        if (entry.hasUuidParam) {
          it('answers 400 invalid_uuid with an error sentence for each malformed id', async () => {
            const ids = params.filter(isIdParam);
            expect(ids, 'the route has a uuid parameter this test cannot name').not.toEqual([]);
            for (const name of ids) {
              for (const bad of malformed) {
                const res = await call(entry, { 'x-api-key': seeded.keys.admin }, { [name]: bad });
                expectError(res, 400, 'invalid_uuid');
                expect(res.json().error).toEqual(expect.stringMatching(/\S/));
              }
            }
          });
        }
      }
    });
  }

  return { recordRoute };
}

/** How many Reader routes of the table a file expects in each group its checks loop over (a group left out is not checked). */
export interface ReaderMinimums {
  routes: number;
  scoped?: number;
  readerRequired?: number;
  uuid: number;
}

/**
 * The Reader checks of the routes `select` picks from the table (read when the tests run): a scope
 * or anonymous each; 400 missing_media_id; 401 missing_token; 403 insufficient_scope and
 * reader_required where they apply; 400 invalid_uuid and never a 5xx on malformed ids.
 */
export function readerRouteTable(context: () => TestContext, select: (route: RouteEntry) => boolean, minimums: ReaderMinimums) {
  let media: SeededMedia;
  let idp: JwksTestProvider;
  let readerToken: string;
  let appToken: string;
  let noScopeToken: string;

  beforeAll(async () => {
    const { app } = context();
    media = await seedMedia(app);
    idp = await startJwksProvider();
    await registerProvider(app, media.keys.admin, idp.registration);
    readerToken = await idp.mint({ sub: 'route-table-reader' });
    appToken = (await clientToken(app, await registerClient(app, media.keys.admin))).access_token;
    // A token with one scope only, used on routes that need another.
    noScopeToken = (await clientToken(app, await registerClient(app, media.keys.admin, ['media:read']))).access_token;
    return () => idp.close();
  });

  const call = (method: string, url: string, headers: Record<string, string>) => context().app.inject({ method: method as 'GET', url, headers });
  const withIds = (url: string) => url.replace(/:(\w+)/g, () => randomUUID());
  const routes = (also: (route: RouteEntry) => boolean = () => true) => context().app.routeTable.filter((r) => r.interface === 'reader' && select(r) && also(r));

  it('the table lists Reader routes, each with a scope or marked anonymous', () => {
    expect(routes().length).toBeGreaterThanOrEqual(minimums.routes);
    for (const route of routes()) expect(route.anonymous || Boolean(route.scope), `${route.method} ${route.url}`).toBe(true);
  });

  it('answers 400 missing_media_id without x-service-media-id, unless the route does not need it', async () => {
    for (const route of routes()) {
      const res = await call(route.method, withIds(route.url), { authorization: `Bearer ${readerToken}` });
      if (route.url.endsWith('/oauth/token') || route.mediaOptional) continue;
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(400);
      expect(res.json().code).toBe('missing_media_id');
    }
  });

  it('answers 401 missing_token without a bearer token, on every route that is not anonymous', async () => {
    for (const route of routes((r) => !r.anonymous)) {
      const res = await call(route.method, withIds(route.url), { 'x-service-media-id': media.mediaId });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
      expect(res.json().code).toBe('missing_token');
    }
  });

  if (minimums.scoped !== undefined) {
    it('answers 403 insufficient_scope to a token without the route scope', async () => {
      const scoped = routes((r) => Boolean(r.scope) && r.scope !== 'media:read');
      expect(scoped.length).toBeGreaterThanOrEqual(minimums.scoped!);
      for (const route of scoped) {
        const res = await call(route.method, withIds(route.url), { 'x-service-media-id': media.mediaId, authorization: `Bearer ${noScopeToken}` });
        expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
        expect(res.json().code).toBe('insufficient_scope');
      }
    });
  }

  if (minimums.readerRequired !== undefined) {
    it('answers 403 reader_required to an application token on routes about the signed-in reader', async () => {
      const required = routes((r) => Boolean(r.readerRequired));
      expect(required.length).toBeGreaterThanOrEqual(minimums.readerRequired!);
      for (const route of required) {
        const res = await call(route.method, withIds(route.url), { 'x-service-media-id': media.mediaId, authorization: `Bearer ${appToken}` });
        expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
        expect(res.json().code).toBe('reader_required');
      }
    });
  }

  it('answers 400 invalid_uuid to malformed ids in the path, and never a 5xx', async () => {
    const addressed = routes((r) => r.hasUuidParam);
    expect(addressed.length).toBeGreaterThanOrEqual(minimums.uuid);
    for (const route of addressed) {
      for (const bad of ['not-a-uuid', '1234', randomUUID().slice(1)]) {
        const res = await call(route.method, route.url.replace(/:(\w+)/g, bad), { 'x-service-media-id': media.mediaId, authorization: `Bearer ${readerToken}` });
        expect(res.statusCode, `${route.method} ${route.url} ${bad}`).toBe(400);
        expect(res.json()).toMatchObject({ error: expect.any(String), code: 'invalid_uuid' });
      }
    }
  });
}
