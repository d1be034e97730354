import { randomBytes, randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { createdApiKeySchema } from '../../../src/modules/core/api-keys/api-keys.schemas.js';
import type { mediaSchema } from '../../../src/modules/core/tenancy/tenancy.schemas.js';
import { route } from '../../../src/shared/http/route.js';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { ISO_MS, UUID, expectError } from '../../setup/expect.js';
import { type Client, type SeededMedia, client, seedMedia } from '../../setup/factories.js';

const OPERATOR_KEY = `op_${randomBytes(24).toString('hex')}`;

type MediaWire = z.output<typeof mediaSchema>;
type CreatedKeyWire = z.output<typeof createdApiKeySchema>;

const MEDIA_FIELDS = ['default_locale', 'id', 'inserted_at', 'locale_fallbacks', 'locales', 'meter', 'name', 'site_url', 'updated_at'];
const KEY_FIELDS = ['expires_at', 'id', 'inserted_at', 'key', 'last_used_at', 'name', 'prefix', 'revoked_at', 'role', 'updated_at'];

let ctx: TestContext;
let operator: Client;
let seeded: SeededMedia;

beforeAll(async () => {
  ctx = await createTestApp({ operatorApiKey: OPERATOR_KEY });
  operator = client(ctx.app, OPERATOR_KEY);
  seeded = await seedMedia(ctx.app);
});
afterAll(() => ctx?.close());

async function createMedia(body: Record<string, unknown> = {}) {
  const res = await operator.post('/operator/v1/medias', { name: `Media ${randomUUID().slice(0, 8)}`, locales: ['en', 'fr'], ...body });
  if (res.statusCode !== 201) throw new Error(`createMedia: ${res.statusCode} ${res.body}`);
  return res.json().data as { media: MediaWire; admin_key: CreatedKeyWire };
}

describe('POST /operator/v1/medias', () => {
  it('creates the media with workspace main, the default statuses and an admin key shown once', async () => {
    const res = await operator.post('/operator/v1/medias', { name: '  Daily Planet  ', locales: ['en', 'fr'], default_locale: 'fr' });
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(Object.keys(data).sort()).toEqual(['admin_key', 'media']);

    const media = data.media as MediaWire;
    expect(Object.keys(media).sort()).toEqual(MEDIA_FIELDS);
    expect(media.id).toMatch(UUID);
    expect(media.name).toBe('Daily Planet');
    expect(media.default_locale).toBe('fr');
    expect(media.locales).toEqual(['en', 'fr']);
    expect(media.site_url).toBeNull();
    expect(media.locale_fallbacks).toEqual({});
    expect(media.meter).toEqual({ limit: 0, period_days: 30 });
    expect(media.inserted_at).toMatch(ISO_MS);
    expect(media.updated_at).toBe(media.inserted_at);

    const key = data.admin_key as CreatedKeyWire;
    expect(Object.keys(key).sort()).toEqual(KEY_FIELDS);
    expect(key.id).toMatch(UUID);
    expect(key.name).toBe('admin');
    expect(key.role).toBe('admin');
    expect(key.key).toMatch(/^mps_[A-Za-z0-9_-]{43}$/);
    expect(key.prefix).toBe(key.key.slice(0, 8));
    expect(key.last_used_at).toBeNull();
    expect(key.expires_at).toBeNull();
    expect(key.revoked_at).toBeNull();
    expect(key.inserted_at).toMatch(ISO_MS);

    // The key is the new media's admin, and its workspace and statuses are there.
    const admin = client(ctx.app, key.key);
    expect((await admin.get('/core/v2/media')).json().data).toEqual(media);
    const workspaces = (await admin.get('/core/v2/workspaces')).json().data;
    expect(workspaces.map((w: { key: string; media_id: string }) => [w.key, w.media_id])).toEqual([['main', media.id]]);
    const statuses = (await admin.get('/core/v2/statuses')).json().data as Array<{ key: string; is_published: boolean }>;
    expect(statuses.map((s) => [s.key, s.is_published]).sort()).toEqual([
      ['draft', false],
      ['published', true],
      ['unpublished', false],
    ]);
    const keys = (await admin.get('/core/v2/api-keys')).json().data;
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ id: key.id, name: 'admin', role: 'admin', prefix: key.prefix });
    expect(keys[0]).not.toHaveProperty('key');
  });

  it('takes the first locale as default when default_locale is left out, and each locale once', async () => {
    const { media } = await createMedia({ locales: ['de', 'en', 'de'] });
    expect(media.default_locale).toBe('de');
    expect(media.locales).toEqual(['de', 'en']);
  });

  it('takes an optional site_url, an absolute http(s) URL (400 naming it otherwise)', async () => {
    const { media, admin_key } = await createMedia({ site_url: 'https://www.example.com' });
    expect(media.site_url).toBe('https://www.example.com');
    expect((await client(ctx.app, admin_key.key).get('/core/v2/media')).json().data).toEqual(media);
    for (const site_url of ['example.com', 'mailto:desk@example.com', 'https://example.com/?q=1', null]) {
      const body = expectError(await operator.post('/operator/v1/medias', { name: 'X', locales: ['en'], site_url }), 400, 'validation_failed');
      expect(body.details!.map((d) => d.path)).toEqual(['site_url']);
    }
  });

  it('takes locales in any case and keeps them as BCP 47 writes them', async () => {
    const { media } = await createMedia({ locales: ['fr-ch', 'EN', 'zh-hant', 'en'], default_locale: 'FR-CH' });
    expect(media.locales).toEqual(['fr-CH', 'en', 'zh-Hant']);
    expect(media.default_locale).toBe('fr-CH');
  });

  it('refuses a default_locale outside locales with 400 invalid_default_locale, and creates nothing', async () => {
    const before = (await operator.get('/operator/v1/medias?limit=100')).json().data.length;
    const res = await operator.post('/operator/v1/medias', { name: 'X', locales: ['en'], default_locale: 'fr' });
    const body = expectError(res, 400, 'invalid_default_locale');
    expect(body.details).toEqual([{ path: 'default_locale', message: 'must be one of en' }]);
    expect((await operator.get('/operator/v1/medias?limit=100')).json().data.length).toBe(before);
  });

  it('refuses a missing or empty name, no locales, a malformed locale and unknown or server-owned fields with 400', async () => {
    for (const body of [
      { locales: ['en'] },
      { name: '', locales: ['en'] },
      { name: 'X' },
      { name: 'X', locales: [] },
      { name: 'X', locales: ['not a locale'] },
      { name: 'X', locales: ['en'], id: randomUUID() },
      { name: 'X', locales: ['en'], media_id: randomUUID() },
      { name: 'X', locales: ['en'], admin_key: 'mps_chosen' },
    ]) {
      expectError(await operator.post('/operator/v1/medias', body), 400, 'validation_failed');
    }
  });
});

