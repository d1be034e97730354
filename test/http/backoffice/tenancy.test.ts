import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { statusSchema, workspaceSchema } from '../../../src/modules/core/tenancy/tenancy.schemas.js';
import { media, workspaces } from '../../../src/modules/core/tenancy/tenancy.table.js';
import { type TestContext, createTestApp, testConfig } from '../../setup/app.js';
import { ISO_MS, UUID, expectError } from '../../setup/expect.js';
import { type Client, type SeededMedia, client, seedMedia } from '../../setup/factories.js';
import { backdate, insertWorkspaces } from '../../setup/rows.js';

let ctx: TestContext;
let seeded: SeededMedia;
let admin: Client;
let editor: Client;
let viewer: Client;
let adManager: Client;

beforeAll(async () => {
  ctx = await createTestApp();
  seeded = await seedMedia(ctx.app, { locales: ['en', 'fr'], name: 'The Daily Planet' });
  admin = client(ctx.app, seeded.keys.admin);
  editor = client(ctx.app, seeded.keys.editor);
  viewer = client(ctx.app, seeded.keys.viewer);
  adManager = client(ctx.app, seeded.keys.ad_manager);
});
afterAll(() => ctx.close());

type WorkspaceWire = z.output<typeof workspaceSchema>;
type StatusWire = z.output<typeof statusSchema>;

const uniqueKey = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

async function createWorkspace(api: Client, body: Record<string, unknown> = {}): Promise<WorkspaceWire> {
  const res = await api.post('/core/v2/workspaces', { key: uniqueKey('ws'), name: 'Sports desk', ...body });
  if (res.statusCode !== 201) throw new Error(`createWorkspace: ${res.statusCode} ${res.body}`);
  return res.json().data as WorkspaceWire;
}

describe('GET /core/v2/media', () => {
  it("answers the key's own media with its default locale and locales", async () => {
    const res = await viewer.get('/core/v2/media');
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(Object.keys(data).sort()).toEqual(['default_locale', 'id', 'inserted_at', 'locale_fallbacks', 'locales', 'meter', 'name', 'site_url', 'updated_at']);
    expect(data).toMatchObject({ id: seeded.mediaId, name: 'The Daily Planet', default_locale: 'en', locales: ['en', 'fr'], site_url: null, locale_fallbacks: {}, meter: { limit: 0, period_days: 30 } });
    expect(data.inserted_at).toMatch(ISO_MS);
    expect(data.updated_at).toMatch(ISO_MS);
  });

  it('answers each key with its own media only', async () => {
    const other = await seedMedia(ctx.app, { locales: ['de'] });
    const res = await client(ctx.app, other.keys.viewer).get('/core/v2/media');
    expect(res.json().data).toMatchObject({ id: other.mediaId, default_locale: 'de', locales: ['de'] });
    expect((await viewer.get('/core/v2/media')).json().data.id).toBe(seeded.mediaId);
  });

  it('answers 401 without a key or with an unknown one', async () => {
    const missing = await client(ctx.app).get('/core/v2/media');
    expect(missing.statusCode).toBe(401);
    expect(missing.json().code).toBe('missing_api_key');
    const unknown = await client(ctx.app, `mps_${'x'.repeat(43)}`).get('/core/v2/media');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().code).toBe('invalid_api_key');
  });

  it('is refused with 403 to a role without core:read', async () => {
    const res = await adManager.get('/core/v2/media');
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('forbidden');
    expect((await client(ctx.app, seeded.keys.messenger).get('/core/v2/media')).statusCode).toBe(403);
  });
});

