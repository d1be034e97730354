import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { type SeededMedia, client, createCategory, seedMedia } from '../../setup/factories.js';
import { clientToken, readerClient, registerClient } from '../../setup/reader.js';

let ctx: TestContext;
let media: SeededMedia;
let token: string;

beforeAll(async () => {
  ctx = await createTestApp({ publicBaseUrl: 'https://api.example.test' });
  media = await seedMedia(ctx.app, { locales: ['fr', 'en', 'de'] });
  token = (await clientToken(ctx.app, await registerClient(ctx.app, media.keys.admin, ['media:read']))).access_token;
});
afterAll(() => ctx.close());

describe('Reader categories', () => {
  it('serves one language per category: the asked one, else the media default, and says which in meta.locales', async () => {
    const editor = client(ctx.app, media.keys.editor);
    const both = await createCategory(editor, {
      locales: [
        { locale: 'fr', name: 'Politique', description: 'La chose publique' },
        { locale: 'en', name: 'Politics' },
      ],
    });
    const reader = readerClient(ctx.app, media.mediaId, token);

    const en = await reader.get(`/api/media/v1/categories/${both.id}?locale=en`);
    expect(en.statusCode).toBe(200);
    expect(en.json().data).toEqual({
      id: both.id,
      name: 'Politics',
      description: null,
      svg_icon: null,
      meta: { locales: { current: 'en', available: ['fr', 'en'], requested: 'en' } },
      updated_at: both.updated_at,
    });
    const de = await reader.get(`/api/media/v1/categories/${both.id}?locale=de`);
    expect(de.json().data).toMatchObject({ name: 'Politique', description: 'La chose publique', meta: { locales: { current: 'fr' } } });
    const bad = await reader.get(`/api/media/v1/categories/${both.id}?locale=not a locale`);
    expect(bad.statusCode).toBe(400);
  });

  it('lists live, not archived categories with absolute paging links from PUBLIC_BASE_URL', async () => {
    const editor = client(ctx.app, media.keys.editor);
    const archived = await createCategory(editor, { is_archived: true, locales: [{ locale: 'fr', name: 'Archives' }] });
    const deleted = await createCategory(editor, { locales: [{ locale: 'fr', name: 'Supprimée' }] });
    await editor.delete(`/core/v2/categories/${deleted.id}`);
    for (let i = 0; i < 3; i++) await createCategory(editor, { locales: [{ locale: 'fr', name: `Rubrique ${i}` }] });

    const reader = readerClient(ctx.app, media.mediaId, token);
    const first = (await reader.get('/api/media/v1/categories?limit=2&locale=en')).json();
    expect(first.data).toHaveLength(2);
    expect(first.meta.base).toBe('https://api.example.test/api/media/v1/categories?limit=2&locale=en');
    expect(first.meta.next).toMatch(/^https:\/\/api\.example\.test\/api\/media\/v1\/categories\?limit=2&locale=en&after=/);
    expect(first.meta.locales).toEqual({ current: 'en', available: ['fr', 'en', 'de'], requested: 'en' });
    // A language the media does not publish in falls back to the default, in meta as in the items.
    const italian = (await reader.get('/api/media/v1/categories?limit=2&locale=it')).json();
    expect(italian.meta.locales.current).toBe('fr');

    const ids: string[] = [];
    let next: string | null = '/api/media/v1/categories?limit=2';
    while (next) {
      const page: { data: Array<{ id: string }>; meta: { next: string | null } } = (await reader.get(next.replace('https://api.example.test', ''))).json();
      ids.push(...page.data.map((c) => c.id));
      next = page.meta.next;
    }
    expect(ids).not.toContain(archived.id);
    expect(ids).not.toContain(deleted.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect((await reader.get(`/api/media/v1/categories/${archived.id}`)).statusCode).toBe(404);
  });

  it("does not show another media's categories", async () => {
    const other = await seedMedia(ctx.app);
    const foreign = await createCategory(client(ctx.app, other.keys.editor));
    const reader = readerClient(ctx.app, media.mediaId, token);
    const res = await reader.get(`/api/media/v1/categories/${foreign.id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('category_not_found');
    expect((await reader.get(`/api/media/v1/categories/${randomUUID()}`)).statusCode).toBe(404);
  });
});

describe('Reader media overview and profile types', () => {
  it('describes the media of x-service-media-id', async () => {
    const res = await readerClient(ctx.app, media.mediaId, token).get('/api/media/v1/media');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: media.mediaId, default_locale: 'fr', locales: ['fr', 'en', 'de'] });
  });

  it('lists profile types with their flags, metadata and locale meta', async () => {
    const created = await client(ctx.app, media.keys.editor).post('/community/v2/profile-types', {
      kind: 'event',
      key: 'festival',
      name: 'Festival',
      has_city: true,
      metadata: [{ key: 'icon', value: 'music' }],
    });
    const res = await readerClient(ctx.app, media.mediaId, token).get('/api/media/v1/profile-types');
    expect(res.statusCode).toBe(200);
    const found = res.json().data.find((p: { id: string }) => p.id === created.json().data.id);
    expect(found).toMatchObject({
      kind: 'event',
      key: 'festival',
      name: 'Festival',
      has_city: true,
      has_phone: false,
      metadata: [{ key: 'icon', value: 'music' }],
      meta: { locales: { current: 'fr', available: ['fr', 'en', 'de'], requested: null } },
    });
    expect(found.inserted_at).toBeUndefined();
    expect(res.json().meta.base).toBe('https://api.example.test/api/media/v1/profile-types');
  });
});
