import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { RouteEntry } from '../../../src/shared/http/route-table.js';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { type CreateBodies, backofficeRouteTable, rolesLacking } from '../../setup/kits/route-table.js';

// The table is read at collection time, so that each route gets tests of its own and a
// route added later is covered without touching this file.
const ctx: TestContext = await createTestApp({ rateLimit: { backoffice: 10_000, reader: 10_000, anonymous: 10_000, token: 10_000 } });
const routes: RouteEntry[] = ctx.app.routeTable.filter((r) => r.interface === 'backoffice');

afterAll(() => ctx.close());

const short = () => randomUUID().slice(0, 8);
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

/**
 * A minimal valid create body per collection, so that the routes on one record can be called
 * on a real one. A collection missing here keeps only the "past authentication" check.
 */
const CREATE_BODIES: CreateBodies = {
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

// Every route's own checks: its auth, its record when the table can create one, its malformed params.
const { recordRoute } = backofficeRouteTable(ctx, routes, CREATE_BODIES);