describe('GET /operator/v1/medias', () => {
  it('lists every media newest first, paged by cursor like every list', async () => {
    const made = [await createMedia(), await createMedia(), await createMedia()].map((m) => m.media.id);
    const first = await operator.get('/operator/v1/medias?limit=2');
    expect(first.statusCode).toBe(200);
    const page = first.json();
    expect(Object.keys(page).sort()).toEqual(['data', 'meta']);
    expect(page.data.map((m: MediaWire) => m.id)).toEqual([made[2], made[1]]);
    for (const m of page.data) expect(Object.keys(m).sort()).toEqual(MEDIA_FIELDS);
    expect(page.meta.base).toBe('/operator/v1/medias?limit=2');
    expect(page.meta.previous).toBeNull();
    expect(page.meta.next).toMatch(/^\/operator\/v1\/medias\?limit=2&after=[A-Za-z0-9_.-]+$/);

    const second = (await operator.get(page.meta.next)).json();
    expect(second.data[0].id).toBe(made[0]);
    expect(second.meta.previous).toMatch(/^\/operator\/v1\/medias\?limit=2&before=/);

    // Every media, the seeded one (made through the services) too.
    const all: string[] = [];
    for (let path: string | null = '/operator/v1/medias?limit=100'; path; ) {
      const body = (await operator.get(path)).json() as { data: MediaWire[]; meta: { next: string | null } };
      all.push(...body.data.map((m: MediaWire) => m.id));
      path = body.meta.next;
    }
    expect(all).toEqual(expect.arrayContaining([...made, seeded.mediaId]));
    expect(new Set(all).size).toBe(all.length);
  });

  it('refuses a limit out of range and a tampered or foreign cursor with 400', async () => {
    expectError(await operator.get('/operator/v1/medias?limit=0'), 400, 'validation_failed');
    expectError(await operator.get('/operator/v1/medias?limit=101'), 400, 'validation_failed');
    expectError(await operator.get('/operator/v1/medias?after=garbage'), 400, 'invalid_cursor');
    // A valid cursor of another listing (a media's workspaces) does not page medias.
    const admin = client(ctx.app, seeded.keys.admin);
    await admin.post('/core/v2/workspaces', { key: `w-${randomUUID().slice(0, 8)}`, name: 'W' });
    const foreign = (await admin.get('/core/v2/workspaces?limit=1')).json().meta.next as string;
    const cursor = new URL(foreign, 'http://x').searchParams.get('after')!;
    expectError(await operator.get(`/operator/v1/medias?after=${cursor}`), 400, 'invalid_cursor');
  });
});

