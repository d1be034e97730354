import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp, statementsDuring } from '../../setup/app.js';
import { expectError } from '../../setup/expect.js';
import { type CategoryWire, type Client, type SeededMedia, client, createCategory, seedMedia } from '../../setup/factories.js';
import { type ContentWire, type DocsFixture, createBlock, createContent, createContentType, createTemplate, docsFixture, insertAssetImage } from '../../setup/docs.js';
import { clientToken, readerClient, registerClient } from '../../setup/reader.js';
import { createPerson } from '../../setup/community.js';

let ctx: TestContext;
let media: SeededMedia;
let api: Client;
let fx: DocsFixture;
let reader: ReturnType<typeof readerClient>;
let politics: CategoryWire;
let sport: CategoryWire;
let published: ContentWire;
let second: ContentWire;
let otherTemplate: string;

const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

beforeAll(async () => {
  ctx = await createTestApp({ publicBaseUrl: 'https://api.example.test' });
  media = await seedMedia(ctx.app, { locales: ['en', 'fr', 'de'] });
  api = client(ctx.app, media.keys.editor);
  fx = await docsFixture(api, media.workspaceId);
  otherTemplate = (await createTemplate(api, (await createContentType(api)).id)).id;
  const token = (await clientToken(ctx.app, await registerClient(ctx.app, media.keys.admin, ['media:read']))).access_token;
  reader = readerClient(ctx.app, media.mediaId, token);
  politics = await createCategory(api, { locales: [{ locale: 'en', name: 'Politics', description: 'State' }, { locale: 'fr', name: 'Politique' }] });
  sport = await createCategory(api, { locales: [{ locale: 'en', name: 'Sport' }] });
  const image = await insertAssetImage(ctx.database.db, media.mediaId, { gravity: 'north' });
  const author = (await createPerson(api, media.workspaceId)).id;
  published = await createContent(api, fx, {
    published_at: ago(10),
    canonical_url: 'https://news.example.test/a',
    is_advertising: true,
    content_categories: [{ category_id: politics.id }, { category_id: sport.id }],
    locales: [
      {
        locale: 'en',
        location: 'Paris',
        title_html: '<p>Hello <em>readers</em></p>',
        subtitle_html: 'Sub',
        lead_html: '<p>Lead</p>',
        seo: { title: 'SEO', description: 'Desc' },
        visual: { type: 'image', image: { asset_image_id: image.id } },
        authors: [{ profile_id: author }],
      },
      { locale: 'fr', title_html: 'Bonjour' },
    ],
  });
  await createBlock(api, published.id, { locale: 'en', kind: 'richtext', content_html: '<p>Body</p>' });
  await createBlock(api, published.id, { locale: 'en', kind: 'quote', content_html: 'Q', author: 'A' });
  await createBlock(api, published.id, { locale: 'fr', kind: 'richtext', content_html: '<p>Corps</p>' });
  second = await createContent(api, { ...fx, templateId: otherTemplate }, { published_at: ago(5), content_categories: [{ category_id: politics.id }] });
});
afterAll(() => ctx.close());

