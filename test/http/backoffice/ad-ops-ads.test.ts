import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { can } from '../../../src/shared/permissions.js';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { ISO_MS, UUID, expectError } from '../../setup/expect.js';
import { type Client, type SeededMedia, client, seedMedia } from '../../setup/factories.js';

let ctx: TestContext;
let media: SeededMedia;
let api: Client;
let advertiserId: string;
let category: { id: string; name: string };

const adBody = (over: Record<string, unknown> = {}) => ({
  advertiser_id: advertiserId,
  name: 'Winter sale',
  priority: 10,
  business_reference: 'PO-2026-17',
  category: { id: category.id },
  starts_at: '2026-12-01T00:00:00.000Z',
  ends_at: '2027-01-01T00:00:00.000Z',
  timezone: 'Europe/Paris',
  ...over,
});

beforeAll(async () => {
  ctx = await createTestApp();
  media = await seedMedia(ctx.app);
  api = client(ctx.app, media.keys.ad_manager);
  const advertiser = await api.post('/ad-ops/v2/advertisers', { name: 'Acme' });
  expect(advertiser.statusCode, advertiser.body).toBe(201);
  advertiserId = advertiser.json().data.id;
  const created = await api.post('/ad-ops/v2/ad-categories', { name: `Retail ${randomUUID().slice(0, 6)}` });
  expect(created.statusCode, created.body).toBe(201);
  category = { id: created.json().data.id, name: created.json().data.name };
});
afterAll(() => ctx.close());

describe('/ad-ops/v2/advertisers', () => {
  it('creates an advertiser with every field, reads it back by id and in the list, and replaces it with PUT', async () => {
    const res = await api.post('/ad-ops/v2/advertisers', {
      name: 'Globex',
      contact_email: 'ads@globex.example',
      website: 'https://globex.example',
      is_active: false,
    });
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data;
    expect(data).toEqual({
      id: expect.stringMatching(UUID),
      name: 'Globex',
      contact_email: 'ads@globex.example',
      website: 'https://globex.example',
      is_active: false,
      inserted_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
    });
    expect((await api.get(`/ad-ops/v2/advertisers/${data.id}`)).json()).toEqual({ data });
    const listed = await api.get('/ad-ops/v2/advertisers?limit=100');
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data).toContainEqual(data);
    expect(listed.json().meta).toEqual({ base: '/ad-ops/v2/advertisers?limit=100', next: null, previous: null });

    // A full replace: the fields left out take their defaults.
    const put = await api.put(`/ad-ops/v2/advertisers/${data.id}`, { name: 'Globex Corp' });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data).toEqual({
      ...data,
      name: 'Globex Corp',
      contact_email: null,
      website: null,
      is_active: true,
      updated_at: expect.stringMatching(ISO_MS),
    });
  });

  it('pages advertisers newest first by cursor', async () => {
    const other = await seedMedia(ctx.app);
    const own = client(ctx.app, other.keys.ad_manager);
    const ids: string[] = [];
    for (const name of ['A', 'B', 'C']) ids.push((await own.post('/ad-ops/v2/advertisers', { name })).json().data.id);
    const first = await own.get('/ad-ops/v2/advertisers?limit=2');
    expect(first.json().data.map((a: { id: string }) => a.id)).toEqual([ids[2], ids[1]]);
    const next = first.json().meta.next as string;
    const second = await own.get(next);
    expect(second.json().data.map((a: { id: string }) => a.id)).toEqual([ids[0]]);
    expect(second.json().meta.next).toBeNull();
  });

  it('refuses unknown fields, a website that is not http(s) and a malformed email (400), and answers 404 for unknown ids', async () => {
    expectError(await api.post('/ad-ops/v2/advertisers', { name: 'X', budget: 3 }), 400, 'validation_failed');
    const js = expectError(await api.post('/ad-ops/v2/advertisers', { name: 'X', website: 'javascript:alert(1)' }), 400, 'validation_failed');
    expect(js.details?.[0]?.path).toBe('website');
    expectError(await api.post('/ad-ops/v2/advertisers', { name: 'X', contact_email: 'nope' }), 400, 'validation_failed');
    expectError(await api.post('/ad-ops/v2/advertisers', { name: '' }), 400, 'validation_failed');
    expectError(await api.get(`/ad-ops/v2/advertisers/${randomUUID()}`), 404, 'advertiser_not_found');
    expectError(await api.put(`/ad-ops/v2/advertisers/${randomUUID()}`, { name: 'X' }), 404, 'advertiser_not_found');
    expectError(await api.get('/ad-ops/v2/advertisers/not-a-uuid'), 400, 'invalid_uuid');
  });
});