describe('POST /operator/v1/medias/{id}/api-keys and DELETE /operator/v1/api-keys/{id}', () => {
  it("creates a key of that media with the given role, shown once, that reaches that media's records only", async () => {
    const { media } = await createMedia();
    const res = await operator.post(`/operator/v1/medias/${media.id}/api-keys`, { name: 'CMS', role: 'editor' });
    expect(res.statusCode).toBe(201);
    const key = res.json().data as CreatedKeyWire;
    expect(Object.keys(key).sort()).toEqual(KEY_FIELDS);
    expect(key).toMatchObject({ name: 'CMS', role: 'editor', revoked_at: null, expires_at: null, last_used_at: null });
    expect(key.prefix).toBe(key.key.slice(0, 8));
    const editor = client(ctx.app, key.key);
    expect((await editor.get('/core/v2/media')).json().data.id).toBe(media.id);
    expect((await editor.get('/core/v2/api-keys')).statusCode).toBe(403);
  });

  it('answers 404 media_not_found for an unknown media and 400 for a malformed id or body', async () => {
    expectError(await operator.post(`/operator/v1/medias/${randomUUID()}/api-keys`, { name: 'X', role: 'admin' }), 404, 'media_not_found');
    expectError(await operator.post('/operator/v1/medias/not-a-uuid/api-keys', { name: 'X', role: 'admin' }), 400, 'invalid_uuid');
    expectError(await operator.post(`/operator/v1/medias/${seeded.mediaId}/api-keys`, { name: 'X', role: 'root' }), 400, 'validation_failed');
  });

  it('revokes a key of any media (204): refused from then on; twice keeps the first time; unknown is 404', async () => {
    const { media, admin_key } = await createMedia();
    const other = (await operator.post(`/operator/v1/medias/${media.id}/api-keys`, { name: 'spare', role: 'admin' })).json().data;
    const revoke = await operator.delete(`/operator/v1/api-keys/${admin_key.id}`);
    expect(revoke.statusCode).toBe(204);
    expect(revoke.body).toBe('');
    expectError(await client(ctx.app, admin_key.key).get('/core/v2/media'), 401, 'invalid_api_key');

    const spare = client(ctx.app, other.key);
    const revokedAt = (await spare.get(`/core/v2/api-keys/${admin_key.id}`)).json().data.revoked_at;
    expect(revokedAt).toMatch(ISO_MS);
    expect((await operator.delete(`/operator/v1/api-keys/${admin_key.id}`)).statusCode).toBe(204);
    expect((await spare.get(`/core/v2/api-keys/${admin_key.id}`)).json().data.revoked_at).toBe(revokedAt);

    expectError(await operator.delete(`/operator/v1/api-keys/${randomUUID()}`), 404, 'api_key_not_found');
    expectError(await operator.delete('/operator/v1/api-keys/nope'), 400, 'invalid_uuid');
  });
});

