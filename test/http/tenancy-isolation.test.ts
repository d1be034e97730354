import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../setup/app.js';
import { type CategoryWire, type Client, type SeededMedia, client, createCategory, seedMedia } from '../setup/factories.js';
import { expectCursorBound, expectNotFound, listAll, tenancyChecks } from '../setup/kits/tenancy.js';

let ctx: TestContext;
let mediaA: SeededMedia;
let mediaB: SeededMedia;
let a: Client;
let b: Client;

/** What media B owns, created through the API. */
const owned = {
  categories: [] as CategoryWire[],
  deletedCategory: undefined as unknown as CategoryWire,
  workspaceIds: [] as string[],
  statusIds: [] as string[],
  apiKeys: [] as Array<{ id: string; key: string }>,
  refs: [] as string[],
};

/** B's own view of everything it owns: compared before and after A's attempts. */
let snapshotBefore: Record<string, unknown>;

const LISTS = ['/core/v2/categories', '/core/v2/workspaces', '/core/v2/statuses', '/core/v2/api-keys'];

async function snapshotOfB() {
  const get = async (url: string) => {
    const res = await b.get(url);
    return { status: res.statusCode, body: res.json() };
  };
  const snapshot: Record<string, unknown> = {
    media: await get('/core/v2/media'),
    deletedCategory: await get(`/core/v2/categories/${owned.deletedCategory.id}`),
  };
  for (const c of owned.categories) snapshot[`category ${c.id}`] = await get(`/core/v2/categories/${c.id}`);
  for (const id of owned.workspaceIds) snapshot[`workspace ${id}`] = await get(`/core/v2/workspaces/${id}`);
  for (const k of owned.apiKeys) snapshot[`api key ${k.id}`] = await get(`/core/v2/api-keys/${k.id}`);
  for (const ref of owned.refs) snapshot[`reference ${ref}`] = await get(`/core/v2/references/${ref}`);
  snapshot.statuses = await listAll(b, '/core/v2/statuses');
  snapshot.lookup = (await b.post('/core/v2/references/lookup', { refs: owned.refs })).json();
  return snapshot;
}

beforeAll(async () => {
  ctx = await createTestApp();
  mediaA = await seedMedia(ctx.app, { name: 'Media A' });
  mediaB = await seedMedia(ctx.app, { name: 'Media B' });
  a = client(ctx.app, mediaA.keys.admin);
  b = client(ctx.app, mediaB.keys.admin);
  await createCategory(a);

  for (let i = 0; i < 3; i++) owned.categories.push(await createCategory(b));
  owned.deletedCategory = await createCategory(b);
  expect((await b.delete(`/core/v2/categories/${owned.deletedCategory.id}`)).statusCode).toBe(204);

  owned.workspaceIds.push(mediaB.workspaceId);
  for (const key of ['newsroom', 'archive']) {
    const res = await b.post('/core/v2/workspaces', { key, name: `B ${key}` });
    expect(res.statusCode, res.body).toBe(201);
    owned.workspaceIds.push(res.json().data.id);
  }

  const status = await b.post('/core/v2/statuses', { key: 'in_review', name: 'In review', is_published: false });
  expect(status.statusCode, status.body).toBe(201);
  owned.statusIds = (await listAll(b, '/core/v2/statuses')).map((s) => s.id);
  expect(owned.statusIds).toContain(status.json().data.id);

  for (const role of ['editor', 'viewer']) {
    const res = await b.post('/core/v2/api-keys', { name: `B ${role}`, role });
    expect(res.statusCode, res.body).toBe(201);
    owned.apiKeys.push({ id: res.json().data.id, key: res.json().data.key });
  }

  for (const provider of ['wordpress', 'crm']) {
    const res = await b.post('/core/v2/references', {
      provider,
      id: randomUUID(),
      urn: `urn:mps:category:${owned.categories[0]!.id}`,
    });
    expect(res.statusCode, res.body).toBe(201);
    owned.refs.push(res.json().data.ref);
  }

  snapshotBefore = await snapshotOfB();
});
afterAll(() => ctx.close());

