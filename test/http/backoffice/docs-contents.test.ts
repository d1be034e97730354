import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contents } from '../../../src/modules/docs/contents/contents.table.js';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { ISO_MS, UUID, expectError } from '../../setup/expect.js';
import { type Client, type SeededMedia, client, createCategory, seedMedia } from '../../setup/factories.js';
import {
  type ContentWire,
  type DocsFixture,
  createBlock,
  createContent,
  createContentType,
  createTemplate,
  docsFixture,
  insertAssetImage,
  short,
} from '../../setup/docs.js';
import { backdate } from '../../setup/rows.js';
import { createPerson } from '../../setup/community.js';
import { clientToken, readerClient, registerClient } from '../../setup/reader.js';

let ctx: TestContext;
let media: SeededMedia;
let api: Client;
let viewer: Client;
let fx: DocsFixture;
let other: SeededMedia;
let otherApi: Client;

beforeAll(async () => {
  ctx = await createTestApp({ publicBaseUrl: 'https://cdn.example.test' });
  media = await seedMedia(ctx.app);
  api = client(ctx.app, media.keys.editor);
  viewer = client(ctx.app, media.keys.viewer);
  fx = await docsFixture(api, media.workspaceId);
  other = await seedMedia(ctx.app);
  otherApi = client(ctx.app, other.keys.editor);
});
afterAll(() => ctx.close());

const CONTENT_KEYS = [
  'canonical_domain', 'canonical_url', 'content_categories', 'deleted_at', 'id', 'inserted_at', 'is_advertising', 'is_archived',
  'is_sponsored', 'locales', 'published_at', 'released_at', 'released_at_timezone', 'show_publication_datetime', 'status_id',
  'template_id', 'updated_at', 'workspace_id', 'visibility', 'product_keys',
].sort();
const LOCALE_KEYS = [
  'authors', 'deleted_at', 'id', 'lead_html', 'lead_text', 'locale', 'location', 'seo', 'subtitle_html', 'subtitle_text', 'title_html',
  'title_text', 'visual',
].sort();