describe('GET /operator/v1/medias/{id}/api-keys', () => {
  const LISTED_KEY_FIELDS = KEY_FIELDS.filter((f) => f !== 'key');

  it("lists the media's keys newest first, revoked ones too, paged by cursor, never a secret", async () => {
    const { media, admin_key } = await createMedia();
    const made = [admin_key];
    for (const [name, role] of [['CMS', 'editor'], ['Stats', 'viewer']] as const) {
      made.push((await operator.post(`/operator/v1/medias/${media.id}/api-keys`, { name, role })).json().data as CreatedKeyWire);
    }
    await operator.delete(`/operator/v1/api-keys/${made[1]!.id}`);
    await operator.post(`/operator/v1/medias/${seeded.mediaId}/api-keys`, { name: 'elsewhere', role: 'admin' });

    const res = await operator.get(`/operator/v1/medias/${media.id}/api-keys?limit=2`);
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(Object.keys(page).sort()).toEqual(['data', 'meta']);
    expect(page.data.map((k: { id: string }) => k.id)).toEqual([made[2]!.id, made[1]!.id]);
    for (const key of page.data) expect(Object.keys(key).sort()).toEqual(LISTED_KEY_FIELDS);
    const { key: _secret, ...stats } = made[2]!;
    expect(page.data[0]).toEqual(stats);
    expect(page.data[1]).toMatchObject({ id: made[1]!.id, name: 'CMS', role: 'editor', prefix: made[1]!.prefix, revoked_at: expect.stringMatching(ISO_MS) });
    expect(page.meta.base).toBe(`/operator/v1/medias/${media.id}/api-keys?limit=2`);
    expect(page.meta.previous).toBeNull();
    expect(page.meta.next).toMatch(new RegExp(`^/operator/v1/medias/${media.id}/api-keys\\?limit=2&after=[A-Za-z0-9_.-]+$`));

    const second = (await operator.get(page.meta.next)).json();
    expect(second.data.map((k: { id: string }) => k.id)).toEqual([admin_key.id]);
    expect(second.data[0]).toMatchObject({ name: 'admin', role: 'admin', revoked_at: null });
    expect(second.meta.next).toBeNull();
    // Neither the secrets nor their hashes, anywhere in the answers.
    for (const body of [res.body, JSON.stringify(second)]) {
      for (const key of made) expect(body).not.toContain(key.key);
      expect(body).not.toMatch(/hash/i);
    }
  });

  it('answers 404 media_not_found for an unknown media, 400 for a malformed id, limit or cursor', async () => {
    expectError(await operator.get(`/operator/v1/medias/${randomUUID()}/api-keys`), 404, 'media_not_found');
    expectError(await operator.get('/operator/v1/medias/nope/api-keys'), 400, 'invalid_uuid');
    expectError(await operator.get(`/operator/v1/medias/${seeded.mediaId}/api-keys?limit=101`), 400, 'validation_failed');
    expectError(await operator.get(`/operator/v1/medias/${seeded.mediaId}/api-keys?after=garbage`), 400, 'invalid_cursor');
  });

  it("is the operator's only: no key, a wrong one or a media's own admin key get 401", async () => {
    const path = `/operator/v1/medias/${seeded.mediaId}/api-keys`;
    expectError(await client(ctx.app).get(path), 401, 'missing_api_key');
    expectError(await client(ctx.app, `${OPERATOR_KEY}x`).get(path), 401, 'invalid_operator_key');
    expectError(await client(ctx.app, seeded.keys.admin).get(path), 401, 'invalid_operator_key');
  });
});

describe('who may call the operator API', () => {
  it('refuses a missing key and a wrong one of any length with 401, before the body is read', async () => {
    const anonymous = client(ctx.app);
    expectError(await anonymous.post('/operator/v1/medias', { name: 'X', locales: ['en'] }), 401, 'missing_api_key');
    expectError(await anonymous.get('/operator/v1/medias'), 401, 'missing_api_key');
    const sameLength = OPERATOR_KEY.slice(0, -1) + (OPERATOR_KEY.endsWith('0') ? '1' : '0');
    for (const wrong of [sameLength, 'x', `${OPERATOR_KEY}x`]) {
      expectError(await client(ctx.app, wrong).post('/operator/v1/medias', '{not json'), 401, 'invalid_operator_key');
    }
  });

  it("never lets a media's admin key create or list medias, or manage another media's keys", async () => {
    const admin = client(ctx.app, seeded.keys.admin);
    const before = (await operator.get('/operator/v1/medias?limit=100')).json().data.length;
    expectError(await admin.post('/operator/v1/medias', { name: 'Mine now', locales: ['en'] }), 401, 'invalid_operator_key');
    expectError(await admin.get('/operator/v1/medias'), 401, 'invalid_operator_key');
    expectError(await admin.post(`/operator/v1/medias/${seeded.mediaId}/api-keys`, { name: 'X', role: 'admin' }), 401, 'invalid_operator_key');
    const { media, admin_key } = await createMedia();
    expectError(await admin.delete(`/operator/v1/api-keys/${admin_key.id}`), 401, 'invalid_operator_key');
    expect((await operator.get('/operator/v1/medias?limit=100')).json().data.length).toBe(before + 1);

    // Nor does any Backoffice route show another media: its own media, its own keys.
    expect((await admin.get('/core/v2/media')).json().data.id).toBe(seeded.mediaId);
    const keyIds = (await admin.get('/core/v2/api-keys?limit=100')).json().data.map((k: { id: string }) => k.id);
    expect(keyIds).not.toContain(admin_key.id);
    expectError(await admin.get(`/core/v2/api-keys/${admin_key.id}`), 404, 'api_key_not_found');
    expect((await client(ctx.app, admin_key.key).get('/core/v2/media')).json().data.id).toBe(media.id);
  });

  it('is not a Backoffice key: the operator key gets 401 on Backoffice routes', async () => {
    expectError(await operator.get('/core/v2/media'), 401, 'invalid_api_key');
    expectError(await operator.get('/core/v2/api-keys'), 401, 'invalid_api_key');
    expectError(await operator.post('/core/v2/api-keys', { name: 'X', role: 'admin' }), 401, 'invalid_api_key');
  });

  it('has a rate limit of its own, apart from the Backoffice keys', async () => {
    const limited = await createTestApp({ operatorApiKey: OPERATOR_KEY, operatorRateLimit: 2 });
    try {
      const op = client(limited.app, OPERATOR_KEY);
      const first = await op.get('/operator/v1/medias');
      expect(first.statusCode).toBe(200);
      expect(first.headers['ratelimit-limit']).toBe('2');
      expect((await op.get('/operator/v1/medias')).statusCode).toBe(200);
      const refused = await op.get('/operator/v1/medias');
      expectError(refused, 429, 'rate_limited');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      const media = await seedMedia(limited.app);
      const backoffice = await client(limited.app, media.keys.admin).get('/core/v2/media');
      expect(backoffice.statusCode).toBe(200);
      expect(backoffice.headers['ratelimit-limit']).toBe('1000');
    } finally {
      await limited.close();
    }
  });
});

