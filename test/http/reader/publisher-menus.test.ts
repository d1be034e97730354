import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { ISO_MS, UUID, expectError } from '../../setup/expect.js';
import { type SeededMedia, client, seedMedia } from '../../setup/factories.js';
import { clientToken, readerClient, registerClient } from '../../setup/reader.js';

let ctx: TestContext;
let media: SeededMedia;
let other: SeededMedia;
let token: string;

beforeAll(async () => {
  ctx = await createTestApp();
  media = await seedMedia(ctx.app, { locales: ['en', 'fr', 'de'] });
  other = await seedMedia(ctx.app);
  token = (await clientToken(ctx.app, await registerClient(ctx.app, media.keys.admin, ['media:read']))).access_token;
});
afterAll(() => ctx?.close());

const key = () => `menu-${randomUUID().slice(0, 8)}`;

describe('Reader menus (spec 2.15)', () => {
  it('serves a menu by key in one language as {id, name, key, localized: {id, locale, items}, inserted_at, updated_at}', async () => {
    const k = key();
    const created = (
      await client(ctx.app, media.keys.editor).post('/publisher/v2/menus', {
        key: k,
        name: 'Main',
        locales: [
          { locale: 'en', items: [{ name: 'News', url: '/news', items: [{ name: 'World', url: 'https://example.com/world', open_new_tab: true, items: [{ name: 'Europe', url: '/europe' }] }] }] },
          { locale: 'fr', items: [{ name: 'Actualités', url: '/actu' }] },
        ],
      })
    ).json().data;
    const reader = readerClient(ctx.app, media.mediaId, token);

    const fr = await reader.get(`/api/media/v1/menus/${k}?locale=fr`);
    expect(fr.statusCode, fr.body).toBe(200);
    const fre = created.locales[1];
    expect(fr.json().data).toEqual({
      id: created.id,
      name: 'Main',
      key: k,
      localized: { id: fre.id, locale: 'fr', items: [{ id: fre.items[0].id, name: 'Actualités', url: '/actu', open_new_tab: false, items: [] }] },
      meta: { locales: { current: 'fr', available: ['en', 'fr'], requested: 'fr' } },
      inserted_at: expect.stringMatching(ISO_MS),
      updated_at: created.updated_at,
    });

    // No German entry: the media's default (en), whole tree.
    const de = (await reader.get(`/api/media/v1/menus/${k}?locale=de`)).json().data;
    expect(de.localized.locale).toBe('en');
    expect(de.meta.locales.current).toBe('en');
    expect(de.localized.items[0].items[0]).toEqual({
      id: expect.stringMatching(UUID),
      name: 'World',
      url: 'https://example.com/world',
      open_new_tab: true,
      items: [{ id: expect.stringMatching(UUID), name: 'Europe', url: '/europe', open_new_tab: false, items: [] }],
    });
    // Without locale: the default.
    expect((await reader.get(`/api/media/v1/menus/${k}`)).json().data.localized.locale).toBe('en');
  });

  it("answers 404 menu_not_found for an unknown key, a deleted menu and another media's menu", async () => {
    const reader = readerClient(ctx.app, media.mediaId, token);
    expectError(await reader.get('/api/media/v1/menus/nope'), 404, 'menu_not_found');

    const k = key();
    const foreign = await client(ctx.app, other.keys.editor).post('/publisher/v2/menus', { key: k, name: 'F', locales: [{ locale: 'en', items: [] }] });
    expect(foreign.statusCode).toBe(201);
    expectError(await reader.get(`/api/media/v1/menus/${k}`), 404, 'menu_not_found');

    const editor = client(ctx.app, media.keys.editor);
    const mine = (await editor.post('/publisher/v2/menus', { key: k, name: 'Mine', locales: [{ locale: 'en', items: [] }] })).json().data;
    expect((await reader.get(`/api/media/v1/menus/${k}`)).json().data.id).toBe(mine.id);
    await editor.delete(`/publisher/v2/menus/${mine.id}`);
    expectError(await reader.get(`/api/media/v1/menus/${k}`), 404, 'menu_not_found');
  });

  it('needs a token with media:read and the media header', async () => {
    expect((await readerClient(ctx.app, media.mediaId).get('/api/media/v1/menus/any')).statusCode).toBe(401);
    expectError(await ctx.app.inject({ method: 'GET', url: '/api/media/v1/menus/any', headers: { authorization: `Bearer ${token}` } }), 400, 'missing_media_id');
  });
});