describe('PATCH /core/v2/media', () => {
  it('lets an admin rename the media and change its locales', async () => {
    const own = await seedMedia(ctx.app, { locales: ['en', 'fr'] });
    const api = client(ctx.app, own.keys.admin);
    const before = (await api.get('/core/v2/media')).json().data;
    const past = await backdate(ctx.database.db, media, own.mediaId);

    const res = await api.patch('/core/v2/media', { name: '  Le Monde  ', default_locale: 'fr', locales: ['fr', 'en', 'de', 'fr'] });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ id: own.mediaId, name: 'Le Monde', default_locale: 'fr', locales: ['fr', 'en', 'de'] });
    expect(data.inserted_at).toBe(before.inserted_at);
    expect(Date.parse(data.updated_at)).toBeGreaterThanOrEqual(Date.parse(before.updated_at));
    expect(Date.parse(data.updated_at)).toBeGreaterThan(Date.parse(past));
    expect((await api.get('/core/v2/media')).json().data).toEqual(data);
  });

  it('keeps the fields a patch leaves out', async () => {
    const own = await seedMedia(ctx.app, { locales: ['en', 'fr'], name: 'Kept name' });
    const api = client(ctx.app, own.keys.admin);
    const res = await api.patch('/core/v2/media', { default_locale: 'fr' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ name: 'Kept name', default_locale: 'fr', locales: ['en', 'fr'] });
  });

  it('refuses a default locale that is not one of the locales, and changes nothing', async () => {
    const own = await seedMedia(ctx.app, { locales: ['en', 'fr'] });
    const api = client(ctx.app, own.keys.admin);

    const foreign = await api.patch('/core/v2/media', { default_locale: 'de' });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toMatchObject({ code: 'invalid_default_locale', details: [{ path: 'default_locale' }] });

    // Dropping the current default from the locales is the same mistake.
    const dropped = await api.patch('/core/v2/media', { locales: ['fr'] });
    expect(dropped.statusCode).toBe(400);
    expect(dropped.json().code).toBe('invalid_default_locale');

    expect((await api.get('/core/v2/media')).json().data).toMatchObject({ default_locale: 'en', locales: ['en', 'fr'] });
  });

  it('sets, keeps and clears the site_url, and refuses one that is not an absolute http(s) URL without query or fragment', async () => {
    const own = await seedMedia(ctx.app);
    const api = client(ctx.app, own.keys.admin);
    const set = await api.patch('/core/v2/media', { site_url: 'https://www.example.com/news' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data).toMatchObject({ id: own.mediaId, site_url: 'https://www.example.com/news' });
    expect((await api.patch('/core/v2/media', { name: 'Renamed' })).json().data.site_url).toBe('https://www.example.com/news');
    expect((await client(ctx.app, own.keys.viewer).get('/core/v2/media')).json().data.site_url).toBe('https://www.example.com/news');
    // Another media's key sees its own media, never this site.
    expect((await viewer.get('/core/v2/media')).json().data.site_url).toBeNull();

    for (const site_url of ['www.example.com', '/news', 'ftp://example.com', 'javascript:alert(1)', 'https://example.com/?a=1', 'https://example.com/#top', `https://example.com/${'a'.repeat(2000)}`, 42, '']) {
      const res = await api.patch('/core/v2/media', { site_url });
      const body = expectError(res, 400, 'validation_failed');
      expect(body.details!.map((d) => d.path), JSON.stringify(site_url)).toEqual(['site_url']);
    }
    expect((await api.get('/core/v2/media')).json().data.site_url).toBe('https://www.example.com/news');

    const cleared = await api.patch('/core/v2/media', { site_url: null });
    expect(cleared.json().data.site_url).toBeNull();
    expect((await client(ctx.app, own.keys.editor).patch('/core/v2/media', { site_url: 'https://www.example.com' })).statusCode).toBe(403);
  });

  it('refuses unknown and server-owned fields, malformed locales and an empty locale list', async () => {
    for (const body of [
      { colour: 'red' },
      { id: randomUUID() },
      { inserted_at: new Date().toISOString() },
      { locales: [] },
      { locales: ['english'] },
      { default_locale: 'EN' },
      { name: '   ' },
    ]) {
      const res = await admin.patch('/core/v2/media', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
      expect(res.json().details.length).toBeGreaterThan(0);
    }
    const unknown = await admin.patch('/core/v2/media', { colour: 'red' });
    expect(unknown.json().details[0].message).toMatch(/colour/);
  });

  it('answers 400 for a body that is not JSON and 415 for another content type', async () => {
    const broken = await admin.patch('/core/v2/media', '{"name":', { 'content-type': 'application/json' });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().code).toBe('invalid_json');
    const xml = await admin.patch('/core/v2/media', '<name>x</name>', { 'content-type': 'application/xml' });
    expect(xml.statusCode).toBe(415);
    expect(xml.json().code).toBe('unsupported_media_type');
  });

  it('answers 413 for a body over the size limit', async () => {
    const res = await admin.patch('/core/v2/media', { name: 'x'.repeat(1024 * 1024 + 10) });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('payload_too_large');
  });

  it('is for admin keys only: editor and viewer get 403 and the media is unchanged', async () => {
    for (const api of [editor, viewer]) {
      const res = await api.patch('/core/v2/media', { name: 'Hijacked' });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('forbidden');
    }
    expect((await viewer.get('/core/v2/media')).json().data.name).toBe('The Daily Planet');
    expect((await client(ctx.app).patch('/core/v2/media', { name: 'x' })).statusCode).toBe(401);
  });
});

