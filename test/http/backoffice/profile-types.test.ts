import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { type SeededMedia, client, seedMedia } from '../../setup/factories.js';

let ctx: TestContext;
let media: SeededMedia;

beforeAll(async () => {
  ctx = await createTestApp();
  media = await seedMedia(ctx.app);
});
afterAll(() => ctx.close());

describe('/community/v2/profile-types', () => {
  it('creates a profile type with its contact flags and metadata, and reads it back', async () => {
    const api = client(ctx.app, media.keys.editor);
    const res = await api.post('/community/v2/profile-types', {
      kind: 'event',
      key: 'concert',
      name: 'Concert',
      has_location: true,
      has_website: true,
      metadata: [{ key: 'color', value: '#ff0000' }],
    });
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data).toMatchObject({
      kind: 'event',
      key: 'concert',
      name: 'Concert',
      has_location: true,
      has_website: true,
      has_phone: false,
      has_email: false,
      metadata: [{ key: 'color', value: '#ff0000' }],
    });
    const fetched = await api.get(`/community/v2/profile-types/${data.id}`);
    expect(fetched.json().data).toEqual(data);
    const listed = await api.get('/community/v2/profile-types');
    expect(listed.json().data.map((p: { id: string }) => p.id)).toContain(data.id);
  });

  it('refuses a duplicate key (409), an unknown kind and unknown fields (400), and answers 404 for unknown ids', async () => {
    const api = client(ctx.app, media.keys.editor);
    const body = { kind: 'person', key: `writer-${randomUUID().slice(0, 6)}`, name: 'Writer' };
    expect((await api.post('/community/v2/profile-types', body)).statusCode).toBe(201);
    const dup = await api.post('/community/v2/profile-types', body);
    expect(dup.statusCode).toBe(409);
    expect(dup.json().code).toBe('profile_type_key_taken');
    expect((await api.post('/community/v2/profile-types', { ...body, key: 'x1', kind: 'robot' })).statusCode).toBe(400);
    const unknown = await api.post('/community/v2/profile-types', { ...body, key: 'x2', has_fax: true });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().code).toBe('validation_failed');
    const missing = await api.get(`/community/v2/profile-types/${randomUUID()}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('profile_type_not_found');
  });

  it('is writable by editors, not by ad managers, and invisible to another media', async () => {
    const adManager = client(ctx.app, media.keys.ad_manager);
    expect((await adManager.post('/community/v2/profile-types', { kind: 'event', key: 'k', name: 'n' })).statusCode).toBe(403);
    const created = await client(ctx.app, media.keys.admin).post('/community/v2/profile-types', {
      kind: 'project',
      key: 'grant',
      name: 'Grant',
    });
    const other = await seedMedia(ctx.app);
    const foreign = client(ctx.app, other.keys.admin);
    expect((await foreign.get(`/community/v2/profile-types/${created.json().data.id}`)).statusCode).toBe(404);
    expect((await foreign.get('/community/v2/profile-types')).json().data).toEqual([]);
  });
});
