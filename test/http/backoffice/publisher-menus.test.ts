import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { ISO_MS, UUID, expectError } from '../../setup/expect.js';
import { type Client, type SeededMedia, client, seedMedia } from '../../setup/factories.js';

let ctx: TestContext;
let media: SeededMedia;
let other: SeededMedia;
let editor: Client;

beforeAll(async () => {
  ctx = await createTestApp();
  media = await seedMedia(ctx.app);
  other = await seedMedia(ctx.app);
  editor = client(ctx.app, media.keys.editor);
});
afterAll(() => ctx?.close());

const key = () => `menu-${randomUUID().slice(0, 8)}`;
const link = (name: string, url: string, items: unknown[] = []) => ({ name, url, items });

describe('menus (Backoffice)', () => {
  it('creates a menu with a 3-level tree per locale, giving every item an id, and reads it back', async () => {
    const k = key();
    const res = await editor.post('/publisher/v2/menus', {
      key: k,
      name: 'Main',
      locales: [
        { locale: 'en', items: [link('News', '/news', [link('World', 'https://example.com/world', [link('Europe', '/news/world/europe')])])] },
        { locale: 'fr', items: [{ name: 'Actualités', url: '/actu', open_new_tab: true }] },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const menu = res.json().data;
    expect(menu).toEqual({
      id: expect.stringMatching(UUID),
      key: k,
      name: 'Main',
      locales: [
        {
          id: expect.stringMatching(UUID),
          locale: 'en',
          items: [
            {
              id: expect.stringMatching(UUID),
              name: 'News',
              url: '/news',
              open_new_tab: false,
              items: [
                {
                  id: expect.stringMatching(UUID),
                  name: 'World',
                  url: 'https://example.com/world',
                  open_new_tab: false,
                  items: [{ id: expect.stringMatching(UUID), name: 'Europe', url: '/news/world/europe', open_new_tab: false, items: [] }],
                },
              ],
            },
          ],
          deleted_at: null,
        },
        { id: expect.stringMatching(UUID), locale: 'fr', items: [{ id: expect.stringMatching(UUID), name: 'Actualités', url: '/actu', open_new_tab: true, items: [] }], deleted_at: null },
      ],
      inserted_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
      deleted_at: null,
    });
    expect((await editor.get(`/publisher/v2/menus/${menu.id}`)).json().data).toEqual(menu);
    const listed = (await client(ctx.app, media.keys.viewer).get('/publisher/v2/menus?limit=100')).json();
    expect(listed.data.map((m: { id: string }) => m.id)).toContain(menu.id);
    expect(listed.meta).toMatchObject({ next: null, previous: null });
  });

  it('refuses a fourth level, a bad url, a locale twice and unknown fields (400 naming the path)', async () => {
    const deep = await editor.post('/publisher/v2/menus', {
      key: key(),
      name: 'Deep',
      locales: [{ locale: 'en', items: [link('1', '/1', [link('2', '/2', [link('3', '/3', [link('4', '/4')])])])] }],
    });
    const body = expectError(deep, 400, 'validation_failed');
    expect(JSON.stringify(body.details)).toContain('locales.0.items.0.items.0.items.0.items');
    for (const bad of [
      { key: key(), name: 'X', locales: [{ locale: 'en', items: [link('js', 'javascript:alert(1)')] }] },
      { key: key(), name: 'X', locales: [{ locale: 'en', items: [] }, { locale: 'en', items: [] }] },
      { key: key(), name: 'X', locales: [{ locale: 'en', items: [] }], media_id: randomUUID() },
      { key: 'Not A Key', name: 'X', locales: [{ locale: 'en', items: [] }] },
    ]) {
      expectError(await editor.post('/publisher/v2/menus', bad), 400, 'validation_failed');
    }
  });

  it('refuses a locale the media does not have, and a live key twice (409), but not in another media', async () => {
    const res = await editor.post('/publisher/v2/menus', { key: key(), name: 'X', locales: [{ locale: 'de', items: [] }] });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    const k = key();
    expect((await editor.post('/publisher/v2/menus', { key: k, name: 'A', locales: [{ locale: 'en', items: [] }] })).statusCode).toBe(201);
    expectError(await editor.post('/publisher/v2/menus', { key: k, name: 'B', locales: [{ locale: 'en', items: [] }] }), 409, 'menu_key_taken');
    expect((await client(ctx.app, other.keys.editor).post('/publisher/v2/menus', { key: k, name: 'C', locales: [{ locale: 'en', items: [] }] })).statusCode).toBe(201);
  });

  it('updates (PATCH keeps what is left out; locales sent are the whole set), deletes and restores', async () => {
    const created = (
      await editor.post('/publisher/v2/menus', {
        key: key(),
        name: 'Footer',
        locales: [
          { locale: 'en', items: [link('About', '/about')] },
          { locale: 'fr', items: [link('À propos', '/a-propos')] },
        ],
      })
    ).json().data;
    const itemId = created.locales[0].items[0].id;
    const patched = await editor.patch(`/publisher/v2/menus/${created.id}`, {
      name: 'Footer links',
      locales: [{ locale: 'en', items: [{ id: itemId, name: 'About us', url: '/about' }, link('Contact', 'mailto:x'.replace('mailto:x', '/contact'))] }],
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const updated = patched.json().data;
    expect(updated).toMatchObject({ key: created.key, name: 'Footer links' });
    expect(updated.locales.map((l: { locale: string }) => l.locale)).toEqual(['en']);
    expect(updated.locales[0].id).toBe(created.locales[0].id);
    expect(updated.locales[0].items.map((i: { id: string; name: string }) => [i.id === itemId, i.name])).toEqual([
      [true, 'About us'],
      [false, 'Contact'],
    ]);
    expect(updated.updated_at >= created.updated_at).toBe(true);

    expect((await editor.delete(`/publisher/v2/menus/${created.id}`)).statusCode).toBe(204);
    expectError(await editor.get(`/publisher/v2/menus/${created.id}`), 404, 'menu_not_found');
    expectError(await editor.delete(`/publisher/v2/menus/${created.id}`), 404, 'menu_not_found');
    const restored = await editor.post(`/publisher/v2/menus/${created.id}/restore`);
    expect(restored.statusCode).toBe(200);
    expect(restored.json().data).toEqual({ ...updated, updated_at: expect.stringMatching(ISO_MS) });
    // Idempotent.
    expect((await editor.post(`/publisher/v2/menus/${created.id}/restore`)).json().data.deleted_at).toBeNull();
  });

  it("answers 404 for another media's menu, 400 for a malformed id, 403 without publisher permissions", async () => {
    const foreign = (await client(ctx.app, other.keys.editor).post('/publisher/v2/menus', { key: key(), name: 'F', locales: [{ locale: 'en', items: [] }] })).json().data;
    expectError(await editor.get(`/publisher/v2/menus/${foreign.id}`), 404, 'menu_not_found');
    expectError(await editor.patch(`/publisher/v2/menus/${foreign.id}`, { name: 'Mine' }), 404, 'menu_not_found');
    expectError(await editor.delete(`/publisher/v2/menus/${foreign.id}`), 404, 'menu_not_found');
    expect((await editor.get('/publisher/v2/menus/not-a-uuid')).statusCode).toBe(400);
    expectError(await client(ctx.app, media.keys.ad_manager).get('/publisher/v2/menus'), 403, 'forbidden');
    expectError(await client(ctx.app, media.keys.viewer).post('/publisher/v2/menus', { key: key(), name: 'V', locales: [{ locale: 'en', items: [] }] }), 403, 'forbidden');
  });
});
