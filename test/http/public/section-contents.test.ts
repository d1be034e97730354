import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { type ContentWire, type DocsFixture, createContent, docsFixture, insertAssetImage } from '../../setup/docs.js';
import { expectError } from '../../setup/expect.js';
import { type Client, type SeededMedia, client, createCategory, seedMedia } from '../../setup/factories.js';
import { type SectionWire, addSectionContent, createIssue, createIssueType, createSection } from '../../setup/magazines.js';
import { clientToken, readerClient, registerClient } from '../../setup/reader.js';

let ctx: TestContext;
let media: SeededMedia;
let api: Client;
let fx: DocsFixture;
let section: SectionWire;
let featured: ContentWire;
let plain: ContentWire;
let draft: ContentWire;
let deleted: ContentWire;
let categoryId: string;
let image: { id: string; fileKey: string };

const url = (sectionId: string, query = '') => `/api/public/docs/v2/sections/${sectionId}/contents${query}`;
const get = (path: string) => ctx.app.inject({ method: 'GET', url: path });
const ids = (res: { json: () => { data: Array<{ id: string }> } }) => res.json().data.map((c) => c.id);

beforeAll(async () => {
  ctx = await createTestApp({ publicBaseUrl: 'https://api.example.test', rateLimit: { backoffice: 1000, reader: 1000, anonymous: 40, token: 1000 } });
  media = await seedMedia(ctx.app);
  api = client(ctx.app, media.keys.editor);
  fx = await docsFixture(api, media.workspaceId);
  categoryId = (await createCategory(api)).id;
  image = await insertAssetImage(ctx.database.db, media.mediaId, { gravity: 'north' });
  const issue = await createIssue(api, media.workspaceId, (await createIssueType(api)).id);
  section = await createSection(api, issue.id);
  featured = await createContent(api, fx, {
    canonical_url: 'https://news.example.test/featured',
    is_sponsored: true,
    content_categories: [{ category_id: categoryId }],
    locales: [
      {
        locale: 'en',
        title_html: '<p>Featured <em>story</em></p>',
        subtitle_html: 'Sub',
        lead_html: '<p>The lead</p>',
        seo: { title: 'SEO title', description: 'SEO description' },
        visual: { type: 'image', image: { asset_image_id: image.id } },
      },
      { locale: 'fr', title_html: 'À la une' },
    ],
  });
  plain = await createContent(api, fx, { show_publication_datetime: false });
  draft = await createContent(api, fx, { status_id: fx.statuses.draft });
  deleted = await createContent(api, fx);
  await addSectionContent(api, issue.id, section.id, plain.id, 0);
  await addSectionContent(api, issue.id, section.id, draft.id, 1);
  await addSectionContent(api, issue.id, section.id, featured.id, 2);
  await addSectionContent(api, issue.id, section.id, deleted.id, 3);
  expect((await api.delete(`/docs/v2/contents/${deleted.id}`)).statusCode).toBe(204);
});
afterAll(() => ctx.close());