describe("another media's records answer 404 by id, exactly as missing ones", () => {
  it('categories: read, update, delete and restore', async () => {
    for (const { id } of owned.categories) {
      expectNotFound(await a.get(`/core/v2/categories/${id}`), 'category_not_found');
      expectNotFound(await a.patch(`/core/v2/categories/${id}`, { is_archived: true }), 'category_not_found');
      expectNotFound(
        await a.patch(`/core/v2/categories/${id}`, { locales: [{ locale: 'en', name: 'Hijacked' }] }),
        'category_not_found',
      );
      expectNotFound(await a.delete(`/core/v2/categories/${id}`), 'category_not_found');
      expectNotFound(await a.post(`/core/v2/categories/${id}/restore`), 'category_not_found');
    }
    const deleted = owned.deletedCategory.id;
    expectNotFound(await a.post(`/core/v2/categories/${deleted}/restore`), 'category_not_found');
    expectNotFound(await a.patch(`/core/v2/categories/${deleted}`, { is_archived: true }), 'category_not_found');
    expectNotFound(await a.delete(`/core/v2/categories/${deleted}`), 'category_not_found');

    // The answer is the same as for an id that exists nowhere.
    const foreign = await a.get(`/core/v2/categories/${owned.categories[0]!.id}`);
    const missing = await a.get(`/core/v2/categories/${randomUUID()}`);
    expect(foreign.json()).toEqual(missing.json());
  });

  it('workspaces: read and update', async () => {
    for (const id of owned.workspaceIds) {
      expectNotFound(await a.get(`/core/v2/workspaces/${id}`), 'workspace_not_found');
      expectNotFound(await a.patch(`/core/v2/workspaces/${id}`, { name: 'Hijacked' }), 'workspace_not_found');
      expectNotFound(await a.patch(`/core/v2/workspaces/${id}`, { key: 'hijacked' }), 'workspace_not_found');
    }
  });

  it('api keys: read and revoke', async () => {
    for (const { id } of owned.apiKeys) {
      expectNotFound(await a.get(`/core/v2/api-keys/${id}`), 'api_key_not_found');
      expectNotFound(await a.delete(`/core/v2/api-keys/${id}`), 'api_key_not_found');
    }
  });

  it('references: read and remove by ref', async () => {
    for (const ref of owned.refs) {
      expectNotFound(await a.get(`/core/v2/references/${ref}`), 'reference_not_found');
      expectNotFound(await a.delete(`/core/v2/references/${ref}`), 'reference_not_found');
    }
  });

  it('a key of another media cannot reach records either, whatever its role', async () => {
    for (const role of ['editor', 'viewer'] as const) {
      const other = client(ctx.app, mediaA.keys[role]);
      expectNotFound(await other.get(`/core/v2/categories/${owned.categories[1]!.id}`), 'category_not_found');
      expectNotFound(await other.get(`/core/v2/workspaces/${owned.workspaceIds[1]}`), 'workspace_not_found');
      expectNotFound(await other.get(`/core/v2/references/${owned.refs[0]}`), 'reference_not_found');
    }
  });
});

