import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { expectError } from '../../setup/expect.js';
import { type Client, type SeededMedia, client, createCategory, seedMedia } from '../../setup/factories.js';
import { clientToken, readerClient, registerClient } from '../../setup/reader.js';

let ctx: TestContext;
let media: SeededMedia;
let admin: Client;
let reader: ReturnType<typeof readerClient>;

beforeAll(async () => {
  ctx = await createTestApp();
  media = await seedMedia(ctx.app, { locales: ['en', 'fr', 'de', 'fr-CH'] });
  admin = client(ctx.app, media.keys.admin);
  reader = readerClient(ctx.app, media.mediaId, (await clientToken(ctx.app, await registerClient(ctx.app, media.keys.admin, ['media:read']))).access_token);
});
afterAll(() => ctx.close());

describe("the media's locale_fallbacks", () => {
  it('are set, kept, answered and checked against the media languages; only an admin sets them', async () => {
    const own = await seedMedia(ctx.app, { locales: ['en', 'fr', 'de'] });
    const api = client(ctx.app, own.keys.admin);
    expect((await api.get('/core/v2/media')).json().data.locale_fallbacks).toEqual({});

    // The asked language itself and repeats leave a chain.
    const set = await api.patch('/core/v2/media', { locale_fallbacks: { de: ['fr', 'de', 'fr'], fr: ['en'] } });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data.locale_fallbacks).toEqual({ de: ['fr'], fr: ['en'] });
    expect((await api.patch('/core/v2/media', { name: 'Renamed' })).json().data.locale_fallbacks).toEqual({ de: ['fr'], fr: ['en'] });
    expect((await client(ctx.app, own.keys.viewer).get('/core/v2/media')).json().data.locale_fallbacks).toEqual({ de: ['fr'], fr: ['en'] });

    const stray = expectError(await api.patch('/core/v2/media', { locale_fallbacks: { de: ['it'], fr: ['en'], it: ['en'] } }), 400, 'unsupported_locale');
    expect(stray.details).toEqual([
      { path: 'locale_fallbacks.de', message: 'must name only en, fr, de' },
      { path: 'locale_fallbacks.it', message: 'must name only en, fr, de' },
    ]);
    for (const locale_fallbacks of [{ de: 'fr' }, { 'not a tag': ['fr'] }, { de: ['fr_FR'] }, [], null]) {
      const body = expectError(await api.patch('/core/v2/media', { locale_fallbacks }), 400, 'validation_failed');
      expect(body.details!.every((d) => d.path.startsWith('locale_fallbacks')), JSON.stringify(body.details)).toBe(true);
    }
    expect((await client(ctx.app, own.keys.editor).patch('/core/v2/media', { locale_fallbacks: {} })).statusCode).toBe(403);
    // Another media's chains are its own.
    expect((await admin.get('/core/v2/media')).json().data.locale_fallbacks).toEqual({});

    // A language the media drops leaves its chains.
    const dropped = await api.patch('/core/v2/media', { locales: ['en', 'de'] });
    expect(dropped.json().data.locale_fallbacks).toEqual({ de: [] });
    expect((await api.get('/core/v2/media')).json().data.locale_fallbacks).toEqual({ de: [] });
  });
});

describe('Reader reads by the chain', () => {
  it('serve the asked language, else the first of its chain the record has, else the default, and say what was asked', async () => {
    const editor = client(ctx.app, media.keys.editor);
    const category = await createCategory(editor, {
      locales: [
        { locale: 'en', name: 'Politics' },
        { locale: 'de', name: 'Politik' },
      ],
    });
    const served = async (asked: string) => {
      const res = await reader.get(`/api/media/v1/categories/${category.id}?locale=${asked}`);
      expect(res.statusCode, res.body).toBe(200);
      return { name: res.json().data.name, locales: res.json().data.meta.locales };
    };

    // No chain yet: the media's default.
    expect(await served('fr-CH')).toEqual({ name: 'Politics', locales: { current: 'en', available: ['en', 'de'], requested: 'fr-CH' } });

    expect((await admin.patch('/core/v2/media', { locale_fallbacks: { 'fr-CH': ['fr', 'de'], fr: ['de'] } })).statusCode).toBe(200);
    expect(await served('fr-CH')).toEqual({ name: 'Politik', locales: { current: 'de', available: ['en', 'de'], requested: 'fr-CH' } });
    expect(await served('fr')).toEqual({ name: 'Politik', locales: { current: 'de', available: ['en', 'de'], requested: 'fr' } });
    expect(await served('en')).toEqual({ name: 'Politics', locales: { current: 'en', available: ['en', 'de'], requested: 'en' } });
    const unasked = await reader.get(`/api/media/v1/categories/${category.id}`);
    expect(unasked.json().data.meta.locales).toEqual({ current: 'en', available: ['en', 'de'], requested: null });

    // A list: each item by the same rule, and the list's meta.locales over the media's languages.
    const list = await reader.get('/api/media/v1/categories?locale=fr-CH');
    expect(list.statusCode).toBe(200);
    expect(list.json().data.find((c: { id: string }) => c.id === category.id)).toMatchObject({
      name: 'Politik',
      meta: { locales: { current: 'de', available: ['en', 'de'], requested: 'fr-CH' } },
    });
    expect(list.json().meta.locales).toEqual({ current: 'fr-CH', available: ['en', 'fr', 'de', 'fr-CH'], requested: 'fr-CH' });

    // Once the chain is gone, the default again.
    expect((await admin.patch('/core/v2/media', { locale_fallbacks: {} })).statusCode).toBe(200);
    expect((await served('fr-CH')).name).toBe('Politics');
  });
});