describe('GET /core/v2/workspaces', () => {
  it('lists newest first with cursor links that walk forward and back', async () => {
    const own = await seedMedia(ctx.app);
    const api = client(ctx.app, own.keys.editor);
    const created: WorkspaceWire[] = [];
    for (let i = 0; i < 3; i++) created.push(await createWorkspace(api));
    // The media's first workspace "main" is the oldest.
    const expected = [...created.map((w) => w.id).reverse(), own.workspaceId];

    const first = await api.get('/core/v2/workspaces?limit=2');
    expect(first.statusCode).toBe(200);
    const page1 = first.json();
    expect(page1.data.map((w: WorkspaceWire) => w.id)).toEqual(expected.slice(0, 2));
    expect(page1.meta.base).toBe('/core/v2/workspaces?limit=2');
    expect(page1.meta.previous).toBeNull();
    expect(page1.meta.next).toMatch(/^\/core\/v2\/workspaces\?limit=2&after=/);

    const page2 = (await api.get(page1.meta.next)).json();
    expect(page2.data.map((w: WorkspaceWire) => w.id)).toEqual(expected.slice(2));
    expect(page2.data[1]).toMatchObject({ key: 'main', name: 'Main', media_id: own.mediaId });
    expect(page2.meta.next).toBeNull();
    expect(page2.meta.previous).toMatch(/^\/core\/v2\/workspaces\?limit=2&before=/);

    const back = (await api.get(page2.meta.previous)).json();
    expect(back.data.map((w: WorkspaceWire) => w.id)).toEqual(expected.slice(0, 2));
    expect(back.meta.previous).toBeNull();
  });

  it("lists only the key's own media's workspaces, 20 a page by default, and a viewer may read them", async () => {
    // 24 workspaces besides the media's first (and oldest) one: two pages.
    const own = await seedMedia(ctx.app);
    const added = await insertWorkspaces(ctx.database.db, own.mediaId, 24);
    const newestFirst = [...added.map((w) => w.id).reverse(), own.workspaceId];
    const other = await seedMedia(ctx.app);
    const ownViewer = client(ctx.app, own.keys.viewer);
    const res = await ownViewer.get('/core/v2/workspaces');
    expect(res.statusCode).toBe(200);
    const ids = res.json().data.map((w: WorkspaceWire) => w.id);
    expect(ids).not.toContain(other.workspaceId);
    expect(ids.length).toBeLessThanOrEqual(20);
    expect(ids).toEqual(newestFirst.slice(0, 20));
    expect(res.json().meta).toMatchObject({ base: '/core/v2/workspaces', previous: null });
    expect(res.json().meta.next).toMatch(/^\/core\/v2\/workspaces\?after=/);
    const rest = (await ownViewer.get(res.json().meta.next)).json();
    const restIds = rest.data.map((w: WorkspaceWire) => w.id);
    expect(restIds).toEqual(newestFirst.slice(20));
    expect(restIds).toContain(own.workspaceId);
    expect(restIds).not.toContain(other.workspaceId);
    expect(rest.meta.next).toBeNull();
  });

  it('refuses a limit out of range and a tampered or foreign cursor with 400', async () => {
    for (const query of ['limit=0', 'limit=101', 'limit=abc']) {
      const res = await editor.get(`/core/v2/workspaces?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
    const tampered = await editor.get('/core/v2/workspaces?after=not-a-cursor');
    expect(tampered.statusCode).toBe(400);
    expect(tampered.json().code).toBe('invalid_cursor');

    // A valid cursor from another media's listing is foreign here.
    const other = await seedMedia(ctx.app);
    const otherApi = client(ctx.app, other.keys.editor);
    await createWorkspace(otherApi);
    const next = (await otherApi.get('/core/v2/workspaces?limit=1')).json().meta.next as string;
    const foreign = await editor.get(next);
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().code).toBe('invalid_cursor');
  });

  it('answers 401 without a key and 403 to a role without core:read', async () => {
    expect((await client(ctx.app).get('/core/v2/workspaces')).statusCode).toBe(401);
    const res = await adManager.get('/core/v2/workspaces');
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('forbidden');
  });
});

describe('POST /core/v2/workspaces', () => {
  it('creates a workspace and answers 201 with the record', async () => {
    const key = uniqueKey('culture');
    const res = await editor.post('/core/v2/workspaces', { key, name: '  Culture  ' });
    expect(res.statusCode).toBe(201);
    const data = res.json().data as WorkspaceWire;
    expect(Object.keys(data).sort()).toEqual(['id', 'inserted_at', 'key', 'media_id', 'name', 'updated_at']);
    expect(data).toMatchObject({ key, name: 'Culture', media_id: seeded.mediaId });
    expect(data.id).toMatch(UUID);
    expect(data.inserted_at).toMatch(ISO_MS);
    expect(data.updated_at).toMatch(ISO_MS);
    expect((await viewer.get(`/core/v2/workspaces/${data.id}`)).json().data).toEqual(data);
  });

  it('answers 409 workspace_key_taken for a key the media already uses', async () => {
    const taken = await editor.post('/core/v2/workspaces', { key: 'main', name: 'Another main' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ error: 'a workspace with this key already exists', code: 'workspace_key_taken' });

    // Keys are unique per media: another media may use the same key.
    const other = await seedMedia(ctx.app);
    const workspace = await createWorkspace(editor, { key: 'shared-key' });
    const again = await client(ctx.app, other.keys.editor).post('/core/v2/workspaces', { key: 'shared-key', name: 'Mine too' });
    expect(again.statusCode).toBe(201);
    expect(again.json().data.id).not.toBe(workspace.id);
  });

  it('refuses malformed keys, missing names, unknown and server-owned fields with 400', async () => {
    for (const body of [
      { key: 'Upper', name: 'X' },
      { key: '-leading', name: 'X' },
      { key: 'with space', name: 'X' },
      { key: 'k'.repeat(64), name: 'X' },
      { key: uniqueKey('ok') },
      { key: uniqueKey('ok'), name: '' },
      { key: uniqueKey('ok'), name: 'X', colour: 'red' },
      { key: uniqueKey('ok'), name: 'X', id: randomUUID() },
      { key: uniqueKey('ok'), name: 'X', media_id: randomUUID() },
    ]) {
      const res = await editor.post('/core/v2/workspaces', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
  });

  it('is refused to a viewer with 403 and to a caller without a key with 401', async () => {
    const body = { key: uniqueKey('denied'), name: 'Denied' };
    const res = await viewer.post('/core/v2/workspaces', body);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('forbidden');
    expect((await client(ctx.app).post('/core/v2/workspaces', body)).statusCode).toBe(401);
    const keys = (await viewer.get('/core/v2/workspaces?limit=100')).json().data.map((w: WorkspaceWire) => w.key);
    expect(keys).not.toContain(body.key);
  });
});

describe('GET /core/v2/workspaces/:id', () => {
  it('answers the workspace', async () => {
    const res = await viewer.get(`/core/v2/workspaces/${seeded.workspaceId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: seeded.workspaceId, key: 'main', name: 'Main', media_id: seeded.mediaId });
  });

  it("answers 404 for an unknown id and for another media's workspace", async () => {
    const unknown = await viewer.get(`/core/v2/workspaces/${randomUUID()}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'workspace not found', code: 'workspace_not_found' });
    const other = await seedMedia(ctx.app);
    const foreign = await viewer.get(`/core/v2/workspaces/${other.workspaceId}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().code).toBe('workspace_not_found');
  });

  it('answers 400 with an error sentence for a malformed uuid', async () => {
    const res = await viewer.get('/core/v2/workspaces/not-a-uuid');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_uuid', error: expect.any(String) });
  });

  it('answers 401 without a key and 403 to a role without core:read', async () => {
    expect((await client(ctx.app).get(`/core/v2/workspaces/${seeded.workspaceId}`)).statusCode).toBe(401);
    expect((await adManager.get(`/core/v2/workspaces/${seeded.workspaceId}`)).statusCode).toBe(403);
  });
});

describe('PATCH /core/v2/workspaces/:id', () => {
  it('renames a workspace and changes its key, keeping what the patch leaves out', async () => {
    const workspace = await createWorkspace(editor, { name: 'Old name' });
    const past = await backdate(ctx.database.db, workspaces, workspace.id);
    const key = uniqueKey('renamed');
    const res = await editor.patch(`/core/v2/workspaces/${workspace.id}`, { key });
    expect(res.statusCode).toBe(200);
    const data = res.json().data as WorkspaceWire;
    expect(data).toMatchObject({ id: workspace.id, key, name: 'Old name', media_id: seeded.mediaId });
    expect(data.inserted_at).toBe(workspace.inserted_at);
    expect(Date.parse(data.updated_at)).toBeGreaterThanOrEqual(Date.parse(workspace.updated_at));
    expect(Date.parse(data.updated_at)).toBeGreaterThan(Date.parse(past));

    const renamed = await editor.patch(`/core/v2/workspaces/${workspace.id}`, { name: 'New name' });
    expect(renamed.json().data).toMatchObject({ key, name: 'New name' });
    expect((await viewer.get(`/core/v2/workspaces/${workspace.id}`)).json().data).toEqual(renamed.json().data);
  });

  it('answers 409 when the new key belongs to another workspace of the media', async () => {
    const workspace = await createWorkspace(editor);
    const res = await editor.patch(`/core/v2/workspaces/${workspace.id}`, { key: 'main' });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('workspace_key_taken');
    expect((await viewer.get(`/core/v2/workspaces/${workspace.id}`)).json().data.key).toBe(workspace.key);
  });

  it("answers 404 for an unknown id and for another media's workspace, which stays unchanged", async () => {
    const unknown = await editor.patch(`/core/v2/workspaces/${randomUUID()}`, { name: 'X' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('workspace_not_found');

    const other = await seedMedia(ctx.app);
    const foreign = await editor.patch(`/core/v2/workspaces/${other.workspaceId}`, { name: 'Taken over' });
    expect(foreign.statusCode).toBe(404);
    const theirs = await client(ctx.app, other.keys.viewer).get(`/core/v2/workspaces/${other.workspaceId}`);
    expect(theirs.json().data.name).toBe('Main');
  });

  it('answers 400 for a malformed uuid, a malformed key and unknown or server-owned fields', async () => {
    const badId = await editor.patch('/core/v2/workspaces/123', { name: 'X' });
    expect(badId.statusCode).toBe(400);
    expect(badId.json().code).toBe('invalid_uuid');

    const workspace = await createWorkspace(editor);
    for (const body of [{ key: 'Not Valid' }, { name: '' }, { colour: 'red' }, { media_id: randomUUID() }, { id: randomUUID() }]) {
      const res = await editor.patch(`/core/v2/workspaces/${workspace.id}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
  });

  it('is refused to a viewer with 403 and without a key with 401', async () => {
    const workspace = await createWorkspace(editor);
    const res = await viewer.patch(`/core/v2/workspaces/${workspace.id}`, { name: 'Denied' });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('forbidden');
    expect((await client(ctx.app).patch(`/core/v2/workspaces/${workspace.id}`, { name: 'Denied' })).statusCode).toBe(401);
    expect((await viewer.get(`/core/v2/workspaces/${workspace.id}`)).json().data.name).toBe(workspace.name);
  });
});

describe('GET /core/v2/statuses', () => {
  it('starts every media with draft, published and unpublished, only published being a published status', async () => {
    const own = await seedMedia(ctx.app);
    const res = await client(ctx.app, own.keys.viewer).get('/core/v2/statuses');
    expect(res.statusCode).toBe(200);
    const data = res.json().data as StatusWire[];
    const byKey = Object.fromEntries(data.map((s) => [s.key, s]));
    expect(Object.keys(byKey).sort()).toEqual(['draft', 'published', 'unpublished']);
    expect(byKey.draft).toMatchObject({ name: 'Draft', is_published: false });
    expect(byKey.published).toMatchObject({ name: 'Published', is_published: true });
    expect(byKey.unpublished).toMatchObject({ name: 'Unpublished', is_published: false });
    for (const status of data) {
      expect(Object.keys(status).sort()).toEqual(['id', 'inserted_at', 'is_published', 'key', 'name', 'updated_at']);
      expect(status.id).toMatch(UUID);
      expect(status.inserted_at).toMatch(ISO_MS);
    }
    expect(res.json().meta).toEqual({ base: '/core/v2/statuses', next: null, previous: null });
  });

  it("pages with cursor links and never shows another media's statuses", async () => {
    const own = await seedMedia(ctx.app);
    const api = client(ctx.app, own.keys.editor);
    const created = await api.post('/core/v2/statuses', { key: 'in_review', name: 'In review' });
    const first = (await api.get('/core/v2/statuses?limit=2')).json();
    expect(first.data).toHaveLength(2);
    expect(first.data[0].id).toBe(created.json().data.id);
    expect(first.meta.next).toMatch(/^\/core\/v2\/statuses\?limit=2&after=/);
    const second = (await api.get(first.meta.next)).json();
    expect(second.data).toHaveLength(2);
    expect(second.meta.next).toBeNull();
    const ids = [...first.data, ...second.data].map((s: StatusWire) => s.id);
    expect(new Set(ids).size).toBe(4);

    const mine = (await viewer.get('/core/v2/statuses?limit=100')).json().data.map((s: StatusWire) => s.id);
    for (const id of ids) expect(mine).not.toContain(id);
  });

  it('answers 400 for a bad limit or cursor, 401 without a key and 403 to a role without core:read', async () => {
    expect((await viewer.get('/core/v2/statuses?limit=1000')).statusCode).toBe(400);
    const cursor = await viewer.get('/core/v2/statuses?before=abc.def');
    expect(cursor.statusCode).toBe(400);
    expect(cursor.json().code).toBe('invalid_cursor');
    expect((await client(ctx.app).get('/core/v2/statuses')).statusCode).toBe(401);
    expect((await client(ctx.app, seeded.keys.messenger).get('/core/v2/statuses')).statusCode).toBe(403);
  });
});

describe('POST /core/v2/statuses', () => {
  it('creates a status, not published unless told, and answers 201 with the record', async () => {
    const key = `review_${randomUUID().slice(0, 8)}`;
    const res = await editor.post('/core/v2/statuses', { key, name: 'In review' });
    expect(res.statusCode).toBe(201);
    const data = res.json().data as StatusWire;
    expect(data).toMatchObject({ key, name: 'In review', is_published: false });
    expect(data.id).toMatch(UUID);
    expect(data.inserted_at).toMatch(ISO_MS);

    const live = await editor.post('/core/v2/statuses', { key: `live_${randomUUID().slice(0, 8)}`, name: 'Live', is_published: true });
    expect(live.statusCode).toBe(201);
    expect(live.json().data.is_published).toBe(true);

    const listed = (await viewer.get('/core/v2/statuses?limit=100')).json().data as StatusWire[];
    expect(listed.find((s) => s.id === data.id)).toEqual(data);
  });

  it('answers 409 status_key_taken for a key the media already has, default ones included', async () => {
    const draft = await editor.post('/core/v2/statuses', { key: 'draft', name: 'Second draft' });
    expect(draft.statusCode).toBe(409);
    expect(draft.json()).toEqual({ error: 'a status with this key already exists', code: 'status_key_taken' });

    const key = `archived_${randomUUID().slice(0, 8)}`;
    expect((await editor.post('/core/v2/statuses', { key, name: 'Archived' })).statusCode).toBe(201);
    const again = await editor.post('/core/v2/statuses', { key, name: 'Archived again' });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('status_key_taken');
  });

  it('refuses malformed keys, missing or empty names, a non-boolean flag and unknown fields with 400', async () => {
    for (const body of [
      { key: 'Draft2', name: 'X' },
      { key: '1st', name: 'X' },
      { key: 'with-dash', name: 'X' },
      { key: 'ok_key' },
      { key: 'ok_key', name: '' },
      { name: 'No key' },
      { key: 'ok_key', name: 'X', is_published: 'yes' },
      { key: 'ok_key', name: 'X', colour: 'red' },
      { key: 'ok_key', name: 'X', id: randomUUID() },
    ]) {
      const res = await editor.post('/core/v2/statuses', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
    const keys = (await viewer.get('/core/v2/statuses?limit=100')).json().data.map((s: StatusWire) => s.key);
    expect(keys).not.toContain('ok_key');
  });

  it('is refused to a viewer with 403 and without a key with 401', async () => {
    const res = await viewer.post('/core/v2/statuses', { key: 'denied', name: 'Denied' });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('forbidden');
    expect((await client(ctx.app).post('/core/v2/statuses', { key: 'denied', name: 'Denied' })).statusCode).toBe(401);
    expect((await adManager.post('/core/v2/statuses', { key: 'denied', name: 'Denied' })).statusCode).toBe(403);
  });
});

describe('rate limit', () => {
  it('answers 429 with Retry-After once a key exceeds its Backoffice limit', async () => {
    const limited = await createTestApp({ rateLimit: { ...testConfig().rateLimit, backoffice: 2 } });
    try {
      const own = await seedMedia(limited.app);
      const api = client(limited.app, own.keys.viewer);
      expect((await api.get('/core/v2/media')).statusCode).toBe(200);
      expect((await api.get('/core/v2/workspaces')).statusCode).toBe(200);
      const res = await api.get('/core/v2/statuses');
      expect(res.statusCode).toBe(429);
      expect(res.json().code).toBe('rate_limited');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      // The limit counts per key: another key of the same media is not affected.
      expect((await client(limited.app, own.keys.editor).get('/core/v2/media')).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
