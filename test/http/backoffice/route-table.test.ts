import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteEntry } from '../../../src/shared/http/route-table.js';
import { ROLES, type Role, can } from '../../../src/shared/permissions.js';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { expectError } from '../../setup/expect.js';
import { type SeededMedia, client, seedMedia } from '../../setup/factories.js';

// The table is read at collection time, so that each route gets tests of its own and a
// route added later is covered without touching this file.
const ctx: TestContext = await createTestApp({ rateLimit: { backoffice: 10_000, reader: 10_000, anonymous: 10_000, token: 10_000 } });
const routes: RouteEntry[] = ctx.app.routeTable.filter((r) => r.interface === 'backoffice');

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
  const expiring = await ctx.app.services.core.apiKeys.create(seeded.mediaId, {
    name: 'expiring',
    role: 'admin',
    expires_at: expiresAt,
  });
  expect((await client(ctx.app, expiring.secret).get('/core/v2/media')).statusCode).toBe(200);
  const expired = await ctx.app.services.core.apiKeys.create(seeded.mediaId, {
    name: 'expired',
    role: 'admin',
    expires_at: new Date(Date.now() - 60_000),
  });
  expiredKeys = [expiring.secret, expired.secret];
  await new Promise((resolve) => setTimeout(resolve, expiresAt.getTime() - Date.now() + 50));
});
afterAll(() => ctx.close());

const PARAM = /:([A-Za-z_][A-Za-z0-9_]*)(\([^)]*\))?/g;

const paramNames = (url: string) => [...url.matchAll(PARAM)].map((m) => m[1]!);

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
  return entry.url
    .replace(PARAM, (_m, name: string) => encodeURIComponent(override[name] ?? sampleValue(name)))
    .replace(/\*$/, 'sample');
}

const call = (entry: RouteEntry, headers: Record<string, string>, override: Record<string, string> = {}) =>
  ctx.app.inject({ method: entry.method as 'GET', url: pathOf(entry, override), headers });

const rolesLacking = (permission: RouteEntry['permission']): Role[] =>
  permission ? ROLES.filter((role) => !can(role, permission)) : [];

const short = () => randomUUID().slice(0, 8);
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

/**
 * A minimal valid create body per collection, so that the routes on one record can be called
 * on a real one. A collection missing here keeps only the "past authentication" check.
 */
const CREATE_BODIES: Record<string, () => Record<string, unknown>> = {
  '/core/v2/workspaces': () => ({ key: `rt-${short()}`, name: 'Route table' }),
  '/core/v2/api-keys': () => ({ name: 'Route table', role: 'viewer' }),
  '/core/v2/categories': () => ({ locales: [{ locale: 'en', name: 'Route table' }] }),
  '/core/v2/references': () => ({ provider: 'routetable', urn: `urn:mps:content:${randomUUID()}` }),
  '/publisher/v2/topics': () => ({ key: `rt-${short()}`, name: 'Route table' }),
  '/core/v2/oauth/clients': () => ({ name: 'Route table', scopes: ['media:read'] }),
  '/core/v2/oauth/providers': () => ({
    name: 'Route table',
    issuer: `http://127.0.0.1:9/${short()}`,
    authorization_endpoint: 'http://127.0.0.1:9/authorize',
    token_endpoint: 'http://127.0.0.1:9/token',
    jwks_uri: 'http://127.0.0.1:9/jwks',
    client_id: 'route-table',
    client_secret: 'route-table-secret',
  }),
  '/core/v2/reader-invitations': () => ({ email: `rt-${short()}@example.test`, expires_at: inAnHour() }),
  '/community/v2/profile-types': () => ({ kind: 'person', key: `rt-${short()}`, name: 'Route table' }),
};

/**
 * How to reach a real record for a route that reads or acts on one record without a body
 * (GET, DELETE or POST …/restore on `<collection>/:param`), when the collection can be created here.
 */
function recordRoute(entry: RouteEntry) {
  const match = /^(.*)\/:(id|ref)(\/restore)?$/.exec(entry.url);
  if (!match) return undefined;
  const [, collection, param, restore] = match as unknown as [string, string, 'id' | 'ref', string | undefined];
  const bodyless = restore ? entry.method === 'POST' : entry.method === 'GET' || entry.method === 'DELETE';
  const body = CREATE_BODIES[collection];
  const creatable = routes.some((r) => r.method === 'POST' && r.url === collection);
  if (!bodyless || !body || !creatable) return undefined;
  const deletable = routes.some((r) => r.method === 'DELETE' && r.url === `${collection}/:${param}`);
  return { collection, param, restore: Boolean(restore), body, deletable };
}

const KNOWN_CORE_ROUTES = [
  'GET /core/v2/media',
  'PATCH /core/v2/media',
  'GET /core/v2/workspaces',
  'POST /core/v2/workspaces',
  'GET /core/v2/workspaces/:id',
  'PATCH /core/v2/workspaces/:id',
  'GET /core/v2/statuses',
  'POST /core/v2/statuses',
  'GET /core/v2/api-keys',
  'POST /core/v2/api-keys',
  'GET /core/v2/api-keys/:id',
  'DELETE /core/v2/api-keys/:id',
  'GET /core/v2/categories',
  'POST /core/v2/categories',
  'GET /core/v2/categories/:id',
  'PATCH /core/v2/categories/:id',
  'DELETE /core/v2/categories/:id',
  'POST /core/v2/categories/:id/restore',
  'POST /core/v2/references',
  'POST /core/v2/references/lookup',
  'GET /core/v2/references/:ref',
  'DELETE /core/v2/references/:ref',
];

describe('the Backoffice route table', () => {
  it('is not empty and lists every known core route once', () => {
    expect(routes.length).toBeGreaterThan(0);
    const listed = routes.map((r) => `${r.method} ${r.url}`);
    expect(listed).toEqual(expect.arrayContaining(KNOWN_CORE_ROUTES));
    expect(new Set(listed).size).toBe(listed.length);
  });

  it('marks the routes addressed by a uuid, and not those addressed by a ref', () => {
    const flag = (key: string) => routes.find((r) => `${r.method} ${r.url}` === key)?.hasUuidParam;
    for (const key of KNOWN_CORE_ROUTES.filter((k) => k.includes('/:id'))) expect(flag(key), key).toBe(true);
    for (const key of KNOWN_CORE_ROUTES.filter((k) => !k.includes('/:'))) expect(flag(key), key).toBe(false);
    expect(flag('GET /core/v2/references/:ref')).toBe(false);
  });

  it('calls the record routes of the collections it can create on a real record', () => {
    const reached = routes.filter((r) => recordRoute(r)).map((r) => `${r.method} ${r.url}`);
    expect(reached).toEqual(
      expect.arrayContaining([
        'GET /core/v2/workspaces/:id',
        'GET /core/v2/api-keys/:id',
        'DELETE /core/v2/api-keys/:id',
        'GET /core/v2/categories/:id',
        'DELETE /core/v2/categories/:id',
        'POST /core/v2/categories/:id/restore',
        'GET /core/v2/references/:ref',
        'DELETE /core/v2/references/:ref',
      ]),
    );
  });

  it('gives every route a permission that at least one built-in role lacks', () => {
    for (const entry of routes) {
      const name = `${entry.method} ${entry.url}`;
      expect(entry.permission, `${name} declares no permission`).toBeDefined();
      expect(rolesLacking(entry.permission), `every role may call ${name}`).not.toEqual([]);
    }
  });
});

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
