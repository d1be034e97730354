import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { type ContentWire, type DocsFixture, createContent, docsFixture, insertAssetImage } from '../../setup/docs.js';
import { expectError } from '../../setup/expect.js';
import { type CategoryWire, type Client, type SeededMedia, client, createCategory, seedMedia } from '../../setup/factories.js';
import { type IssueWire, type SectionWire, addSectionContent, createIssue, createIssueType, createSection } from '../../setup/magazines.js';
import { clientToken, readerClient, registerClient } from '../../setup/reader.js';

let ctx: TestContext;
let media: SeededMedia;
let api: Client;
let fx: DocsFixture;
let reader: ReturnType<typeof readerClient>;
let issue: IssueWire;
let section: SectionWire;
let other: SectionWire;
let category: CategoryWire;
let listed: ContentWire[];
let draft: ContentWire;
let deleted: ContentWire;
let outside: ContentWire;
let image: { id: string; fileKey: string };

const ids = (res: { json: () => { data: Array<{ id: string }> } }) => res.json().data.map((c) => c.id);

beforeAll(async () => {
  ctx = await createTestApp({ publicBaseUrl: 'https://api.example.test' });
  media = await seedMedia(ctx.app);
  api = client(ctx.app, media.keys.editor);
  fx = await docsFixture(api, media.workspaceId);
  const token = (await clientToken(ctx.app, await registerClient(ctx.app, media.keys.admin, ['media:read']))).access_token;
  reader = readerClient(ctx.app, media.mediaId, token);
  category = await createCategory(api);
  image = await insertAssetImage(ctx.database.db, media.mediaId, { gravity: 'north' });
  issue = await createIssue(api, media.workspaceId, (await createIssueType(api)).id, {
    locales: [
      { locale: 'en', name: 'Winter', description_html: '<p>Cold <b>stories</b></p>', visual: { type: 'image', image: { asset_image_id: image.id } } },
      { locale: 'fr', name: 'Hiver' },
    ],
  });
  section = await createSection(api, issue.id, { key: 'features', locales: [{ locale: 'en', name: 'Features' }, { locale: 'fr', name: 'Dossiers' }] });
  other = await createSection(api, issue.id, { key: 'news', locales: [{ locale: 'en', name: 'News' }] });
  listed = [];
  for (const title of ['Avalanche season', 'Snow report', 'Ski lifts reopen']) {
    listed.push(
      await createContent(api, fx, {
        content_categories: [{ category_id: category.id }],
        locales: [{ locale: 'en', title_html: title, lead_html: `<p>${title} lead</p>` }, { locale: 'fr', title_html: `${title} (fr)` }],
      }),
    );
  }
  draft = await createContent(api, fx, { status_id: fx.statuses.draft, locales: [{ locale: 'en', title_html: 'Avalanche draft' }] });
  deleted = await createContent(api, fx, { locales: [{ locale: 'en', title_html: 'Avalanche deleted' }] });
  outside = await createContent(api, fx, { locales: [{ locale: 'en', title_html: 'Avalanche elsewhere' }] });
  // Positions: listed[2] first, then listed[0], the draft, listed[1], the deleted one.
  await addSectionContent(api, issue.id, section.id, listed[2]!.id, 0);
  await addSectionContent(api, issue.id, section.id, listed[0]!.id, 1);
  await addSectionContent(api, issue.id, section.id, draft.id, 2);
  await addSectionContent(api, issue.id, section.id, listed[1]!.id, 3);
  await addSectionContent(api, issue.id, section.id, deleted.id, 4);
  expect((await api.delete(`/docs/v2/contents/${deleted.id}`)).statusCode).toBe(204);
});
afterAll(() => ctx.close());

