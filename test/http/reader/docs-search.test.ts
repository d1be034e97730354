import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { expectError } from '../../setup/expect.js';
import { type Client, type SeededMedia, client, createCategory, seedMedia } from '../../setup/factories.js';
import { type ContentWire, type DocsFixture, createBlock, createContent, docsFixture } from '../../setup/docs.js';
import { clientToken, readerClient, registerClient } from '../../setup/reader.js';

let ctx: TestContext;
let media: SeededMedia;
let api: Client;
let fx: DocsFixture;
let reader: ReturnType<typeof readerClient>;
const made: Record<string, ContentWire> = {};

const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
const article = async (name: string, locales: Array<Record<string, unknown>>, body: Record<string, unknown> = {}, blocks: Record<string, string> = {}) => {
  made[name] = await createContent(api, fx, { published_at: ago(60 - Object.keys(made).length), locales, ...body });
  for (const [locale, html] of Object.entries(blocks)) await createBlock(api, made[name]!.id, { locale, kind: 'richtext', content_html: html });
  return made[name]!;
};

beforeAll(async () => {
  ctx = await createTestApp();
  media = await seedMedia(ctx.app, { locales: ['en', 'fr', 'de'] });
  api = client(ctx.app, media.keys.editor);
  fx = await docsFixture(api, media.workspaceId);
  const token = (await clientToken(ctx.app, await registerClient(ctx.app, media.keys.admin, ['media:read']))).access_token;
  reader = readerClient(ctx.app, media.mediaId, token);

  await article('body', [{ locale: 'en', title_html: 'Weather report' }], {}, { en: '<p>Nothing about the economy here, only rain.</p>' });
  await article('title', [{ locale: 'en', title_html: 'The economy grows again' }]);
  await article('lead', [{ locale: 'en', title_html: 'Markets', lead_html: '<p>What the economy means for you</p>' }]);
  await article('english', [{ locale: 'en', title_html: 'She runs every morning' }]);
  await article('french', [{ locale: 'fr', title_html: 'Les élections présidentielles approchent' }]);
  await article('german', [{ locale: 'de', title_html: 'Die Häuser der Altstadt' }]);
  await article('percent', [{ locale: 'en', title_html: 'Prices up 100% in a year' }]);
  await article('draft', [{ locale: 'en', title_html: 'Economy draft' }], { status_id: fx.statuses.draft });
  await article('scheduled', [{ locale: 'en', title_html: 'Economy tomorrow' }], { published_at: new Date(Date.now() + 3_600_000).toISOString() });
  await article('archived', [{ locale: 'en', title_html: 'Economy archive' }], { is_archived: true });
  const deleted = await article('deleted', [{ locale: 'en', title_html: 'Economy deleted' }]);
  await api.delete(`/docs/v2/contents/${deleted.id}`);
});
afterAll(() => ctx.close());

const search = async (q: string, extra = '') => {
  const res = await reader.get(`/api/media/v1/contents/search?q=${encodeURIComponent(q)}&limit=100${extra}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: Array<{ id: string; title_text: string }>; assocs: Record<string, unknown[]>; meta: { next: string | null } };
};
const names = (body: { data: Array<{ id: string }> }) =>
  body.data.map((c) => Object.entries(made).find(([, m]) => m.id === c.id)?.[0] ?? c.id);

describe('GET /api/media/v1/contents/search', () => {
  it('ranks a title match above a standfirst match above a body match', async () => {
    const body = await search('economy');
    expect(names(body)).toEqual(['title', 'lead', 'body']);
    expect(Object.keys(body).sort()).toEqual(['assocs', 'data', 'meta']);
    expect(Object.keys(body.assocs).sort()).toEqual(['categories', 'templates']);
  });

  it('stems words in English, French and German', async () => {
    expect(names(await search('running'))).toEqual(['english']);
    expect(names(await search('élection'))).toEqual(['french']);
    expect(names(await search('Haus'))).toEqual(['german']);
    // The served language follows the locale rule, whatever language matched.
    expect((await search('élection')).data[0]).toMatchObject({ title_text: 'Les élections présidentielles approchent' });
  });

  it('tolerates a typo in a title word', async () => {
    expect(names(await search('econmy'))[0]).toBe('title');
    expect(names(await search('Altstdt'))).toEqual(['german']);
  });

  it('never finds an unpublished, scheduled, archived or deleted content', async () => {
    const found = names(await search('economy'));
    for (const hidden of ['draft', 'scheduled', 'archived', 'deleted']) expect(found).not.toContain(hidden);
  });

  it('takes %, _, quotes and SQL-looking text as plain words, 200 characters and not 201', async () => {
    expect(names(await search('100%'))).toEqual(['percent']);
    for (const q of ['_', '%', "'", '"', '"the economy grows"', "it's", "x' or '1'='1", '\\', '-economy', 'a or b', '<script>']) await search(q);
    expect(names(await search('"economy grows"'))).toEqual(['title']);
    await search('e'.repeat(200));
    expectError(await reader.get(`/api/media/v1/contents/search?q=${'e'.repeat(201)}`), 400, 'validation_failed');
    expectError(await reader.get('/api/media/v1/contents/search?q='), 400, 'validation_failed');
    expectError(await reader.get('/api/media/v1/contents/search?q=%20%20'), 400, 'validation_failed');
    expectError(await reader.get('/api/media/v1/contents/search'), 400, 'validation_failed');
  });

  it('pages by cursor over the rank, each result once, in the order of one long page', async () => {
    const all = names(await search('economy'));
    const walked: string[] = [];
    let next: string | null = `/api/media/v1/contents/search?q=economy&limit=1`;
    while (next) {
      const page: { data: Array<{ id: string }>; meta: { next: string | null } } = (await reader.get(next.replace(/^https?:\/\/[^/]+/, ''))).json();
      walked.push(...names(page));
      next = page.meta.next;
    }
    expect(walked).toEqual(all);
    // A cursor serves its own search only.
    const first = (await reader.get('/api/media/v1/contents/search?q=economy&limit=1')).json();
    const after = new URL(first.meta.next).searchParams.get('after');
    expectError(await reader.get(`/api/media/v1/contents/search?q=rain&limit=1&after=${after}`), 400, 'invalid_cursor');
  });

  it('filters by category_ids[] and template_ids[] like the list', async () => {
    const category = await createCategory(api);
    await api.patch(`/docs/v2/contents/${made.body!.id}`, { content_categories: [{ category_id: category.id }] });
    expect(names(await search('economy', `&category_ids[]=${category.id}`))).toEqual(['body']);
    const withCategory = await search('economy', `&category_ids[]=${category.id}`);
    expect((withCategory.assocs.categories as Array<{ id: string }>).map((c) => c.id)).toEqual([category.id]);
    expect(names(await search('economy', `&template_ids[]=${fx.templateId}`))).toEqual(['title', 'lead', 'body']);
    expect((await search('economy', `&template_ids[]=${media.workspaceId}`)).data).toEqual([]);
  });

  it("does not find another media's contents", async () => {
    const other = await seedMedia(ctx.app);
    const otherApi = client(ctx.app, other.keys.editor);
    await createContent(otherApi, await docsFixture(otherApi, other.workspaceId), { locales: [{ locale: 'en', title_html: 'Economy elsewhere' }] });
    expect(names(await search('economy'))).toEqual(['title', 'lead', 'body']);
  });
});