describe('/ad-ops/v2/ad-categories', () => {
  it('creates, reads, lists, renames, deletes (soft) and restores a category', async () => {
    const res = await api.post('/ad-ops/v2/ad-categories', { name: 'Travel' });
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data;
    expect(data).toEqual({
      id: expect.stringMatching(UUID),
      name: 'Travel',
      inserted_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
      deleted_at: null,
    });
    expect((await api.get(`/ad-ops/v2/ad-categories/${data.id}`)).json()).toEqual({ data });
    expect((await api.get('/ad-ops/v2/ad-categories?limit=100')).json().data).toContainEqual(data);
    const put = await api.put(`/ad-ops/v2/ad-categories/${data.id}`, { name: 'Travel & leisure' });
    expect(put.statusCode).toBe(200);
    expect(put.json().data).toEqual({ ...data, name: 'Travel & leisure', updated_at: expect.stringMatching(ISO_MS) });

    expect((await api.delete(`/ad-ops/v2/ad-categories/${data.id}`)).statusCode).toBe(204);
    expectError(await api.get(`/ad-ops/v2/ad-categories/${data.id}`), 404, 'ad_category_not_found');
    expect((await api.get('/ad-ops/v2/ad-categories?limit=100')).json().data.map((c: { id: string }) => c.id)).not.toContain(data.id);
    const restored = await api.post(`/ad-ops/v2/ad-categories/${data.id}/restore`);
    expect(restored.statusCode).toBe(200);
    expect(restored.json().data).toEqual({ ...put.json().data, updated_at: expect.stringMatching(ISO_MS) });
  });

  it('refuses a name taken by a live category (409) and the delete of a category ads belong to (409)', async () => {
    expectError(await api.post('/ad-ops/v2/ad-categories', { name: category.name }), 409, 'ad_category_name_taken');
    expect((await api.post(`/ad-ops/v2/advertisers/${advertiserId}/ads`, adBody())).statusCode).toBe(201);
    expectError(await api.delete(`/ad-ops/v2/ad-categories/${category.id}`), 409, 'ad_category_in_use');
    expectError(await api.post('/ad-ops/v2/ad-categories', { name: 'x', color: 'red' }), 400, 'validation_failed');
    expectError(await api.delete(`/ad-ops/v2/ad-categories/${randomUUID()}`), 404, 'ad_category_not_found');
  });
});

