import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { categories } from '../../../src/modules/core/categories/categories.table.js';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { ISO_MS, UUID } from '../../setup/expect.js';
import { type CategoryWire, type Client, client, createCategory, seedMedia } from '../../setup/factories.js';
import { restoreChecks } from '../../setup/kits/restore.js';
import { backdate, insertCategories } from '../../setup/rows.js';

let ctx: TestContext;
let api: Client;
let viewer: Client;
let foreign: Client;

beforeAll(async () => {
  ctx = await createTestApp();
  const seeded = await seedMedia(ctx.app);
  api = client(ctx.app, seeded.keys.editor);
  viewer = client(ctx.app, seeded.keys.viewer);
  foreign = client(ctx.app, (await seedMedia(ctx.app)).keys.editor);
});
afterAll(() => ctx.close());

describe('POST /core/v2/categories', () => {
  it('creates a category with its locale entries and answers 201 with the record', async () => {
    const res = await api.post('/core/v2/categories', {
      svg_icon: '<svg viewBox="0 0 24 24"><path d="M0 0h24v24H0z"/></svg>',
      locales: [
        { locale: 'en', name: 'Politics', description: 'Affairs of state' },
        { locale: 'fr', name: 'Politique' },
      ],
    });
    expect(res.statusCode).toBe(201);
    const data = res.json().data as CategoryWire;
    expect(data).toMatchObject({
      svg_icon: '<svg viewBox="0 0 24 24"><path d="M0 0h24v24H0z"></path></svg>',
      is_archived: false,
      deleted_at: null,
    });
    expect(data.id).toMatch(UUID);
    expect(data.inserted_at).toMatch(ISO_MS);
    expect(data.updated_at).toMatch(ISO_MS);
    expect(data.locales.map((l) => [l.locale, l.name, l.description, l.deleted_at])).toEqual([
      ['en', 'Politics', 'Affairs of state', null],
      ['fr', 'Politique', null, null],
    ]);

    const fetched = await api.get(`/core/v2/categories/${data.id}`);
    expect(fetched.json().data).toEqual(data);
  });

  it('strips scripts, event handlers and foreign content from the SVG icon', async () => {
    const created = await createCategory(api, {
      svg_icon:
        '<svg viewBox="0 0 1 1" onload="alert(1)"><script>alert(1)</script><foreignObject><img src=x onerror=alert(1)></foreignObject><circle cx="1" cy="1" r="1"/></svg>',
    });
    expect(created.svg_icon).toBe('<svg viewBox="0 0 1 1"><circle cx="1" cy="1" r="1"></circle></svg>');
  });

  it('refuses a locale the media does not publish in, and writes nothing', async () => {
    const before = (await api.get('/core/v2/categories?limit=100')).json().data.length;
    const res = await api.post('/core/v2/categories', { locales: [{ locale: 'de', name: 'Politik' }] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'unsupported_locale', details: [{ path: 'locales.0.locale' }] });
    expect((await api.get('/core/v2/categories?limit=100')).json().data.length).toBe(before);
  });

  it('refuses the same locale twice, an empty locale list and server-owned fields', async () => {
    const twice = await api.post('/core/v2/categories', {
      locales: [
        { locale: 'en', name: 'A' },
        { locale: 'en', name: 'B' },
      ],
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().code).toBe('validation_failed');

    const empty = await api.post('/core/v2/categories', { locales: [] });
    expect(empty.statusCode).toBe(400);

    for (const field of ['id', 'inserted_at', 'updated_at', 'deleted_at', 'media_id']) {
      const res = await api.post('/core/v2/categories', {
        [field]: field.endsWith('_at') ? new Date().toISOString() : randomUUID(),
        locales: [{ locale: 'en', name: 'X' }],
      });
      expect(res.statusCode, field).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
  });

  it('is refused to a viewer key with 403', async () => {
    const res = await viewer.post('/core/v2/categories', { locales: [{ locale: 'en', name: 'X' }] });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('forbidden');
  });
});

describe('GET /core/v2/categories', () => {
  it('lists newest first with cursor links that walk forward and back', async () => {
    const fresh = await seedMedia(ctx.app);
    const own = client(ctx.app, fresh.keys.editor);
    const created: CategoryWire[] = [];
    for (let i = 0; i < 5; i++) created.push(await createCategory(own));
    const expected = created.map((c) => c.id).reverse();

    const first = await own.get('/core/v2/categories?limit=2');
    expect(first.statusCode).toBe(200);
    const page1 = first.json();
    expect(page1.data.map((c: CategoryWire) => c.id)).toEqual(expected.slice(0, 2));
    expect(page1.meta.base).toBe('/core/v2/categories?limit=2');
    expect(page1.meta.previous).toBeNull();
    expect(page1.meta.next).toMatch(/^\/core\/v2\/categories\?limit=2&after=/);

    const page2 = (await own.get(page1.meta.next)).json();
    expect(page2.data.map((c: CategoryWire) => c.id)).toEqual(expected.slice(2, 4));
    const page3 = (await own.get(page2.meta.next)).json();
    expect(page3.data.map((c: CategoryWire) => c.id)).toEqual(expected.slice(4));
    expect(page3.meta.next).toBeNull();

    const back = (await own.get(page3.meta.previous)).json();
    expect(back.data.map((c: CategoryWire) => c.id)).toEqual(expected.slice(2, 4));
    const backAgain = (await own.get(back.meta.previous)).json();
    expect(backAgain.data.map((c: CategoryWire) => c.id)).toEqual(expected.slice(0, 2));
    expect(backAgain.meta.previous).toBeNull();
    expect(backAgain.meta.next).not.toBeNull();
  });

  it('defaults to 20 a page and is readable by a viewer', async () => {
    const fresh = await seedMedia(ctx.app);
    const newestFirst = (await insertCategories(ctx.database.db, fresh.mediaId, 23)).map((c) => c.id).reverse();
    const own = client(ctx.app, fresh.keys.viewer);
    const res = await own.get('/core/v2/categories');
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page.data.length).toBeLessThanOrEqual(20);
    expect(page.data.map((c: CategoryWire) => c.id)).toEqual(newestFirst.slice(0, 20));
    expect(page.meta.next).toMatch(/^\/core\/v2\/categories\?after=/);
    const rest = (await own.get(page.meta.next)).json();
    expect(rest.data.map((c: CategoryWire) => c.id)).toEqual(newestFirst.slice(20));
    expect(rest.meta.next).toBeNull();
  });
});

describe('PATCH /core/v2/categories/:id', () => {
  it('updates fields and treats locales as the complete set', async () => {
    const category = await createCategory(api);
    const en = category.locales.find((l) => l.locale === 'en')!;
    const past = await backdate(ctx.database.db, categories, category.id);
    const res = await api.patch(`/core/v2/categories/${category.id}`, {
      is_archived: true,
      locales: [{ locale: 'en', name: 'Renamed', description: 'Now described' }],
    });
    expect(res.statusCode).toBe(200);
    const data = res.json().data as CategoryWire;
    expect(data.is_archived).toBe(true);
    expect(data.locales).toEqual([{ id: en.id, locale: 'en', name: 'Renamed', description: 'Now described', deleted_at: null }]);
    expect(Date.parse(data.updated_at)).toBeGreaterThanOrEqual(Date.parse(category.updated_at));
    expect(Date.parse(data.updated_at)).toBeGreaterThan(Date.parse(past));

    // Adding fr again creates a new entry; the old one stays deleted.
    const again = await api.patch(`/core/v2/categories/${category.id}`, {
      locales: [
        { locale: 'en', name: 'Renamed' },
        { locale: 'fr', name: 'Renommée' },
      ],
    });
    const locales = (again.json().data as CategoryWire).locales;
    expect(locales.map((l) => l.locale)).toEqual(['en', 'fr']);
    expect(locales.find((l) => l.locale === 'fr')!.id).not.toBe(category.locales.find((l) => l.locale === 'fr')!.id);
    expect(locales.find((l) => l.locale === 'en')!.description).toBe('Now described');
  });

  it('answers 404 for an unknown or deleted category and 400 for unknown fields', async () => {
    expect((await api.patch(`/core/v2/categories/${randomUUID()}`, { is_archived: true })).statusCode).toBe(404);
    const category = await createCategory(api);
    const unknown = await api.patch(`/core/v2/categories/${category.id}`, { colour: 'red' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().details[0].message).toMatch(/colour/);
    await api.delete(`/core/v2/categories/${category.id}`);
    const gone = await api.patch(`/core/v2/categories/${category.id}`, { is_archived: true });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().code).toBe('category_not_found');
  });
});

describe('DELETE and restore', () => {
  // Gone from reads and lists, a second delete 404, another media's restore 404, restored as it was.
  restoreChecks(() => ({ api, foreign }), { collection: '/core/v2/categories', notFound: 'category_not_found', create: (editor) => createCategory(editor) });

  it('restores exactly the locale entries the delete took away, not one deleted on its own before', async () => {
    const category = await createCategory(api);
    await api.patch(`/core/v2/categories/${category.id}`, { locales: [{ locale: 'en', name: 'Only english' }] });
    await api.delete(`/core/v2/categories/${category.id}`);
    const restored = (await api.post(`/core/v2/categories/${category.id}/restore`)).json().data as CategoryWire;
    expect(restored.locales.map((l) => [l.locale, l.name])).toEqual([['en', 'Only english']]);
  });

  it('is idempotent on a live category and 404 on an unknown one', async () => {
    const category = await createCategory(api);
    const res = await api.post(`/core/v2/categories/${category.id}/restore`, '', { 'content-type': 'application/json' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual(category);
    const unknown = await api.post(`/core/v2/categories/${randomUUID()}/restore`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'category not found', code: 'category_not_found' });
  });

  it('is refused to a viewer key', async () => {
    const category = await createCategory(api);
    expect((await viewer.delete(`/core/v2/categories/${category.id}`)).statusCode).toBe(403);
    expect((await viewer.post(`/core/v2/categories/${category.id}/restore`)).statusCode).toBe(403);
    expect((await api.get(`/core/v2/categories/${category.id}`)).statusCode).toBe(200);
  });
});
