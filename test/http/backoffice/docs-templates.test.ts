import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { ISO_MS, UUID, expectError } from '../../setup/expect.js';
import { type Client, type SeededMedia, client, seedMedia } from '../../setup/factories.js';
import { createContentType, createTemplate, short } from '../../setup/docs.js';

let ctx: TestContext;
let media: SeededMedia;
let api: Client;
let viewer: Client;

beforeAll(async () => {
  ctx = await createTestApp();
  media = await seedMedia(ctx.app);
  api = client(ctx.app, media.keys.editor);
  viewer = client(ctx.app, media.keys.viewer);
});
afterAll(() => ctx.close());

describe('content types', () => {
  it('creates, reads, updates, lists, removes and restores a content type', async () => {
    const key = `article-${short()}`;
    const created = await api.post('/docs/v2/content-types', { key, name: 'Article', description: 'A news article' });
    expect(created.statusCode).toBe(201);
    const data = created.json().data;
    expect(Object.keys(data).sort()).toEqual(['deleted_at', 'description', 'id', 'inserted_at', 'key', 'name', 'updated_at']);
    expect(data).toMatchObject({ key, name: 'Article', description: 'A news article', deleted_at: null });
    expect(data.id).toMatch(UUID);
    expect(data.inserted_at).toMatch(ISO_MS);

    expect((await viewer.get(`/docs/v2/content-types/${data.id}`)).json().data).toEqual(data);

    const patched = await api.patch(`/docs/v2/content-types/${data.id}`, { name: 'News article', description: null });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().data).toMatchObject({ id: data.id, key, name: 'News article', description: null });

    const list = (await viewer.get('/docs/v2/content-types?limit=100')).json();
    expect(list.data.map((t: { id: string }) => t.id)).toContain(data.id);
    expect(list.meta).toEqual({ base: '/docs/v2/content-types?limit=100', next: null, previous: null });

    expect((await api.delete(`/docs/v2/content-types/${data.id}`)).statusCode).toBe(204);
    expectError(await api.get(`/docs/v2/content-types/${data.id}`), 404, 'content_type_not_found');
    expect((await viewer.get('/docs/v2/content-types?limit=100')).json().data.map((t: { id: string }) => t.id)).not.toContain(data.id);
    expectError(await api.delete(`/docs/v2/content-types/${data.id}`), 404, 'content_type_not_found');

    const restored = await api.post(`/docs/v2/content-types/${data.id}/restore`);
    expect(restored.statusCode).toBe(200);
    expect(restored.json().data).toMatchObject({ id: data.id, name: 'News article', deleted_at: null });
    // Restoring a live record is a no-op 200.
    expect((await api.post(`/docs/v2/content-types/${data.id}/restore`)).statusCode).toBe(200);
  });

  it('answers 409 on a duplicate key, and 409 on a restore whose key was taken meanwhile', async () => {
    const key = `dup-${short()}`;
    const first = await createContentType(api, { key });
    expectError(await api.post('/docs/v2/content-types', { key, name: 'Again' }), 409, 'content_type_key_taken');
    expect((await api.delete(`/docs/v2/content-types/${first.id}`)).statusCode).toBe(204);
    // A deleted type frees its key.
    const second = await createContentType(api, { key });
    expectError(await api.post(`/docs/v2/content-types/${first.id}/restore`), 409, 'content_type_key_taken');
    const third = await createContentType(api);
    expectError(await api.patch(`/docs/v2/content-types/${third.id}`, { key }), 409, 'content_type_key_taken');
    expect(second.key).toBe(key);
  });

  it('refuses bad keys, unknown and server-owned fields, and writes by a viewer', async () => {
    expectError(await api.post('/docs/v2/content-types', { key: 'Not A Key', name: 'X' }), 400, 'validation_failed');
    expectError(await api.post('/docs/v2/content-types', { key: `k-${short()}`, name: '' }), 400, 'validation_failed');
    for (const field of ['id', 'media_id', 'inserted_at', 'deleted_at', 'extra']) {
      expectError(await api.post('/docs/v2/content-types', { key: `k-${short()}`, name: 'X', [field]: 'x' }), 400, 'validation_failed');
    }
    expectError(await viewer.post('/docs/v2/content-types', { key: `k-${short()}`, name: 'X' }), 403, 'forbidden');
  });

  it("does not show another media's content type", async () => {
    const other = await seedMedia(ctx.app);
    const foreign = await createContentType(client(ctx.app, other.keys.editor));
    expectError(await api.get(`/docs/v2/content-types/${foreign.id}`), 404, 'content_type_not_found');
    expectError(await api.patch(`/docs/v2/content-types/${foreign.id}`, { name: 'Mine' }), 404, 'content_type_not_found');
    expectError(await api.delete(`/docs/v2/content-types/${foreign.id}`), 404, 'content_type_not_found');
    expectError(await api.post(`/docs/v2/content-types/${foreign.id}/restore`), 404, 'content_type_not_found');
    expectError(await api.get('/docs/v2/content-types/not-a-uuid'), 400, 'invalid_uuid');
  });
});