describe('POST /ad-ops/v2/advertisers/{advertiser_id}/ads (spec 4.2)', () => {
  it('answers 201 {data: ad} with exactly the fields of spec 2.12, and the ad reads back the same by id and in the list', async () => {
    const res = await api.post(`/ad-ops/v2/advertisers/${advertiserId}/ads`, adBody());
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data;
    expect(Object.keys(res.json())).toEqual(['data']);
    expect(data).toEqual({
      id: expect.stringMatching(UUID),
      advertiser_id: advertiserId,
      name: 'Winter sale',
      priority: 10,
      business_reference: 'PO-2026-17',
      category,
      starts_at: '2026-12-01T00:00:00.000Z',
      ends_at: '2027-01-01T00:00:00.000Z',
      timezone: 'Europe/Paris',
      inserted_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
    });
    expect((await api.get(`/ad-ops/v2/ads/${data.id}`)).json()).toEqual({ data });
    const listed = await api.get(`/ad-ops/v2/advertisers/${advertiserId}/ads?limit=100`);
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data[0]).toEqual(data);
  });

  it('reads wall-clock times in the ad time zone across DST changes, and keeps instants with an offset as they are', async () => {
    const res = await api.post(
      `/ad-ops/v2/advertisers/${advertiserId}/ads`,
      // 02:30 on 29 March does not exist in Paris (moves to 03:30 CEST); 02:30 on 25 October occurs twice (the first, CEST).
      adBody({ starts_at: '2026-03-29T02:30:00', ends_at: '2026-10-25T02:30:00', timezone: 'Europe/Paris' }),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ starts_at: '2026-03-29T01:30:00.000Z', ends_at: '2026-10-25T00:30:00.000Z' });

    const ny = await api.post(
      `/ad-ops/v2/advertisers/${advertiserId}/ads`,
      adBody({ starts_at: '2026-03-07T09:00:00', ends_at: '2026-03-09T09:00:00.250', timezone: 'America/New_York' }),
    );
    // 9:00 EST is 14:00Z; after the change 9:00 EDT is 13:00Z.
    expect(ny.json().data).toMatchObject({ starts_at: '2026-03-07T14:00:00.000Z', ends_at: '2026-03-09T13:00:00.250Z' });

    const offset = await api.post(
      `/ad-ops/v2/advertisers/${advertiserId}/ads`,
      adBody({ starts_at: '2026-03-29T02:30:00+05:00', ends_at: '2026-03-30T00:00:00Z', timezone: 'Asia/Tokyo' }),
    );
    expect(offset.json().data).toMatchObject({ starts_at: '2026-03-28T21:30:00.000Z', ends_at: '2026-03-30T00:00:00.000Z', timezone: 'Asia/Tokyo' });
  });

  it('answers 400 invalid_uuid for a malformed advertiser id in the path', async () => {
    const body = expectError(await api.post('/ad-ops/v2/advertisers/not-a-uuid/ads', adBody()), 400, 'invalid_uuid');
    expect(body.error).toEqual(expect.stringMatching(/\S/));
  });

  it('answers 400 for a bad request: advertiser_id of another advertiser, unknown time zone, ends_at before starts_at, bad fields', async () => {
    const url = `/ad-ops/v2/advertisers/${advertiserId}/ads`;
    const mismatch = expectError(await api.post(url, adBody({ advertiser_id: randomUUID() })), 400, 'advertiser_mismatch');
    expect(mismatch.details).toEqual([{ path: 'advertiser_id', message: expect.any(String) }]);
    const zone = expectError(await api.post(url, adBody({ timezone: 'Mars/Olympus_Mons' })), 400, 'validation_failed');
    expect(zone.details?.map((d) => d.path)).toEqual(['timezone']);
    expectError(await api.post(url, adBody({ timezone: '+01:00' })), 400, 'validation_failed');
    const window = expectError(
      await api.post(url, adBody({ starts_at: '2026-12-02T00:00:00Z', ends_at: '2026-12-01T00:00:00Z' })),
      400,
      'validation_failed',
    );
    expect(window.details).toEqual([{ path: 'ends_at', message: 'must be after starts_at' }]);
    expectError(await api.post(url, adBody({ ends_at: '2026-12-01T00:00:00.000Z' })), 400, 'validation_failed');
    for (const bad of [
      { advertiser_id: 'nope' },
      { category: { id: 'nope' } },
      { category: category.id },
      { category: { id: category.id, name: 'x' } },
      { priority: 0 },
      { priority: 101 },
      { priority: 1.5 },
      { priority: '5' },
      { starts_at: 'tomorrow' },
      { starts_at: '2026-13-01T00:00:00Z' },
      { name: '' },
      { clicks: 3 },
      { id: randomUUID() },
    ]) {
      expectError(await api.post(url, adBody(bad)), 400, 'validation_failed');
    }
    const { name: _name, ...noName } = adBody();
    expectError(await api.post(url, noName), 400, 'validation_failed');
  });

  it('answers 404 for an unknown advertiser, another media\'s advertiser and an unknown ad category', async () => {
    const unknown = randomUUID();
    expectError(await api.post(`/ad-ops/v2/advertisers/${unknown}/ads`, adBody({ advertiser_id: unknown })), 404, 'advertiser_not_found');
    const other = await seedMedia(ctx.app);
    const foreign = client(ctx.app, other.keys.ad_manager);
    expectError(await foreign.post(`/ad-ops/v2/advertisers/${advertiserId}/ads`, adBody()), 404, 'advertiser_not_found');
    const missing = expectError(
      await api.post(`/ad-ops/v2/advertisers/${advertiserId}/ads`, adBody({ category: { id: randomUUID() } })),
      404,
      'ad_category_not_found',
    );
    expect(missing.details).toEqual([{ path: 'category.id', message: expect.any(String) }]);
  });

  it('answers 401 without a valid key and 403 to roles without ad-ops:write', async () => {
    const url = `/ad-ops/v2/advertisers/${advertiserId}/ads`;
    expectError(await client(ctx.app).post(url, adBody()), 401, 'missing_api_key');
    expectError(await client(ctx.app, 'mps_nope').post(url, adBody()), 401, 'invalid_api_key');
    for (const role of ['editor', 'viewer', 'messenger'] as const) {
      expectError(await client(ctx.app, media.keys[role]).post(url, adBody()), 403, 'forbidden');
    }
  });
});