describe('Public (deprecated) GET /api/public/docs/v2/sections/:section_id/contents', () => {
  it('serves the section’s published contents in spec 2.16’s shape, without authentication', async () => {
    const res = await get(url(section.id, '?locale=en'));
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['assocs', 'data', 'meta']);
    expect(body.assocs).toEqual({});
    expect(body.meta).toEqual({ base: url(section.id, '?locale=en'), next: null, previous: null });
    expect(ids(res)).toEqual([plain.id, featured.id]);
    expect(body.data[1]).toEqual({
      _links: { _self: `/api/public/docs/v2/contents/${featured.id}`, template: `/api/public/docs/v2/templates/${fx.templateId}` },
      id: featured.id,
      template_id: fx.templateId,
      canonical_domain: 'news.example.test',
      canonical_url: 'https://news.example.test/featured',
      visibility: 'public',
      is_advertising: false,
      is_sponsored: true,
      show_published_at: true,
      category_ids: [categoryId],
      localized: {
        locale: 'en',
        title_html: '<p>Featured <em>story</em></p>',
        title_text: 'Featured story',
        lead_html: '<p>The lead</p>',
        lead_text: 'The lead',
        subtitle_html: 'Sub',
        subtitle_text: 'Sub',
        author_ids: [],
        seo: { title: 'SEO title', description: 'SEO description' },
        visual: {
          type: 'image',
          caption_html: '<p>A caption</p>',
          caption_text: 'A caption',
          credit: 'Photo: Ada',
          gravity: 'north',
          url: `https://api.example.test/assets/${image.fileKey}`,
        },
      },
      published_at: featured.published_at,
      updated_at: featured.updated_at,
    });
    expect(body.data[0]).toMatchObject({ show_published_at: false, localized: { visual: { type: 'none', url: null, gravity: null } } });
    const fr = await get(url(section.id, '?locale=fr'));
    expect(fr.json().data[1].localized).toMatchObject({ locale: 'fr', title_text: 'À la une' });
  });

  it('serves the same contents in the same order as the Reader, page by page, never a draft or a deleted one', async () => {
    const token = (await clientToken(ctx.app, await registerClient(ctx.app, media.keys.admin, ['media:read']))).access_token;
    const reader = readerClient(ctx.app, media.mediaId, token);
    const readerIds = ids(await reader.get(`/api/media/v1/sections/${section.id}/contents?limit=100`));
    expect(readerIds).toEqual([plain.id, featured.id]);
    const first = await get(url(section.id, '?limit=1'));
    expect(ids(first)).toEqual([plain.id]);
    expect(first.json().meta.next).toMatch(/^\/api\/public\/docs\/v2\/sections\/.+\/contents\?limit=1&after=/);
    const second = await get(first.json().meta.next);
    expect(ids(second)).toEqual([featured.id]);
    expect(second.json().meta.next).toBeNull();
    const back = await get(second.json().meta.previous);
    expect(ids(back)).toEqual([plain.id]);
    expect([...ids(first), ...ids(second)]).toEqual(readerIds);
    expect(readerIds).not.toContain(draft.id);
    expect(readerIds).not.toContain(deleted.id);
  });

  it('is marked deprecated: Deprecation, Sunset and a Link to the Reader successor, also on errors', async () => {
    const res = await get(url(section.id));
    expect(res.headers.deprecation).toMatch(/^@\d+$/);
    expect(new Date(String(res.headers.sunset)).toString()).not.toBe('Invalid Date');
    expect(res.headers.link).toBe(`</api/media/v1/sections/${section.id}/contents>; rel="successor-version"`);
    const missing = await get(url(randomUUID()));
    expectError(missing, 404, 'section_not_found');
    expect(missing.headers.deprecation).toMatch(/^@\d+$/);
    const doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(doc.paths['/api/public/docs/v2/sections/{section_id}/contents'].get.deprecated).toBe(true);
  });

  it('answers 400 on bad input and 404 on an unknown or removed section', async () => {
    expectError(await get(url('nope')), 400, 'invalid_uuid');
    expectError(await get(url(section.id, '?limit=0')), 400);
    expectError(await get(url(section.id, '?limit=101')), 400);
    expectError(await get(url(section.id, '?after=tampered')), 400, 'invalid_cursor');
    expectError(await get(url(section.id, '?after=a&before=b')), 400);
    const gone = await createSection(api, section.issue_id);
    expect((await api.delete(`/magazines/v2/sections/${gone.id}`)).statusCode).toBe(204);
    expectError(await get(url(gone.id)), 404, 'section_not_found');
  });

  it('counts against the Public rate limit per address (40 a minute here)', async () => {
    const path = url(randomUUID());
    const codes: number[] = [];
    for (let i = 0; i < 41; i++) codes.push((await ctx.app.inject({ method: 'GET', url: path, remoteAddress: '203.0.113.9' })).statusCode);
    expect(codes.slice(0, 40).every((c) => c === 404)).toBe(true);
    const limited = await ctx.app.inject({ method: 'GET', url: path, remoteAddress: '203.0.113.9' });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect((await get(path)).statusCode).toBe(404);
  });
});