describe('GET /api/media/v1/contents', () => {
  it('serves published contents in one language with the spec fields, and each category and template once in assocs', async () => {
    const res = await reader.get('/api/media/v1/contents?limit=10&locale=en');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['assocs', 'data', 'meta']);
    expect(body.data.map((c: { id: string }) => c.id)).toEqual([second.id, published.id]);
    const item = body.data[1];
    expect(item).toEqual({
      id: published.id,
      template_id: fx.templateId,
      canonical_url: 'https://news.example.test/a',
      canonical_domain: 'news.example.test',
      show_publication_datetime: true,
      is_advertising: true,
      is_sponsored: false,
      category_ids: [politics.id, sport.id],
      published_at: published.published_at,
      released_at: null,
      released_at_timezone: null,
      updated_at: expect.any(String),
      locale: 'en',
      location: 'Paris',
      title_html: '<p>Hello <em>readers</em></p>',
      title_text: 'Hello readers',
      subtitle_html: 'Sub',
      subtitle_text: 'Sub',
      lead_html: '<p>Lead</p>',
      lead_text: 'Lead',
      seo: { title: 'SEO', description: 'Desc' },
      visual: {
        ...published.locales[0]!.visual,
        image: { ...published.locales[0]!.visual.image, url: expect.stringMatching(/\/assets\/.+\.jpg$/) },
      },
      author_ids: [published.locales[0]!.authors[0]!.profile_id],
      corrections: [],
      meta: { locales: { current: 'en', available: ['en', 'fr'], requested: 'en' } },
      access: { visibility: 'public' },
    });
    expect(body.meta).toEqual({
      base: 'https://api.example.test/api/media/v1/contents?limit=10&locale=en',
      next: null,
      previous: null,
      locales: { current: 'en', available: ['en', 'fr', 'de'], requested: 'en' },
    });
    expect(body.assocs.categories.map((c: { id: string }) => c.id).sort()).toEqual([politics.id, sport.id].sort());
    expect(body.assocs.categories.find((c: { id: string }) => c.id === politics.id)).toEqual({
      id: politics.id,
      name: 'Politics',
      description: 'State',
      svg_icon: null,
      meta: { locales: { current: 'en', available: ['en', 'fr'], requested: 'en' } },
      updated_at: politics.updated_at,
    });
    expect(body.assocs.templates.map((t: { id: string }) => t.id).sort()).toEqual([fx.templateId, otherTemplate].sort());
    expect(Object.keys(body.assocs.templates[0]).sort()).toEqual(['content_type_id', 'id', 'key', 'name', 'updated_at']);
  });

  it('falls back to the media default language, then to any the content has', async () => {
    const fr = (await reader.get('/api/media/v1/contents?locale=fr&limit=10')).json();
    expect(fr.data.find((c: { id: string }) => c.id === published.id)).toMatchObject({ locale: 'fr', title_text: 'Bonjour', lead_html: null });
    expect(fr.assocs.categories.find((c: { id: string }) => c.id === politics.id).name).toBe('Politique');
    const de = (await reader.get('/api/media/v1/contents?locale=de&limit=10')).json();
    expect(de.data.find((c: { id: string }) => c.id === published.id)).toMatchObject({ locale: 'en', meta: { locales: { current: 'en', available: ['en', 'fr'], requested: 'de' } } });
  });

  it('never shows a draft, an archived, a deleted, a scheduled or another media’s content', async () => {
    const draft = await createContent(api, fx, { status_id: fx.statuses.draft });
    const unpublished = await createContent(api, fx, { status_id: fx.statuses.unpublished });
    const archived = await createContent(api, fx, { is_archived: true });
    const deleted = await createContent(api, fx);
    await api.delete(`/docs/v2/contents/${deleted.id}`);
    const scheduled = await createContent(api, fx, { published_at: new Date(Date.now() + 3_600_000).toISOString() });
    const noDate = await createContent(api, fx, { published_at: null });
    const other = await seedMedia(ctx.app);
    const foreign = await createContent(client(ctx.app, other.keys.editor), await docsFixture(client(ctx.app, other.keys.editor), other.workspaceId));

    const listed = (await reader.get('/api/media/v1/contents?limit=100')).json().data.map((c: { id: string }) => c.id);
    for (const hidden of [draft, unpublished, archived, deleted, scheduled, noDate, foreign]) {
      expect(listed).not.toContain(hidden.id);
      expectError(await reader.get(`/api/media/v1/contents/${hidden.id}`), 404, 'content_not_found');
    }
    expect(listed).toEqual(expect.arrayContaining([published.id, second.id]));
  });

  it('shows a scheduled content at its published_at, with no job running', async () => {
    const at = Date.now() + 1_500;
    const scheduled = await createContent(api, fx, { published_at: new Date(at).toISOString() });
    expectError(await reader.get(`/api/media/v1/contents/${scheduled.id}`), 404, 'content_not_found');
    await new Promise((resolve) => setTimeout(resolve, at - Date.now() + 50));
    expect((await reader.get(`/api/media/v1/contents/${scheduled.id}`)).statusCode).toBe(200);
    expect((await reader.get('/api/media/v1/contents?limit=1')).json().data[0].id).toBe(scheduled.id);
  });

  it('filters by category_ids[] and template_ids[] (any of), and pages by cursor keeping them', async () => {
    const ids = async (query: string) => (await reader.get(`/api/media/v1/contents?limit=100&${query}`)).json().data.map((c: { id: string }) => c.id);
    expect(await ids(`category_ids[]=${sport.id}`)).toEqual([published.id]);
    expect((await ids(`category_ids[]=${sport.id}&category_ids[]=${politics.id}`)).filter((id: string) => [published.id, second.id].includes(id))).toEqual([
      second.id,
      published.id,
    ]);
    expect(await ids(`template_ids[]=${otherTemplate}`)).toEqual([second.id]);
    expect(await ids(`template_ids[]=${otherTemplate}&category_ids[]=${sport.id}`)).toEqual([]);
    expect(await ids(`category_ids[]=${randomUUID()}`)).toEqual([]);

    const page1 = (await reader.get(`/api/media/v1/contents?limit=1&category_ids[]=${politics.id}`)).json();
    expect(page1.data.map((c: { id: string }) => c.id)).toEqual([second.id]);
    expect(page1.meta.next).toContain(`category_ids%5B%5D=${politics.id}`);
    const page2 = (await reader.get(page1.meta.next.replace('https://api.example.test', ''))).json();
    expect(page2.data.map((c: { id: string }) => c.id)).toEqual([published.id]);
    expect(page2.meta.next).toBeNull();
    // The cursor is bound to its filter.
    const after = new URL(page1.meta.next).searchParams.get('after');
    expectError(await reader.get(`/api/media/v1/contents?limit=1&after=${after}`), 400, 'invalid_cursor');

    expectError(await reader.get('/api/media/v1/contents?category_ids[]=nope'), 400, 'validation_failed');
    expectError(await reader.get('/api/media/v1/contents?limit=101'), 400, 'validation_failed');
  });

  it('answers 401 without a token and 403 without media:read', async () => {
    expectError(await readerClient(ctx.app, media.mediaId).get('/api/media/v1/contents'), 401);
    const token = (await clientToken(ctx.app, await registerClient(ctx.app, media.keys.admin, ['account:read']))).access_token;
    expectError(await readerClient(ctx.app, media.mediaId, token).get('/api/media/v1/contents'), 403, 'insufficient_scope');
  });
});