describe('GET /api/media/v1/issues/:id', () => {
  it('serves the issue in the asked language with its sections in order', async () => {
    const res = await reader.get(`/api/media/v1/issues/${issue.id}?locale=en`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({
      id: issue.id,
      issue_type_id: issue.issue_type_id,
      kind: 'regular',
      color: '#112233',
      pdf_file_key: null,
      advertising_key: null,
      locale: 'en',
      name: 'Winter',
      description_html: '<p>Cold <b>stories</b></p>',
      description_text: 'Cold stories',
      visual: {
        type: 'image',
        image: {
          id: image.id,
          asset_image_id: image.id,
          file_key: image.fileKey,
          url: `https://api.example.test/assets/${image.fileKey}`,
          credit: 'Photo: Ada',
          caption_html: '<p>A caption</p>',
          caption_text: 'A caption',
          gravity: 'north',
        },
      },
      sections: [
        { id: section.id, issue_id: issue.id, key: 'features', position: 0, name: 'Features', description_html: null, description_text: null, updated_at: section.updated_at },
        { id: other.id, issue_id: issue.id, key: 'news', position: 1, name: 'News', description_html: null, description_text: null, updated_at: other.updated_at },
      ],
      updated_at: issue.updated_at,
      meta: { locales: { current: 'en', available: ['en', 'fr'], requested: 'en' } },
    });
    const fr = (await reader.get(`/api/media/v1/issues/${issue.id}?locale=fr`)).json().data;
    expect([fr.name, fr.sections[0].name, fr.sections[1].name]).toEqual(['Hiver', 'Dossiers', 'News']);
  });

  it('answers 404 for an unknown or other media’s issue, 401 without a token, 400 without the media header', async () => {
    expectError(await reader.get(`/api/media/v1/issues/${randomUUID()}`), 404, 'issue_not_found');
    const foreign = await seedMedia(ctx.app);
    const token = (await clientToken(ctx.app, await registerClient(ctx.app, foreign.keys.admin, ['media:read']))).access_token;
    expectError(await readerClient(ctx.app, foreign.mediaId, token).get(`/api/media/v1/issues/${issue.id}`), 404, 'issue_not_found');
    expectError(await readerClient(ctx.app, media.mediaId).get(`/api/media/v1/issues/${issue.id}`), 401);
    expectError(await ctx.app.inject({ method: 'GET', url: `/api/media/v1/issues/${issue.id}`, headers: { authorization: `Bearer ${token}` } }), 400);
  });
});

describe('section contents', () => {
  it('serves the published contents in position order, shaped and with assocs as the contents list', async () => {
    const res = await reader.get(`/api/media/v1/issues/${issue.id}/sections/${section.id}/contents?locale=en`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['assocs', 'data', 'meta']);
    expect(ids(res)).toEqual([listed[2]!.id, listed[0]!.id, listed[1]!.id]);
    // The same item as the contents list serves.
    const all = await reader.get('/api/media/v1/contents?locale=en&limit=100');
    const fromContents = all.json().data.find((c: { id: string }) => c.id === listed[0]!.id);
    expect(body.data[1]).toEqual(fromContents);
    expect(body.data[1]).toMatchObject({ title_text: 'Avalanche season', lead_text: 'Avalanche season lead', category_ids: [category.id] });
    expect(body.assocs.categories.map((c: { id: string }) => c.id)).toEqual([category.id]);
    expect(body.assocs.templates.map((t: { id: string }) => t.id)).toEqual([fx.templateId]);
    expect(body.meta).toEqual({
      base: `https://api.example.test/api/media/v1/issues/${issue.id}/sections/${section.id}/contents?locale=en`,
      next: null,
      previous: null,
      locales: { current: 'en', available: ['en', 'fr'], requested: 'en' },
    });
  });

  it('pages by cursor both ways, the same by section id', async () => {
    const first = await reader.get(`/api/media/v1/sections/${section.id}/contents?limit=2`);
    expect(first.statusCode, first.body).toBe(200);
    expect(ids(first)).toEqual([listed[2]!.id, listed[0]!.id]);
    const second = await reader.get(first.json().meta.next.replace('https://api.example.test', ''));
    expect(ids(second)).toEqual([listed[1]!.id]);
    expect(second.json().meta.next).toBeNull();
    const back = await reader.get(second.json().meta.previous.replace('https://api.example.test', ''));
    expect(ids(back)).toEqual([listed[2]!.id, listed[0]!.id]);
    expectError(await reader.get(`/api/media/v1/sections/${section.id}/contents?after=garbage`), 400, 'invalid_cursor');
    // A cursor of one section is refused by another.
    expectError(await reader.get(`/api/media/v1/sections/${other.id}/contents?${first.json().meta.next.split('?')[1]}`), 400, 'invalid_cursor');
  });

  it('answers 404 for a section of another issue or an unknown one', async () => {
    const another = await createIssue(api, media.workspaceId, issue.issue_type_id);
    expectError(await reader.get(`/api/media/v1/issues/${another.id}/sections/${section.id}/contents`), 404, 'section_not_found');
    expectError(await reader.get(`/api/media/v1/sections/${randomUUID()}/contents`), 404, 'section_not_found');
    expectError(await reader.get(`/api/media/v1/issues/${another.id}/sections/${section.id}/blocks`), 404, 'section_not_found');
  });
});

describe('GET /api/media/v1/issues/:id/contents/search', () => {
  it('finds the published contents of the issue only, with assocs', async () => {
    const res = await reader.get(`/api/media/v1/issues/${issue.id}/contents/search?q=avalanche&locale=en`);
    expect(res.statusCode, res.body).toBe(200);
    expect(ids(res)).toEqual([listed[0]!.id]);
    expect(res.json().assocs.categories.map((c: { id: string }) => c.id)).toEqual([category.id]);
    // The whole media has more avalanches: a draft, a deleted one, one outside the issue.
    const everywhere = await reader.get('/api/media/v1/contents/search?q=avalanche');
    expect(ids(everywhere)).toEqual(expect.arrayContaining([listed[0]!.id, outside.id]));
    expect(ids(await reader.get(`/api/media/v1/issues/${issue.id}/contents/search?q=snow`))).toEqual([listed[1]!.id]);
    expectError(await reader.get(`/api/media/v1/issues/${issue.id}/contents/search`), 400);
    expectError(await reader.get(`/api/media/v1/issues/${randomUUID()}/contents/search?q=snow`), 404, 'issue_not_found');
  });
});

describe('GET /api/media/v1/issues/:id/sections/:section_id/blocks', () => {
  it('serves the blocks with their slots and the assocs of their contents; a slot whose content is not published is empty', async () => {
    const [block] = (await api.put(`/magazines/v2/sections/${other.id}/blocks`, { blocks: [{ kind: 'hero', position: 0, settings: { size: 'xl' } }] })).json().data;
    const slots = await api.put(`/magazines/v2/section-blocks/${block.id}/slots`, {
      slots: [
        { position: 0, content_id: listed[1]!.id },
        { position: 1, content_id: draft.id },
      ],
    });
    expect(slots.statusCode, slots.body).toBe(200);
    const res = await reader.get(`/api/media/v1/issues/${issue.id}/sections/${other.id}/blocks?locale=fr`);
    expect(res.statusCode, res.body).toBe(200);
    const { data, assocs } = res.json();
    expect(assocs.categories.map((c: { id: string }) => c.id)).toEqual([category.id]);
    expect(assocs.templates.map((t: { id: string }) => t.id)).toEqual([fx.templateId]);
    expect(data).toEqual([
      {
        id: block.id,
        kind: 'hero',
        position: 0,
        settings: { size: 'xl' },
        slots: [
          { id: slots.json().data[0].id, position: 0, content: expect.objectContaining({ id: listed[1]!.id, title_text: 'Snow report (fr)', locale: 'fr' }) },
          { id: slots.json().data[1].id, position: 1, content: null },
        ],
      },
    ]);
  });
});

describe('GET /api/media/v1/sections/:id', () => {
  it('serves a section in the asked language, 404 once removed', async () => {
    const res = await reader.get(`/api/media/v1/sections/${section.id}?locale=fr`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({
      id: section.id,
      issue_id: issue.id,
      key: 'features',
      position: 0,
      name: 'Dossiers',
      description_html: null,
      description_text: null,
      updated_at: section.updated_at,
      meta: { locales: { current: 'fr', available: ['en', 'fr'], requested: 'fr' } },
    });
    const gone = await createSection(api, issue.id);
    expect((await api.delete(`/magazines/v2/sections/${gone.id}`)).statusCode).toBe(204);
    expectError(await reader.get(`/api/media/v1/sections/${gone.id}`), 404, 'section_not_found');
  });
});