describe('templates', () => {
  it('creates a template of a content type with the block kinds and metadata keys its contents may carry', async () => {
    const type = await createContentType(api);
    const key = `standard-${short()}`;
    const res = await api.post('/docs/v2/templates', {
      content_type_id: type.id,
      key,
      name: 'Standard',
      block_kinds: ['richtext', 'image', 'question'],
      metadata_keys: ['source', 'embargo'],
    });
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(Object.keys(data).sort()).toEqual(
      ['block_kinds', 'content_type_id', 'deleted_at', 'id', 'inserted_at', 'key', 'metadata_keys', 'name', 'updated_at'].sort(),
    );
    expect(data).toMatchObject({
      content_type_id: type.id,
      key,
      name: 'Standard',
      block_kinds: ['richtext', 'image', 'question'],
      metadata_keys: ['source', 'embargo'],
      deleted_at: null,
    });
    expect((await viewer.get(`/docs/v2/templates/${data.id}`)).json().data).toEqual(data);

    const bare = await createTemplate(api, type.id, { block_kinds: undefined, metadata_keys: undefined });
    expect(bare).toMatchObject({ block_kinds: [], metadata_keys: [] });

    const patched = await api.patch(`/docs/v2/templates/${data.id}`, { block_kinds: ['richtext'], name: 'Narrow' });
    expect(patched.json().data).toMatchObject({ block_kinds: ['richtext'], metadata_keys: ['source', 'embargo'], name: 'Narrow' });

    expect((await api.delete(`/docs/v2/templates/${data.id}`)).statusCode).toBe(204);
    expectError(await viewer.get(`/docs/v2/templates/${data.id}`), 404, 'template_not_found');
    expect((await api.post(`/docs/v2/templates/${data.id}/restore`)).json().data).toMatchObject({ id: data.id, deleted_at: null });
  });

  it('refuses an unknown block kind, a repeated one, a missing or foreign content type, and a duplicate key', async () => {
    const type = await createContentType(api);
    expectError(
      await api.post('/docs/v2/templates', { content_type_id: type.id, key: `t-${short()}`, name: 'T', block_kinds: ['marquee'] }),
      400,
      'validation_failed',
    );
    expectError(
      await api.post('/docs/v2/templates', { content_type_id: type.id, key: `t-${short()}`, name: 'T', block_kinds: ['html', 'html'] }),
      400,
      'validation_failed',
    );
    const other = await seedMedia(ctx.app);
    const foreignType = await createContentType(client(ctx.app, other.keys.editor));
    const foreign = await api.post('/docs/v2/templates', { content_type_id: foreignType.id, key: `t-${short()}`, name: 'T' });
    expectError(foreign, 404, 'content_type_not_found');
    expect(foreign.json().details).toEqual([{ path: 'content_type_id', message: 'is not a content type of this media' }]);

    const taken = await createTemplate(api, type.id);
    expectError(await api.post('/docs/v2/templates', { content_type_id: type.id, key: taken.key, name: 'T' }), 409, 'template_key_taken');
  });

  it('lists newest first, with paging links', async () => {
    const fresh = await seedMedia(ctx.app);
    const own = client(ctx.app, fresh.keys.editor);
    const type = await createContentType(own);
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await createTemplate(own, type.id));
    const page1 = (await own.get('/docs/v2/templates?limit=2')).json();
    expect(page1.data.map((t: { id: string }) => t.id)).toEqual([made[2]!.id, made[1]!.id]);
    const page2 = (await own.get(page1.meta.next)).json();
    expect(page2.data.map((t: { id: string }) => t.id)).toEqual([made[0]!.id]);
    expect(page2.meta.next).toBeNull();
  });
});