describe('Reader media blocks', () => {
  it('serves a media block by id in the asked language, its HTML sanitized', async () => {
    const editor = client(ctx.app, media.keys.editor);
    const res = await editor.post('/publisher/v2/media-blocks', {
      key: `footer-${randomUUID().slice(0, 8)}`,
      locales: [
        { locale: 'en', content_html: '<p>Hello <strong>world</strong><script>alert(1)</script></p>' },
        { locale: 'fr', content_html: '<p>Bonjour</p>' },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const block = res.json().data;
    expect(block.locales[0]).toEqual({
      id: expect.stringMatching(UUID),
      locale: 'en',
      content_html: '<p>Hello <strong>world</strong></p>',
      content_text: 'Hello world',
      deleted_at: null,
    });
    const reader = readerClient(ctx.app, media.mediaId, token);
    const fr = await reader.get(`/api/media/v1/blocks/${block.id}?locale=fr`);
    expect(fr.statusCode, fr.body).toBe(200);
    expect(fr.json().data).toEqual({
      id: block.id,
      key: block.key,
      localized: { id: block.locales[1].id, locale: 'fr', content_html: '<p>Bonjour</p>', content_text: 'Bonjour' },
      meta: { locales: { current: 'fr', available: ['en', 'fr'], requested: 'fr' } },
      inserted_at: block.inserted_at,
      updated_at: block.updated_at,
    });
    const updated = await editor.patch(`/publisher/v2/media-blocks/${block.id}`, { locales: [{ locale: 'en', content_html: '<p>Changed</p>' }] });
    expect(updated.json().data.locales.map((l: { content_text: string }) => l.content_text)).toEqual(['Changed']);
    expect((await reader.get(`/api/media/v1/blocks/${block.id}?locale=fr`)).json().data.localized).toMatchObject({ locale: 'en', content_text: 'Changed' });
    const foreign = (await client(ctx.app, other.keys.editor).post('/publisher/v2/media-blocks', { key: 'x', locales: [{ locale: 'en', content_html: 'x' }] })).json().data;
    expectError(await reader.get(`/api/media/v1/blocks/${foreign.id}`), 404, 'media_block_not_found');
  });
});

describe('Public menu (deprecated)', () => {
  it('serves the menu by key in the 2.15 shape without a token, with its Reader successor, and 404s', async () => {
    const k = key();
    const created = (await client(ctx.app, media.keys.editor).post('/publisher/v2/menus', { key: k, name: 'Public', locales: [{ locale: 'fr', items: [{ name: 'Une', url: '/une' }] }] })).json().data;
    const res = await ctx.app.inject({ method: 'GET', url: `/api/public/publisher/v2/medias/${media.mediaId}/menus/${k}?locale=fr` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ id: created.id, name: 'Public', key: k, localized: { id: created.locales[0].id, locale: 'fr', items: [{ name: 'Une', url: '/une', open_new_tab: false, items: [] }] } });
    expect(res.headers.deprecation).toBeDefined();
    expect(String(res.headers.link)).toContain(`/api/media/v1/menus/${k}`);
    expectError(await ctx.app.inject({ method: 'GET', url: `/api/public/publisher/v2/medias/${other.mediaId}/menus/${k}` }), 404, 'menu_not_found');
    expectError(await ctx.app.inject({ method: 'GET', url: `/api/public/publisher/v2/medias/${crypto.randomUUID()}/menus/${k}` }), 404, 'media_not_found');
  });
});