describe('/ad-ops/v2/ads/{id}', () => {
  it('replaces an ad with PUT, validated like a create', async () => {
    const created = (await api.post(`/ad-ops/v2/advertisers/${advertiserId}/ads`, adBody())).json().data;
    const other = (await api.post('/ad-ops/v2/ad-categories', { name: `Food ${randomUUID().slice(0, 6)}` })).json().data;
    const put = await api.put(
      `/ad-ops/v2/ads/${created.id}`,
      adBody({ name: 'Spring sale', priority: 3, business_reference: null, category: { id: other.id }, timezone: 'UTC', starts_at: '2026-12-15T00:00:00' }),
    );
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data).toEqual({
      ...created,
      name: 'Spring sale',
      priority: 3,
      business_reference: null,
      category: { id: other.id, name: other.name },
      timezone: 'UTC',
      starts_at: '2026-12-15T00:00:00.000Z',
      ends_at: '2027-01-01T00:00:00.000Z',
      updated_at: expect.stringMatching(ISO_MS),
    });
  });

  it('answers 400 to a replace that moves the ad to another advertiser or breaks its window, 404 for unknown ids', async () => {
    const created = (await api.post(`/ad-ops/v2/advertisers/${advertiserId}/ads`, adBody())).json().data;
    expectError(await api.put(`/ad-ops/v2/ads/${created.id}`, adBody({ advertiser_id: randomUUID() })), 400, 'advertiser_mismatch');
    expectError(await api.put(`/ad-ops/v2/ads/${created.id}`, adBody({ ends_at: '2020-01-01T00:00:00Z' })), 400, 'validation_failed');
    expectError(await api.put(`/ad-ops/v2/ads/${created.id}`, { name: 'only a name' }), 400, 'validation_failed');
    expectError(await api.put(`/ad-ops/v2/ads/${randomUUID()}`, adBody()), 404, 'ad_not_found');
    expectError(await api.get(`/ad-ops/v2/ads/${randomUUID()}`), 404, 'ad_not_found');
    expectError(await api.get(`/ad-ops/v2/advertisers/${randomUUID()}/ads`), 404, 'advertiser_not_found');
    const other = await seedMedia(ctx.app);
    expectError(await client(ctx.app, other.keys.admin).get(`/ad-ops/v2/ads/${created.id}`), 404, 'ad_not_found');
  });
});

describe('roles', () => {
  it('grants ad_manager exactly the ad-ops routes of the route table, and editor none of them', () => {
    const routes = ctx.app.routeTable.filter((r) => r.interface === 'backoffice' && r.permission);
    expect(routes.filter((r) => r.permission!.startsWith('ad-ops:')).length).toBeGreaterThanOrEqual(20);
    for (const r of routes) {
      const adOps = r.permission!.startsWith('ad-ops:');
      expect(can('ad_manager', r.permission!), `${r.method} ${r.url}`).toBe(adOps);
      if (adOps) expect(can('editor', r.permission!), `${r.method} ${r.url}`).toBe(false);
    }
  });

  it('lets ad_manager use ad-ops and nothing else; editor cannot use ad-ops; viewer reads it', async () => {
    const manager = client(ctx.app, media.keys.ad_manager);
    expect((await manager.get('/ad-ops/v2/advertisers')).statusCode).toBe(200);
    expect((await manager.get('/ad-ops/v2/ad-categories')).statusCode).toBe(200);
    for (const url of ['/core/v2/categories', '/core/v2/media', '/docs/v2/contents', '/community/v2/profile-types', '/core/v2/api-keys']) {
      expectError(await manager.get(url), 403, 'forbidden');
    }
    expectError(await manager.post('/core/v2/categories', { locales: [{ locale: 'en', name: 'x' }] }), 403, 'forbidden');

    const editor = client(ctx.app, media.keys.editor);
    expectError(await editor.get('/ad-ops/v2/advertisers'), 403, 'forbidden');
    expectError(await editor.post('/ad-ops/v2/advertisers', { name: 'X' }), 403, 'forbidden');
    expectError(await editor.get(`/ad-ops/v2/advertisers/${advertiserId}/ads`), 403, 'forbidden');

    const viewer = client(ctx.app, media.keys.viewer);
    expect((await viewer.get(`/ad-ops/v2/advertisers/${advertiserId}`)).statusCode).toBe(200);
    expectError(await viewer.put(`/ad-ops/v2/advertisers/${advertiserId}`, { name: 'X' }), 403, 'forbidden');
  });
});