describe('GET /api/media/v1/contents/{id}', () => {
  it("serves the content in the asked language with that language's blocks, in order", async () => {
    const en = (await reader.get(`/api/media/v1/contents/${published.id}?locale=en`)).json().data;
    expect(en).toMatchObject({ id: published.id, locale: 'en', title_text: 'Hello readers', meta: { locales: { current: 'en', available: ['en', 'fr'], requested: 'en' } } });
    expect(en.blocks).toEqual([
      { id: expect.any(String), kind: 'richtext', position: 0, content_html: '<p>Body</p>', content_text: 'Body' },
      { id: expect.any(String), kind: 'quote', position: 1, content_html: 'Q', content_text: 'Q', author: 'A' },
    ]);
    const fr = (await reader.get(`/api/media/v1/contents/${published.id}?locale=fr`)).json().data;
    expect(fr).toMatchObject({ locale: 'fr', title_text: 'Bonjour', blocks: [{ kind: 'richtext', content_text: 'Corps' }] });
    expectError(await reader.get(`/api/media/v1/contents/${randomUUID()}`), 404, 'content_not_found');
    expectError(await reader.get('/api/media/v1/contents/nope'), 400);
  });

  it('names as authors and in a profiles block only the people readers may see, in every read', async () => {
    const shown = (await createPerson(api, media.workspaceId)).id;
    const drafted = (await createPerson(api, media.workspaceId)).id;
    const removed = (await createPerson(api, media.workspaceId)).id;
    const content = await createContent(api, fx, {
      published_at: ago(1),
      locales: [{ locale: 'en', title_html: 'By three', authors: [{ profile_id: drafted }, { profile_id: shown }, { profile_id: removed }] }],
    });
    await createBlock(api, content.id, { locale: 'en', kind: 'profiles', profile_ids: [removed, shown, drafted] });
    expect((await api.patch(`/community/v2/people/${drafted}`, { profile: { status_id: fx.statuses.draft } })).statusCode).toBe(200);
    expect((await api.delete(`/community/v2/people/${removed}`)).statusCode).toBe(204);

    const one = (await reader.get(`/api/media/v1/contents/${content.id}?locale=en`)).json().data;
    expect(one.author_ids).toEqual([shown]);
    expect(one.blocks).toEqual([{ id: expect.any(String), kind: 'profiles', position: 0, profile_ids: [shown] }]);
    const listed = (await reader.get('/api/media/v1/contents?limit=50&locale=en')).json().data.find((c: { id: string }) => c.id === content.id);
    expect(listed.author_ids).toEqual([shown]);
    const found = (await reader.get('/api/media/v1/contents/search?q=three&locale=en')).json().data.find((c: { id: string }) => c.id === content.id);
    expect(found.author_ids).toEqual([shown]);
    // The Backoffice keeps what was written.
    const stored = (await api.get(`/docs/v2/contents/${content.id}`)).json().data;
    expect(stored.locales[0].authors.map((a: { profile_id: string }) => a.profile_id)).toEqual([drafted, shown, removed]);
  });

  it('names in a related_contents block only the contents readers may see, in the block order', async () => {
    const draft = await createContent(api, fx, { status_id: fx.statuses.draft });
    const scheduled = await createContent(api, fx, { published_at: new Date(Date.now() + 3_600_000).toISOString() });
    const gone = await createContent(api, fx, { published_at: ago(20) });
    const host = await createContent(api, fx, { published_at: ago(3) });
    const block = await createBlock(api, host.id, { locale: 'en', kind: 'related_contents', content_ids: [second.id, draft.id, scheduled.id, gone.id, published.id] });
    expect((await api.delete(`/docs/v2/contents/${gone.id}`)).statusCode).toBe(204);
    const served = (await reader.get(`/api/media/v1/contents/${host.id}`)).json().data;
    expect(served.blocks).toEqual([{ id: block.id, kind: 'related_contents', position: 0, content_ids: [second.id, published.id] }]);
    // The Backoffice keeps the block as written.
    const stored = (await api.get(`/docs/v2/contents/${host.id}/blocks`)).json().data;
    expect(stored.map((b: { content_ids?: string[] }) => b.content_ids)).toEqual([[second.id, draft.id, scheduled.id, gone.id, published.id]]);
  });
});