describe("another media's records never show in lists or lookups", () => {
  it.each(LISTS)('%s lists only the own media', async (path) => {
    const theirs = new Set([
      ...owned.categories.map((c) => c.id),
      owned.deletedCategory.id,
      ...owned.workspaceIds,
      ...owned.statusIds,
      ...owned.apiKeys.map((k) => k.id),
    ]);
    const rows = await listAll(a, path);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.filter((r) => theirs.has(r.id))).toEqual([]);
  });

  it('lists exactly what the media owns: its seeded workspace, statuses and keys', async () => {
    expect((await listAll(a, '/core/v2/workspaces')).map((w) => w.id)).toEqual([mediaA.workspaceId]);
    const statuses = (await listAll(a, '/core/v2/statuses')) as unknown as Array<{ key: string }>;
    expect(statuses.map((s) => s.key).sort()).toEqual(['draft', 'published', 'unpublished']);
    expect((await listAll(a, '/core/v2/api-keys')).length).toBe(Object.keys(mediaA.keys).length);
  });

  it('a lookup of the other media\'s refs finds nothing', async () => {
    const res = await a.post('/core/v2/references/lookup', { refs: owned.refs });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: [] });
  });

  it('the same ref can be created by both media and each sees only its own', async () => {
    const ref = owned.refs[0]!;
    const [provider, id] = ref.split(':') as [string, string];
    const own = await a.post('/core/v2/references', { provider, id, urn: `urn:mps:category:${randomUUID()}` });
    expect(own.statusCode, own.body).toBe(201);
    expect(own.json().data.ref).toBe(ref);
    const mine = (await a.get(`/core/v2/references/${ref}`)).json().data;
    const theirs = (await b.get(`/core/v2/references/${ref}`)).json().data;
    expect(mine.urn).toBe(own.json().data.urn);
    expect(theirs.urn).toBe(`urn:mps:category:${owned.categories[0]!.id}`);
    expect((await a.delete(`/core/v2/references/${ref}`)).statusCode).toBe(204);
    expect((await b.get(`/core/v2/references/${ref}`)).statusCode).toBe(200);
  });

  it("GET /core/v2/media answers the key's own media, and PATCH changes only that one", async () => {
    expect((await a.get('/core/v2/media')).json().data).toMatchObject({ id: mediaA.mediaId, name: 'Media A' });
    const res = await a.patch('/core/v2/media', { name: 'Media A renamed' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ id: mediaA.mediaId, name: 'Media A renamed' });
    expect((await b.get('/core/v2/media')).json().data).toMatchObject({ id: mediaB.mediaId, name: 'Media B' });
  });
});

describe('cursors are bound to their media', () => {
  it.each(LISTS)('a cursor from the other media on %s is a 400 invalid_cursor', async (path) => {
    // Refused after and before; the cursor still works for its own media.
    await expectCursorBound(a, b, path);
  });

  it('a cursor from one listing is refused by another listing of the same media', async () => {
    const next = (await b.get('/core/v2/categories?limit=1')).json().meta.next as string;
    const cursor = new URL(next, 'http://local').searchParams.get('after')!;
    const res = await b.get(`/core/v2/workspaces?after=${encodeURIComponent(cursor)}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('invalid_cursor');
  });
});

describe('after all of the above', () => {
  it("the other media's records are unchanged", async () => {
    expect(await snapshotOfB()).toEqual(snapshotBefore);
    // The deleted category stayed deleted, and B can still restore it as it was
    // (delete and restore themselves move updated_at).
    expect((snapshotBefore.deletedCategory as { status: number }).status).toBe(404);
    const restored = await b.post(`/core/v2/categories/${owned.deletedCategory.id}/restore`);
    expect(restored.statusCode).toBe(200);
    expect({ ...restored.json().data, updated_at: null }).toEqual({ ...owned.deletedCategory, updated_at: null });
  });

  it("the other media's keys still work and are not revoked", async () => {
    for (const { id, key } of owned.apiKeys) {
      expect((await client(ctx.app, key).get('/core/v2/media')).json().data.id).toBe(mediaB.mediaId);
      expect((await b.get(`/core/v2/api-keys/${id}`)).json().data.revoked_at).toBeNull();
    }
  });
});

// The checks every soft-deletable collection gets from the tenancy kit, on categories.
tenancyChecks(() => ctx, { collection: '/core/v2/categories', notFound: 'category_not_found', create: (api) => createCategory(api), update: { is_archived: true } });