describe('the operator API in the OpenAPI document', () => {
  it('is documented with the operatorKey scheme when OPERATOR_API_KEY is set', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(doc.components.securitySchemes.operatorKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'x-api-key' });
    const operations = [
      ['post', '/operator/v1/medias', 'operatorCreateMedia', '201'],
      ['get', '/operator/v1/medias', 'operatorListMedias', '200'],
      ['post', '/operator/v1/medias/{id}/api-keys', 'operatorCreateApiKey', '201'],
      ['get', '/operator/v1/medias/{id}/api-keys', 'operatorListApiKeys', '200'],
      ['delete', '/operator/v1/api-keys/{id}', 'operatorRevokeApiKey', '204'],
    ] as const;
    for (const [method, path, operationId, status] of operations) {
      const op = doc.paths[path][method];
      expect(op.operationId).toBe(operationId);
      expect(op.security).toEqual([{ operatorKey: [] }]);
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining([status, '401', '429']));
      expect(op.tags).toEqual(['Operator']);
    }
    const operatorRoutes = ctx.app.routeTable.filter((r) => r.interface === 'operator');
    expect(operatorRoutes.map((r) => r.operationId).sort()).toEqual(operations.map(([, , id]) => id).sort());
  });
});

describe('without OPERATOR_API_KEY', () => {
  let off: TestContext;
  beforeAll(async () => {
    off = await createTestApp();
  });
  afterAll(() => off?.close());

  it('has no operator API: 404 with any key, and nothing of it in the OpenAPI document', async () => {
    const media = await seedMedia(off.app);
    for (const api of [client(off.app, OPERATOR_KEY), client(off.app, media.keys.admin), client(off.app)]) {
      expectError(await api.post('/operator/v1/medias', { name: 'X', locales: ['en'] }), 404);
      expectError(await api.get('/operator/v1/medias'), 404);
    }
    const doc = (await off.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/operator'))).toEqual([]);
    expect(doc.components.securitySchemes).not.toHaveProperty('operatorKey');
    expect(JSON.stringify(doc)).not.toContain('Operator');
    expect(off.app.routeTable.some((r) => r.interface === 'operator')).toBe(false);
  });
});

describe("route()'s operator access", () => {
  it('puts operator: true in the route config, where the operator tree and its auth hook read it', async () => {
    const app = Fastify();
    app.decorate('openapiTags', new Map<string, string>());
    const seen: Array<Record<string, unknown>> = [];
    app.addHook('onRoute', (r) => void seen.push({ ...(r.config as Record<string, unknown>) }));
    route(app, {
      method: 'GET',
      url: '/probe',
      operationId: 'probe',
      summary: 'Probe',
      tag: { name: 'T', description: 'T' },
      access: { operator: true },
      response: {},
      handler: async () => undefined,
    });
    await app.ready();
    expect(seen[0]).toMatchObject({ operator: true, operationId: 'probe' });
    expect(seen[0]).not.toHaveProperty('permission');
    await app.close();
  });
});