/** How many statements the driver runs during `work`. */
const countStatements = async (work: () => Promise<unknown>): Promise<number> => (await statementsDuring(ctx.database, work)).length;

describe('the cost of a Reader page', () => {
  it('is a fixed number of SQL statements whatever the page size: one page, one per assoc kind', async () => {
    const fresh = await seedMedia(ctx.app);
    const own = client(ctx.app, fresh.keys.editor);
    const f = await docsFixture(own, fresh.workspaceId);
    const cats = [await createCategory(own), await createCategory(own), await createCategory(own)];
    for (let i = 0; i < 12; i++) {
      await createContent(own, f, { published_at: ago(30 - i), content_categories: [{ category_id: cats[i % 3]!.id }] });
    }
    const token = (await clientToken(ctx.app, await registerClient(ctx.app, fresh.keys.admin, ['media:read']))).access_token;
    const r = readerClient(ctx.app, fresh.mediaId, token);
    await r.get('/api/media/v1/contents?limit=2'); // warms the media and token caches
    const counts: number[] = [];
    for (const limit of [1, 5, 12]) {
      counts.push(
        await countStatements(async () => {
          const body = (await r.get(`/api/media/v1/contents?limit=${limit}`)).json();
          expect(body.data).toHaveLength(limit);
        }),
      );
    }
    expect(counts[0]).toBe(3);
    expect(new Set(counts).size).toBe(1);
  });
});