describe('POST /docs/v2/contents', () => {
  it('creates a content as spec 2.7 shows it: locales with seo, visual and authors; content_categories', async () => {
    const category = await createCategory(api);
    const image = await insertAssetImage(ctx.database.db, media.mediaId, {
      gravity: 'north',
      locales: [
        { locale: 'en', credit: 'Photo: Ada', captionHtml: '<p>The <b>harbour</b></p>', captionText: 'The harbour' },
        { locale: 'fr', credit: 'Photo : Ada', captionHtml: '<p>Le port</p>', captionText: 'Le port' },
      ],
    });
    const author = (await createPerson(api, media.workspaceId)).id;
    const res = await api.post('/docs/v2/contents', {
      template_id: fx.templateId,
      workspace_id: fx.workspaceId,
      status_id: fx.statuses.published,
      canonical_url: 'https://news.example.test/2026/harbour',
      is_sponsored: true,
      show_publication_datetime: false,
      published_at: '2026-01-02T03:04:05.678+01:00',
      released_at: '2026-01-02T09:00:00Z',
      released_at_timezone: 'Europe/Paris',
      content_categories: [{ category_id: category.id }],
      locales: [
        {
          locale: 'en',
          location: 'Marseille',
          title_html: '<h1>The <em>harbour</em></h1>',
          subtitle_html: '<p>Sub</p>',
          lead_html: '<p>Lead &amp; more</p>',
          seo: { title: 'Harbour', description: 'All about the harbour' },
          visual: { type: 'image', image: { asset_image_id: image.id } },
          authors: [{ profile_id: author }],
        },
        { locale: 'fr', title_html: 'Le port', visual: { type: 'image', image: { asset_image_id: image.id } } },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data as ContentWire;
    expect(Object.keys(data).sort()).toEqual(CONTENT_KEYS);
    expect(data.id).toMatch(UUID);
    expect(data).toMatchObject({
      template_id: fx.templateId,
      workspace_id: fx.workspaceId,
      status_id: fx.statuses.published,
      canonical_url: 'https://news.example.test/2026/harbour',
      canonical_domain: 'news.example.test',
      is_archived: false,
      show_publication_datetime: false,
      is_advertising: false,
      is_sponsored: true,
      published_at: '2026-01-02T02:04:05.678Z',
      released_at: '2026-01-02T09:00:00.000Z',
      released_at_timezone: 'Europe/Paris',
      deleted_at: null,
    });
    expect(data.inserted_at).toMatch(ISO_MS);
    expect(data.updated_at).toMatch(ISO_MS);
    expect(data.content_categories).toEqual([{ id: expect.stringMatching(UUID), category_id: category.id }]);

    const [en, fr] = data.locales;
    expect(Object.keys(en!).sort()).toEqual(LOCALE_KEYS);
    expect(en).toMatchObject({
      locale: 'en',
      location: 'Marseille',
      title_html: '<h1>The <em>harbour</em></h1>',
      title_text: 'The harbour',
      subtitle_html: '<p>Sub</p>',
      subtitle_text: 'Sub',
      lead_html: '<p>Lead &amp; more</p>',
      lead_text: 'Lead & more',
      seo: { title: 'Harbour', description: 'All about the harbour' },
      authors: [{ id: expect.stringMatching(UUID), profile_id: author }],
      deleted_at: null,
    });
    const served = (credit: string, caption: string, text: string) => ({
      id: image.id,
      asset_image_id: image.id,
      file_key: image.fileKey,
      url: `https://cdn.example.test/assets/${image.fileKey}`,
      credit,
      caption_html: caption,
      caption_text: text,
      gravity: 'north',
    });
    expect(en!.visual).toEqual({
      id: expect.stringMatching(UUID),
      type: 'image',
      image: served('Photo: Ada', '<p>The <b>harbour</b></p>', 'The harbour'),
      video: null,
      slideshow: null,
    });
    // The image's credit and caption follow the entry's language.
    expect(fr!.visual.image).toEqual(served('Photo : Ada', '<p>Le port</p>', 'Le port'));
    expect(fr).toMatchObject({ subtitle_html: null, subtitle_text: null, lead_html: null, seo: { title: null, description: null }, authors: [] });

    expect((await viewer.get(`/docs/v2/contents/${data.id}`)).json().data).toEqual(data);
  });

  it('serves the visual as none by default, and a video or a slideshow as sent', async () => {
    const a = await insertAssetImage(ctx.database.db, media.mediaId);
    const b = await insertAssetImage(ctx.database.db, media.mediaId, { locales: [] });
    const plain = await createContent(api, fx);
    expect(plain.locales[0]!.visual).toEqual({ id: expect.stringMatching(UUID), type: 'none', image: null, video: null, slideshow: null });

    const video = await createContent(api, fx, {
      locales: [
        {
          locale: 'en',
          title_html: 'Video',
          visual: { type: 'video', video: { url: 'https://video.example.test/v/1', provider: 'vimeo', caption_html: '<p>Watch</p>', is_monetized: true } },
        },
      ],
    });
    expect(video.locales[0]!.visual).toMatchObject({
      type: 'video',
      image: null,
      slideshow: null,
      video: {
        id: expect.stringMatching(UUID),
        video_id: null,
        url: 'https://video.example.test/v/1',
        provider: 'vimeo',
        credit: null,
        caption_html: '<p>Watch</p>',
        caption_text: 'Watch',
        is_monetized: true,
        is_tracking_enabled: false,
      },
    });

    const slides = await createContent(api, fx, {
      locales: [{ locale: 'en', title_html: 'Slides', visual: { type: 'slideshow', slideshow: { images: [{ asset_image_id: b.id }, { asset_image_id: a.id }] } } }],
    });
    const visual = slides.locales[0]!.visual;
    expect(visual.slideshow!.id).toBe(visual.id);
    expect(visual.slideshow!.images.map((i) => [i.id, i.credit])).toEqual([
      [b.id, null],
      [a.id, 'Photo: Ada'],
    ]);

    // The type and its object go together.
    expectError(
      await api.post('/docs/v2/contents', {
        template_id: fx.templateId,
        workspace_id: fx.workspaceId,
        status_id: fx.statuses.draft,
        locales: [{ locale: 'en', title_html: 'X', visual: { type: 'image' } }],
      }),
      400,
      'validation_failed',
    );
  });

  it('refuses records of another media or none: template, category and image 404, workspace 404, status 400', async () => {
    const base = { template_id: fx.templateId, workspace_id: fx.workspaceId, status_id: fx.statuses.draft, locales: [{ locale: 'en', title_html: 'X' }] };
    const foreignFx = await docsFixture(otherApi, other.workspaceId);
    const foreignCategory = await createCategory(otherApi);
    const foreignImage = await insertAssetImage(ctx.database.db, other.mediaId);

    const template = await api.post('/docs/v2/contents', { ...base, template_id: foreignFx.templateId });
    expectError(template, 404, 'template_not_found');
    expect(template.json().details).toEqual([{ path: 'template_id', message: 'is not a template of this media' }]);
    const category = await api.post('/docs/v2/contents', { ...base, content_categories: [{ category_id: randomUUID() }, { category_id: foreignCategory.id }] });
    expectError(category, 404, 'category_not_found');
    expect(category.json().details.map((d: { path: string }) => d.path)).toEqual(['content_categories.0.category_id', 'content_categories.1.category_id']);
    const image = await api.post('/docs/v2/contents', {
      ...base,
      locales: [{ locale: 'en', title_html: 'X', visual: { type: 'image', image: { asset_image_id: foreignImage.id } } }],
    });
    expectError(image, 404, 'asset_image_not_found');
    expect(image.json().details).toEqual([{ path: 'locales.0.visual.image.asset_image_id', message: 'is not an asset image of this media' }]);
    expectError(await api.post('/docs/v2/contents', { ...base, workspace_id: other.workspaceId }), 404, 'workspace_not_found');
    expectError(await api.post('/docs/v2/contents', { ...base, status_id: foreignFx.statuses.published }), 400, 'invalid_status');
    expectError(await api.post('/docs/v2/contents', { ...base, locales: [{ locale: 'de', title_html: 'X' }] }), 400, 'unsupported_locale');
    expect((await api.get(`/docs/v2/contents?template_id=${fx.templateId}&limit=100`)).json().data.every((c: ContentWire) => c.locales[0]!.title_text !== 'X')).toBe(true);
  });

  it('takes a real IANA time zone only, and refuses unknown and server-owned fields', async () => {
    const base = { template_id: fx.templateId, workspace_id: fx.workspaceId, status_id: fx.statuses.draft, locales: [{ locale: 'en', title_html: 'X' }] };
    for (const zone of ['Mars/Olympus_Mons', '+01:00', 'Europe/Pariss', '']) {
      const res = await api.post('/docs/v2/contents', { ...base, released_at_timezone: zone });
      expectError(res, 400, 'validation_failed');
      expect(res.json().details[0].path).toBe('released_at_timezone');
    }
    for (const zone of ['America/Argentina/Buenos_Aires', 'UTC', 'Asia/Kolkata']) {
      expect((await api.post('/docs/v2/contents', { ...base, released_at_timezone: zone })).statusCode, zone).toBe(201);
    }
    for (const field of ['id', 'inserted_at', 'updated_at', 'deleted_at', 'canonical_domain', 'media_id', 'locales_count']) {
      expectError(await api.post('/docs/v2/contents', { ...base, [field]: 'x' }), 400, 'validation_failed');
    }
    expectError(await api.post('/docs/v2/contents', { ...base, locales: [{ locale: 'en', title_html: 'X', title_text: 'forged' }] }), 400, 'validation_failed');
    expectError(await api.post('/docs/v2/contents', { ...base, canonical_url: 'javascript:alert(1)' }), 400, 'validation_failed');
    expectError(await viewer.post('/docs/v2/contents', base), 403, 'forbidden');
  });
});

describe('PATCH /docs/v2/contents/{id}', () => {
  it('updates fields, replaces locales and categories as complete sets, and moves updated_at', async () => {
    const [c1, c2] = [await createCategory(api), await createCategory(api)];
    const content = await createContent(api, fx, {
      content_categories: [{ category_id: c1.id }],
      locales: [
        { locale: 'en', title_html: 'English', authors: [{ profile_id: (await createPerson(api, media.workspaceId)).id }] },
        { locale: 'fr', title_html: 'Français' },
      ],
    });
    await backdate(ctx.database.db, contents, content.id);
    const authorA = (await createPerson(api, media.workspaceId)).id;
    const res = await api.patch(`/docs/v2/contents/${content.id}`, {
      is_archived: true,
      canonical_url: 'https://other.example.test/x',
      status_id: fx.statuses.draft,
      content_categories: [{ category_id: c2.id }, { category_id: c1.id }],
      locales: [{ locale: 'en', title_html: 'English, edited', authors: [{ profile_id: authorA }] }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data as ContentWire;
    expect(data).toMatchObject({ is_archived: true, canonical_domain: 'other.example.test', status_id: fx.statuses.draft });
    expect(data.updated_at > '2020-01-01T00:00:00.000Z').toBe(true);
    expect(data.content_categories.map((c) => c.category_id)).toEqual([c2.id, c1.id]);
    expect(data.locales.map((l) => [l.locale, l.title_text, l.authors.map((a) => a.profile_id)])).toEqual([['en', 'English, edited', [authorA]]]);
    // The entry kept its id and its visual's id.
    expect(data.locales[0]!.id).toBe(content.locales[0]!.id);
    expect(data.locales[0]!.visual.id).toBe(content.locales[0]!.visual.id);
  });

  it('refuses the workspace (a transfer moves it), the template (a switch changes it) and a foreign status', async () => {
    const content = await createContent(api, fx);
    expectError(await api.patch(`/docs/v2/contents/${content.id}`, { workspace_id: media.workspaceId }), 400, 'validation_failed');
    expectError(await api.patch(`/docs/v2/contents/${content.id}`, { template_id: fx.templateId }), 400, 'validation_failed');
    const foreign = await docsFixture(otherApi, other.workspaceId);
    expectError(await api.patch(`/docs/v2/contents/${content.id}`, { status_id: foreign.statuses.draft }), 400, 'invalid_status');
    expectError(await api.patch(`/docs/v2/contents/${randomUUID()}`, { is_archived: true }), 404, 'content_not_found');
  });
});

describe('GET /docs/v2/contents', () => {
  it('filters by workspace, status, template, category, locale, archive flag and update time, and sorts by three timestamps', async () => {
    const fresh = await seedMedia(ctx.app);
    const own = client(ctx.app, fresh.keys.editor);
    const f = await docsFixture(own, fresh.workspaceId);
    const f2 = { ...f, templateId: (await createTemplate(own, (await createContentType(own)).id)).id };
    const category = await createCategory(own);
    const ws2 = (await own.post('/core/v2/workspaces', { key: `ws-${short()}`, name: 'Second' })).json().data.id as string;
    const a = await createContent(own, f, { published_at: '2026-03-01T00:00:00.000Z', content_categories: [{ category_id: category.id }] });
    const b = await createContent(own, f2, { status_id: f.statuses.draft, published_at: null, locales: [{ locale: 'fr', title_html: 'B' }] });
    const c = await createContent(own, { ...f, workspaceId: ws2 }, { published_at: '2026-01-01T00:00:00.000Z', is_archived: true });
    const ids = async (query: string) => (await own.get(`/docs/v2/contents?${query}`)).json().data.map((x: ContentWire) => x.id);

    expect(await ids('')).toEqual([c.id, b.id, a.id]);
    expect(await ids(`workspace_id=${ws2}`)).toEqual([c.id]);
    expect(await ids(`status_id=${f.statuses.draft}`)).toEqual([b.id]);
    expect(await ids(`template_id=${f2.templateId}`)).toEqual([b.id]);
    expect(await ids(`category_id=${category.id}`)).toEqual([a.id]);
    expect(await ids('locale=fr')).toEqual([b.id]);
    expect(await ids('is_archived=true')).toEqual([c.id]);
    expect(await ids('is_archived=false')).toEqual([b.id, a.id]);
    expect(await ids('sort=published_at')).toEqual([a.id, c.id, b.id]);

    await own.patch(`/docs/v2/contents/${a.id}`, { is_sponsored: true });
    expect(await ids('sort=updated_at')).toEqual([a.id, c.id, b.id]);
    const since = (await own.get(`/docs/v2/contents/${a.id}`)).json().data.updated_at;
    expect(await ids(`updated_since=${since}`)).toEqual([a.id]);

    // Paging keeps the filter and the sort.
    const page1 = (await own.get('/docs/v2/contents?sort=published_at&limit=2')).json();
    expect(page1.data.map((x: ContentWire) => x.id)).toEqual([a.id, c.id]);
    const page2 = (await own.get(page1.meta.next)).json();
    expect(page2.data.map((x: ContentWire) => x.id)).toEqual([b.id]);
    // A cursor of one listing does not serve another.
    expectError(await own.get(`/docs/v2/contents?sort=updated_at&limit=2&after=${new URL(page1.meta.next, 'http://x').searchParams.get('after')}`), 400, 'invalid_cursor');

    expectError(await own.get('/docs/v2/contents?sort=title'), 400, 'validation_failed');
    expectError(await own.get('/docs/v2/contents?is_archived=yes'), 400, 'validation_failed');
    expectError(await own.get('/docs/v2/contents?workspace_id=nope'), 400, 'validation_failed');
  });
});

describe('DELETE and restore', () => {
  it('deletes the content with its locales and blocks under one stamp; restore brings back exactly those', async () => {
    const content = await createContent(api, fx, {
      locales: [
        { locale: 'en', title_html: 'English' },
        { locale: 'fr', title_html: 'Français' },
      ],
    });
    const keep = await createBlock(api, content.id, { locale: 'en', kind: 'richtext', content_html: '<p>kept</p>' });
    const goneBefore = await createBlock(api, content.id, { locale: 'en', kind: 'richtext', content_html: '<p>gone</p>' });
    await createBlock(api, content.id, { locale: 'fr', kind: 'richtext', content_html: '<p>fr</p>' });
    // A block and a locale deleted on their own before the content.
    expect((await api.delete(`/docs/v2/contents/${content.id}/blocks/${goneBefore.id}`)).statusCode).toBe(204);
    await api.patch(`/docs/v2/contents/${content.id}`, { locales: [{ locale: 'en', title_html: 'English' }] });

    expect((await api.delete(`/docs/v2/contents/${content.id}`)).statusCode).toBe(204);
    expectError(await api.get(`/docs/v2/contents/${content.id}`), 404, 'content_not_found');
    expectError(await api.get(`/docs/v2/contents/${content.id}/blocks`), 404, 'content_not_found');
    expectError(await api.delete(`/docs/v2/contents/${content.id}`), 404, 'content_not_found');
    const stamps = (await ctx.database.db.execute(
      `select (select count(distinct deleted_at) from content_locales where content_id = '${content.id}' and deleted_at = c.deleted_at) as locales,
              (select count(*) from content_blocks b join content_locales l on l.id = b.locale_id where l.content_id = '${content.id}' and b.deleted_at = c.deleted_at) as blocks
       from contents c where c.id = '${content.id}'` as never,
    )) as unknown as { rows: Array<{ locales: number; blocks: number }> };
    expect(Number(stamps.rows[0]!.locales)).toBe(1);
    expect(Number(stamps.rows[0]!.blocks)).toBe(1);

    const restored = await api.post(`/docs/v2/contents/${content.id}/restore`);
    expect(restored.statusCode).toBe(200);
    const data = restored.json().data as ContentWire;
    expect(data.deleted_at).toBeNull();
    expect(data.locales.map((l) => l.locale)).toEqual(['en']);
    const blocks = (await api.get(`/docs/v2/contents/${content.id}/blocks`)).json().data;
    expect(blocks.map((b: { id: string }) => b.id)).toEqual([keep.id]);
    expect((await api.post(`/docs/v2/contents/${content.id}/restore`)).statusCode).toBe(200);
    expectError(await api.post(`/docs/v2/contents/${randomUUID()}/restore`), 404, 'content_not_found');
  });
});

describe('POST /docs/v2/contents/{id}/template/switch', () => {
  it('refuses with 409 listing the blocks and metadata keys the new template does not allow; with drop_incompatible they go', async () => {
    const type = await createContentType(api);
    const narrow = await createTemplate(api, type.id, { block_kinds: ['richtext'], metadata_keys: ['source'] });
    const content = await createContent(api, fx);
    const text = await createBlock(api, content.id, { locale: 'en', kind: 'richtext', content_html: '<p>a</p>' });
    const quote = await createBlock(api, content.id, { locale: 'en', kind: 'quote', content_html: 'q', author: 'Q' });
    const after = await createBlock(api, content.id, { locale: 'en', kind: 'richtext', content_html: '<p>b</p>' });
    await api.put(`/docs/v2/contents/${content.id}/metadata`, { metadata: [{ key: 'source', value: 'AFP' }, { key: 'embargo', value: 'none' }] });

    const refused = await api.post(`/docs/v2/contents/${content.id}/template/switch`, { template_id: narrow.id });
    expectError(refused, 409, 'template_incompatible');
    expect(refused.json().details.map((d: { path: string }) => d.path)).toEqual([`blocks.${quote.id}`, 'metadata.embargo']);
    expect((await api.get(`/docs/v2/contents/${content.id}`)).json().data.template_id).toBe(fx.templateId);

    const switched = await api.post(`/docs/v2/contents/${content.id}/template/switch`, { template_id: narrow.id, drop_incompatible: true });
    expect(switched.statusCode).toBe(200);
    expect(switched.json().data.template_id).toBe(narrow.id);
    const blocks = (await api.get(`/docs/v2/contents/${content.id}/blocks`)).json().data;
    expect(blocks.map((b: { id: string; position: number }) => [b.id, b.position])).toEqual([
      [text.id, 0],
      [after.id, 1],
    ]);
    expect((await api.get(`/docs/v2/contents/${content.id}/metadata`)).json().data).toEqual([{ key: 'source', value: 'AFP' }]);

    // A compatible switch needs no flag; a foreign template is a 404.
    expect((await api.post(`/docs/v2/contents/${content.id}/template/switch`, { template_id: fx.templateId })).statusCode).toBe(200);
    const foreign = await docsFixture(otherApi, other.workspaceId);
    expectError(await api.post(`/docs/v2/contents/${content.id}/template/switch`, { template_id: foreign.templateId }), 404, 'template_not_found');
  });
});

describe('POST /docs/v2/contents/{id}/workspace/transfer', () => {
  it('moves the content to a workspace and status of the media (204); another media is a 404 or a 400', async () => {
    const content = await createContent(api, fx);
    const ws2 = (await api.post('/core/v2/workspaces', { key: `ws-${short()}`, name: 'Second' })).json().data.id as string;
    const moved = await api.post(`/docs/v2/contents/${content.id}/workspace/transfer`, { workspace_id: ws2, status_id: fx.statuses.draft });
    expect(moved.statusCode).toBe(204);
    expect(moved.body).toBe('');
    expect((await api.get(`/docs/v2/contents/${content.id}`)).json().data).toMatchObject({ workspace_id: ws2, status_id: fx.statuses.draft });

    const foreign = await docsFixture(otherApi, other.workspaceId);
    expectError(
      await api.post(`/docs/v2/contents/${content.id}/workspace/transfer`, { workspace_id: other.workspaceId, status_id: fx.statuses.draft }),
      404,
      'workspace_not_found',
    );
    expectError(
      await api.post(`/docs/v2/contents/${content.id}/workspace/transfer`, { workspace_id: ws2, status_id: foreign.statuses.draft }),
      400,
      'invalid_status',
    );
    expectError(
      await api.post(`/docs/v2/contents/${randomUUID()}/workspace/transfer`, { workspace_id: ws2, status_id: fx.statuses.draft }),
      404,
      'content_not_found',
    );
    expectError(
      await viewer.post(`/docs/v2/contents/${content.id}/workspace/transfer`, { workspace_id: ws2, status_id: fx.statuses.draft }),
      403,
      'forbidden',
    );
    expectError(await api.post(`/docs/v2/contents/${content.id}/workspace/transfer`, { workspace_id: ws2 }), 400, 'validation_failed');
  });
});

describe('published_at when a content enters a published status', () => {
  let reader: ReturnType<typeof readerClient>;
  beforeAll(async () => {
    const token = (await clientToken(ctx.app, await registerClient(ctx.app, media.keys.admin, ['media:read']))).access_token;
    reader = readerClient(ctx.app, media.mediaId, token);
  });

  const read = async (id: string) => (await api.get(`/docs/v2/contents/${id}`)).json().data as ContentWire;
  /** The Reader serves the content by id and lists it. */
  const expectServed = async (id: string) => {
    expect((await reader.get(`/api/media/v1/contents/${id}`)).statusCode).toBe(200);
    const listed = (await reader.get('/api/media/v1/contents?limit=100')).json().data.map((c: { id: string }) => c.id);
    expect(listed).toContain(id);
  };
  const title = (text: string) => ({ locales: [{ locale: 'en', title_html: text }] });

  it('a content created in a published status without published_at gets the time of its create, and readers see it', async () => {
    const created = await createContent(api, fx, { published_at: undefined });
    expect(created.status_id).toBe(fx.statuses.published);
    expect(created.published_at).toMatch(ISO_MS);
    // The create's transaction time, the same that inserted_at takes.
    expect(created.published_at).toBe(created.inserted_at);
    await expectServed(created.id);

    // A later save in the same status, status_id sent again or not, does not move it.
    const edited = await api.patch(`/docs/v2/contents/${created.id}`, title('Edited'));
    expect(edited.json().data.published_at).toBe(created.published_at);
    const resent = await api.patch(`/docs/v2/contents/${created.id}`, { status_id: fx.statuses.published, ...title('Again') });
    expect(resent.json().data.published_at).toBe(created.published_at);
    expect((await read(created.id)).published_at).toBe(created.published_at);
  });

  it('a PATCH that moves a content into a published status sets it once; leaving and coming back keeps it', async () => {
    const draft = await createContent(api, fx, { status_id: fx.statuses.draft, published_at: undefined });
    expect(draft.published_at).toBeNull();
    // A save that stays out of a published status leaves it unset.
    expect((await api.patch(`/docs/v2/contents/${draft.id}`, { status_id: fx.statuses.unpublished })).json().data.published_at).toBeNull();

    const before = new Date().toISOString();
    const res = await api.patch(`/docs/v2/contents/${draft.id}`, { status_id: fx.statuses.published });
    const after = new Date().toISOString();
    expect(res.statusCode).toBe(200);
    const publishedAt = res.json().data.published_at as string;
    expect(publishedAt).toMatch(ISO_MS);
    expect(publishedAt >= before && publishedAt <= after, `${before} <= ${publishedAt} <= ${after}`).toBe(true);
    await expectServed(draft.id);

    expect((await api.patch(`/docs/v2/contents/${draft.id}`, title('Later'))).json().data.published_at).toBe(publishedAt);
    await api.patch(`/docs/v2/contents/${draft.id}`, { status_id: fx.statuses.unpublished });
    expect((await api.patch(`/docs/v2/contents/${draft.id}`, { status_id: fx.statuses.published })).json().data.published_at).toBe(publishedAt);
  });

  it('keeps the published_at a write sends, an explicit null included, and one the content already has', async () => {
    const at = '2031-05-06T07:08:09.123Z';
    expect((await createContent(api, fx, { published_at: at })).published_at).toBe(at);
    expect((await createContent(api, fx, { published_at: null })).published_at).toBeNull();

    const draft = await createContent(api, fx, { status_id: fx.statuses.draft, published_at: undefined });
    const sent = await api.patch(`/docs/v2/contents/${draft.id}`, { status_id: fx.statuses.published, published_at: at });
    expect(sent.json().data.published_at).toBe(at);
    const nulled = await createContent(api, fx, { status_id: fx.statuses.draft, published_at: undefined });
    expect((await api.patch(`/docs/v2/contents/${nulled.id}`, { status_id: fx.statuses.published, published_at: null })).json().data.published_at).toBeNull();

    const dated = await createContent(api, fx, { status_id: fx.statuses.draft, published_at: '2020-01-01T00:00:00.000Z' });
    expect((await api.patch(`/docs/v2/contents/${dated.id}`, { status_id: fx.statuses.published })).json().data.published_at).toBe('2020-01-01T00:00:00.000Z');
  });

  it('a workspace transfer into a published status sets it in the transfer\'s transaction; a refused transfer sets nothing', async () => {
    const ws2 = (await api.post('/core/v2/workspaces', { key: `ws-${short()}`, name: 'Second' })).json().data.id as string;
    const draft = await createContent(api, fx, { status_id: fx.statuses.draft, published_at: undefined });
    const foreign = await docsFixture(otherApi, other.workspaceId);
    expectError(
      await api.post(`/docs/v2/contents/${draft.id}/workspace/transfer`, { workspace_id: ws2, status_id: foreign.statuses.published }),
      400,
      'invalid_status',
    );
    expect((await read(draft.id)).published_at).toBeNull();

    const moved = await api.post(`/docs/v2/contents/${draft.id}/workspace/transfer`, { workspace_id: ws2, status_id: fx.statuses.published });
    expect(moved.statusCode).toBe(204);
    const after = await read(draft.id);
    expect(after).toMatchObject({ workspace_id: ws2, status_id: fx.statuses.published });
    expect(after.published_at).toMatch(ISO_MS);
    // The transfer's transaction time, the same that its updated_at takes.
    expect(after.published_at).toBe(after.updated_at);
    await expectServed(draft.id);

    await api.post(`/docs/v2/contents/${draft.id}/workspace/transfer`, { workspace_id: media.workspaceId, status_id: fx.statuses.published });
    expect((await read(draft.id)).published_at).toBe(after.published_at);
  });
});

describe('content metadata', () => {
  it("replaces the metadata as a whole with the template's keys only, in order", async () => {
    const content = await createContent(api, fx);
    expect((await viewer.get(`/docs/v2/contents/${content.id}/metadata`)).json()).toEqual({ data: [] });
    const put = await api.put(`/docs/v2/contents/${content.id}/metadata`, { metadata: [{ key: 'embargo', value: 'x' }, { key: 'source', value: 'AFP' }] });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({ data: [{ key: 'embargo', value: 'x' }, { key: 'source', value: 'AFP' }] });
    const again = await api.put(`/docs/v2/contents/${content.id}/metadata`, { metadata: [{ key: 'source', value: 'Reuters' }] });
    expect(again.json().data).toEqual([{ key: 'source', value: 'Reuters' }]);
    expect((await viewer.get(`/docs/v2/contents/${content.id}/metadata`)).json().data).toEqual([{ key: 'source', value: 'Reuters' }]);

    const bad = await api.put(`/docs/v2/contents/${content.id}/metadata`, { metadata: [{ key: 'source', value: 'a' }, { key: 'mood', value: 'b' }] });
    expectError(bad, 400, 'metadata_key_not_allowed');
    expect(bad.json().details).toEqual([{ path: 'metadata.1.key', message: 'must be one of source, embargo' }]);
    expectError(await api.put(`/docs/v2/contents/${content.id}/metadata`, { metadata: [{ key: 'source', value: 'a' }, { key: 'source', value: 'b' }] }), 400, 'validation_failed');
    expectError(await api.put(`/docs/v2/contents/${content.id}/metadata`, [{ key: 'source', value: 'a' }]), 400, 'validation_failed');
    expectError(await viewer.put(`/docs/v2/contents/${content.id}/metadata`, { metadata: [] }), 403, 'forbidden');
    expectError(await api.get(`/docs/v2/contents/${randomUUID()}/metadata`), 404, 'content_not_found');
  });
});
