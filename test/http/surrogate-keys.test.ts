import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { surrogateKeys as surrogateHeader } from '../../src/shared/http/surrogate.js';
import { type TestContext, createTestApp } from '../setup/app.js';
import { type ContentWire, type DocsFixture, createContent, docsFixture } from '../setup/docs.js';
import { type Client, type SeededMedia, client, createCategory, seedMedia } from '../setup/factories.js';
import { type ReaderOf, readerOf } from '../setup/public.js';

/** The keys of the header value surrogateKeys builds, in order; none for an empty value. */
const surrogateKeys = (kind: string, body: unknown): string[] => {
  const value = surrogateHeader(kind, body);
  expect(value).not.toMatch(/^ | $| {2}/);
  return value === '' ? [] : value.split(' ');
};

let ctx: TestContext;
let media: SeededMedia;
let api: Client;
let fx: DocsFixture;
let reader: ReaderOf;
let categoryId: string;
let first: ContentWire;
let second: ContentWire;

const keysOf = (header: unknown) => String(header ?? '').split(' ').filter(Boolean);

beforeAll(async () => {
  ctx = await createTestApp();
  media = await seedMedia(ctx.app);
  api = client(ctx.app, media.keys.editor);
  fx = await docsFixture(api, media.workspaceId);
  reader = await readerOf(ctx.app, media.keys.admin, media.mediaId);
  categoryId = (await createCategory(api)).id;
  first = await createContent(api, fx, { content_categories: [{ category_id: categoryId }] });
  second = await createContent(api, fx);
});
afterAll(() => ctx.close());

describe('the kind of the records a route serves, as it declares it', () => {
  it.each([
    ['/api/media/v1/contents', 'content'],
    ['/api/media/v1/contents/search', 'content'],
    ['/api/media/v1/contents/:id', 'content'],
    ['/api/media/v1/contents/:id/questions/:block_id/results', 'question'],
    ['/api/media/v1/community/people/search', 'person'],
    ['/api/media/v1/issues/:id/sections/:section_id/contents', 'content'],
    ['/api/media/v1/categories/:id', 'category'],
    ['/api/media/v1/media', 'media'],
    ['/api/media/v1/blocks/:id', 'media_block'],
    ['/api/media/v1/newsletter/mailing-lists', 'mailing_list'],
    ['/api/media/v1/ads/random', 'ad'],
    ['/api/public/core/v2/medias/:media_id', 'media'],
    ['/api/public/core/v2/medias/:media_id/feeds', 'rss_feed'],
    ['/api/public/docs/v2/medias/:media_id/contents', 'content'],
    ['/api/public/publisher/v2/medias/:media_id/menus/:key', 'menu'],
    ['/api/public/community/v2/organizations/:id/announcements', 'announcement'],
  ])('%s → %s', (path, kind) => {
    expect(ctx.app.routeTable.find((e) => e.method === 'GET' && e.url === path)?.surrogateKind).toBe(kind);
  });

  it('names a list, its items and its assocs; a record alone by its id', () => {
    expect(
      surrogateKeys('content', { data: [{ id: 'a' }, { id: 'b' }], assocs: { categories: [{ id: 'c' }], templates: [{ id: 't' }, { id: 't' }] } }),
    ).toEqual(['content', 'content:a', 'content:b', 'category:c', 'template:t']);
    expect(surrogateKeys('menu', { data: { id: 'm', key: 'main' } })).toEqual(['menu:m']);
    expect(surrogateKeys('content', { error: 'not found', code: 'content_not_found' })).toEqual([]);
  });

  it('names a record once across the list and its assocs, and one id of two kinds twice', () => {
    const body = { data: [{ id: 'a' }, { id: 'b' }], assocs: { contents: [{ id: 'b' }, { id: 'c' }], categories: [{ id: 'a' }] } };
    expect(surrogateKeys('content', body)).toEqual(['content', 'content:a', 'content:b', 'content:c', 'category:a']);
  });

  it('stops at 400 keys, the collection key first', () => {
    const data = Array.from({ length: 450 }, (_, i) => ({ id: `id-${i}` }));
    const keys = surrogateKeys('content', { data });
    expect(keys).toHaveLength(400);
    expect(keys.slice(0, 2)).toEqual(['content', 'content:id-0']);
    expect(keys.at(-1)).toBe('content:id-398');
  });
});

describe('Surrogate-Key on Reader and Public answers', () => {
  it('a Reader list names its collection, each content and the categories and templates of its assocs', async () => {
    const res = await reader.get('/api/media/v1/contents');
    expect(res.statusCode).toBe(200);
    const keys = keysOf(res.headers['surrogate-key']);
    expect(keys).toEqual(
      expect.arrayContaining(['content', `content:${first.id}`, `content:${second.id}`, `category:${categoryId}`, `template:${fx.templateId}`]),
    );
    expect(keys).toHaveLength(new Set(keys).size);
  });

  it('a record names itself; the Public twin answers the same keys; errors and the Backoffice name none', async () => {
    const res = await reader.get(`/api/media/v1/contents/${first.id}`);
    expect(keysOf(res.headers['surrogate-key'])).toEqual([`content:${first.id}`]);
    const pub = await ctx.app.inject({ method: 'GET', url: `/api/public/docs/v2/contents/${first.id}` });
    expect(keysOf(pub.headers['surrogate-key'])).toEqual([`content:${first.id}`]);
    const missing = await reader.get('/api/media/v1/contents/00000000-0000-7000-8000-000000000000');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['surrogate-key']).toBeUndefined();
    expect((await api.get(`/docs/v2/contents/${first.id}`)).headers['surrogate-key']).toBeUndefined();
  });

  it('documents the header on Reader and Public reads in OpenAPI', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(doc.paths['/api/media/v1/contents'].get.responses['200'].headers).toHaveProperty('Surrogate-Key');
    expect(doc.paths['/api/public/docs/v2/contents/{id}'].get.responses['200'].headers).toHaveProperty('Surrogate-Key');
  });
});
