import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { type ContentWire, type DocsFixture, createBlock, createContent, createContentType, createTemplate, docsFixture } from '../../setup/docs.js';
import { type CategoryWire, type Client, type SeededMedia, client, createCategory, seedMedia } from '../../setup/factories.js';
import { type ReaderOf, expectPublicBadId, expectPublicNotFound, expectSameAsReader, publicGet, readerOf } from '../../setup/public.js';

// The docs group of the deprecated Public API: contents of a media, a content by id, a
// question's results (twins of the Reader's operations) and a template by id (no successor).

let ctx: TestContext;
let media: SeededMedia;
let other: SeededMedia;
let api: Client;
let fx: DocsFixture;
let reader: ReaderOf;
let otherReader: ReaderOf;
let category: CategoryWire;
let older: ContentWire;
let newer: ContentWire;
let draft: ContentWire;
let unpublished: ContentWire;
let scheduled: ContentWire;
let deleted: ContentWire;
let foreign: ContentWire;
let question: { id: string; choices: Array<{ id: string; label: string }> };
let foreignQuestion: { id: string };
let deletedTemplate: string;
let foreignTemplate: string;

const PUBLIC = '/api/public/docs/v2';
const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
const ids = (body: { data: Array<{ id: string }> }) => body.data.map((c) => c.id);

beforeAll(async () => {
  ctx = await createTestApp({ rateLimit: { backoffice: 10_000, reader: 10_000, anonymous: 10_000, token: 10_000 } });
  media = await seedMedia(ctx.app);
  other = await seedMedia(ctx.app);
  api = client(ctx.app, media.keys.editor);
  fx = await docsFixture(api, media.workspaceId);
  reader = await readerOf(ctx.app, media.keys.admin, media.mediaId);
  otherReader = await readerOf(ctx.app, other.keys.admin, other.mediaId);
  category = await createCategory(api, { locales: [{ locale: 'en', name: 'Politics' }, { locale: 'fr', name: 'Politique' }] });
  older = await createContent(api, fx, {
    published_at: ago(10),
    content_categories: [{ category_id: category.id }],
    locales: [
      { locale: 'en', title_html: '<p>Hello <em>readers</em></p>', lead_html: '<p>Lead</p>' },
      { locale: 'fr', title_html: 'Bonjour' },
    ],
  });
  await createBlock(api, older.id, { locale: 'en', kind: 'richtext', content_html: '<p>Body</p>' });
  await createBlock(api, older.id, { locale: 'fr', kind: 'richtext', content_html: '<p>Corps</p>' });
  question = (await createBlock(api, older.id, {
    locale: 'en',
    kind: 'question',
    title: 'Tea or coffee?',
    choices: [{ label: 'Tea' }, { label: 'Coffee' }],
  })) as unknown as typeof question;
  newer = await createContent(api, fx, { published_at: ago(5), locales: [{ locale: 'en', title_html: 'Newer' }] });
  draft = await createContent(api, fx, { status_id: fx.statuses.draft });
  unpublished = await createContent(api, fx, { status_id: fx.statuses.unpublished });
  scheduled = await createContent(api, fx, { published_at: new Date(Date.now() + 3_600_000).toISOString() });
  deleted = await createContent(api, fx);
  expect((await api.delete(`/docs/v2/contents/${deleted.id}`)).statusCode).toBe(204);
  deletedTemplate = (await createTemplate(api, (await createContentType(api)).id)).id;
  expect((await api.delete(`/docs/v2/templates/${deletedTemplate}`)).statusCode).toBe(204);

  const otherApi = client(ctx.app, other.keys.editor);
  const otherFx = await docsFixture(otherApi, other.workspaceId);
  foreignTemplate = otherFx.templateId;
  foreign = await createContent(otherApi, otherFx, { locales: [{ locale: 'en', title_html: 'Elsewhere' }] });
  foreignQuestion = await createBlock(otherApi, foreign.id, { locale: 'en', kind: 'question', title: 'Other?', choices: [{ label: 'Yes' }, { label: 'No' }] });
});
afterAll(() => ctx.close());

describe('Public (deprecated) GET /api/public/docs/v2/medias/:media_id/contents', () => {
  const url = (mediaId: string, query = '') => `${PUBLIC}/medias/${mediaId}/contents${query}`;

  it('serves the media’s published contents as the Reader lists them: same records, order and assocs', async () => {
    const res = await publicGet(ctx.app, url(media.mediaId, '?locale=en'), '/api/media/v1/contents');
    expect(res.statusCode, res.body).toBe(200);
    const body = await expectSameAsReader(ctx.app, reader, url(media.mediaId, '?locale=en'), '/api/media/v1/contents?locale=en');
    expect(ids(body)).toEqual([newer.id, older.id]);
    expect(body.data[1]).toMatchObject({ id: older.id, template_id: fx.templateId, locale: 'en', title_text: 'Hello readers', category_ids: [category.id] });
    expect(body.assocs.templates.map((t: { id: string }) => t.id)).toEqual([fx.templateId]);
    expect(body.assocs.categories).toEqual([expect.objectContaining({ id: category.id, name: 'Politics' })]);
    const fr = await expectSameAsReader(ctx.app, reader, url(media.mediaId, '?locale=fr'), '/api/media/v1/contents?locale=fr');
    expect(fr.data[1]).toMatchObject({ id: older.id, title_text: 'Bonjour' });
  });

  it('pages and filters as the Reader does, its links under the Public path', async () => {
    const first = await expectSameAsReader(ctx.app, reader, url(media.mediaId, '?limit=1'), '/api/media/v1/contents?limit=1');
    expect(ids(first)).toEqual([newer.id]);
    expect(first.meta.next).toMatch(new RegExp(`^${url(media.mediaId)}\\?limit=1&after=`));
    const second = (await publicGet(ctx.app, first.meta.next)).json();
    expect(ids(second)).toEqual([older.id]);
    const filtered = await expectSameAsReader(
      ctx.app,
      reader,
      url(media.mediaId, `?category_ids[]=${category.id}`),
      `/api/media/v1/contents?category_ids[]=${category.id}`,
    );
    expect(ids(filtered)).toEqual([older.id]);
  });

  it('never lists a draft, unpublished, scheduled, deleted or other media’s content; each media its own', async () => {
    const listed = ids((await publicGet(ctx.app, url(media.mediaId, '?limit=100'))).json());
    for (const hidden of [draft, unpublished, scheduled, deleted, foreign]) expect(listed).not.toContain(hidden.id);
    const theirs = await expectSameAsReader(ctx.app, otherReader, url(other.mediaId), '/api/media/v1/contents');
    expect(ids(theirs)).toEqual([foreign.id]);
  });

  it('answers 404 for an unknown media, 400 for a malformed media id or query', async () => {
    await expectPublicNotFound(ctx.app, url(randomUUID()), 'media_not_found');
    await expectPublicBadId(ctx.app, url('nope'));
    const bad = await publicGet(ctx.app, url(media.mediaId, '?limit=0'));
    expect(bad.statusCode).toBe(400);
  });
});

describe('Public (deprecated) GET /api/public/docs/v2/contents/:id', () => {
  const url = (id: string, query = '') => `${PUBLIC}/contents/${id}${query}`;

  it('serves a published content with its blocks as the Reader does, the media taken from the content', async () => {
    const res = await publicGet(ctx.app, url(older.id, '?locale=en'), `/api/media/v1/contents/${older.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = await expectSameAsReader(ctx.app, reader, url(older.id, '?locale=en'), `/api/media/v1/contents/${older.id}?locale=en`);
    expect(body.data).toMatchObject({ id: older.id, template_id: fx.templateId, locale: 'en', title_text: 'Hello readers', lead_text: 'Lead' });
    expect(body.data.blocks.map((b: { kind: string }) => b.kind)).toEqual(['richtext', 'question']);
    const fr = await expectSameAsReader(ctx.app, reader, url(older.id, '?locale=fr'), `/api/media/v1/contents/${older.id}?locale=fr`);
    expect(fr.data).toMatchObject({ locale: 'fr', title_text: 'Bonjour', blocks: [expect.objectContaining({ content_html: '<p>Corps</p>' })] });
    // Another media's content is served as its own media's Reader serves it, never mixed with this one's.
    const theirs = await expectSameAsReader(ctx.app, otherReader, url(foreign.id), `/api/media/v1/contents/${foreign.id}`);
    expect(theirs.data).toMatchObject({ id: foreign.id, title_text: 'Elsewhere' });
    expect((await reader.get(`/api/media/v1/contents/${foreign.id}`)).statusCode).toBe(404);
  });

  it('answers 404 content_not_found for a draft, unpublished, scheduled, deleted or unknown content, 400 for a malformed id', async () => {
    for (const hidden of [draft, unpublished, scheduled, deleted]) await expectPublicNotFound(ctx.app, url(hidden.id), 'content_not_found');
    await expectPublicNotFound(ctx.app, url(randomUUID()), 'content_not_found');
    await expectPublicBadId(ctx.app, url('nope'));
  });
});

describe('Public (deprecated) GET /api/public/docs/v2/contents/:id/questions/:block_id/results', () => {
  const url = (id: string, blockId: string) => `${PUBLIC}/contents/${id}/questions/${blockId}/results`;

  it('serves a question’s results as the Reader does', async () => {
    const successor = `/api/media/v1/contents/${older.id}/questions/${question.id}/results`;
    const res = await publicGet(ctx.app, url(older.id, question.id), successor);
    expect(res.statusCode, res.body).toBe(200);
    const body = await expectSameAsReader(ctx.app, reader, url(older.id, question.id), successor);
    expect(body.data).toEqual({
      question_id: question.id,
      title: 'Tea or coffee?',
      total: 0,
      choices: question.choices.map((c) => ({ id: c.id, label: c.label, votes: 0 })),
    });
  });

  it('answers 404 question_not_found for another content’s or media’s question, an unpublished content or unknown ids; 400 for malformed ids', async () => {
    await expectPublicNotFound(ctx.app, url(older.id, foreignQuestion.id), 'question_not_found');
    await expectPublicNotFound(ctx.app, url(newer.id, question.id), 'question_not_found');
    await expectPublicNotFound(ctx.app, url(older.id, randomUUID()), 'question_not_found');
    await expectPublicNotFound(ctx.app, url(randomUUID(), question.id), 'question_not_found');
    await expectPublicNotFound(ctx.app, url(draft.id, question.id), 'question_not_found');
    await expectPublicNotFound(ctx.app, url(deleted.id, question.id), 'question_not_found');
    await expectPublicBadId(ctx.app, url('nope', question.id));
    await expectPublicBadId(ctx.app, url(older.id, 'nope'));
  });
});

describe('Public (deprecated) GET /api/public/docs/v2/templates/:id', () => {
  const url = (id: string) => `${PUBLIC}/templates/${id}`;

  it('serves a live template as the Reader’s contents name it in their assocs, with no successor to link', async () => {
    const res = await publicGet(ctx.app, url(fx.templateId));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers.link).toBeUndefined();
    const { data } = res.json();
    expect(Object.keys(data).sort()).toEqual(['content_type_id', 'id', 'key', 'name', 'updated_at']);
    expect(data).toMatchObject({ id: fx.templateId, name: 'Standard', key: expect.stringMatching(/^tpl-/) });
    const listed = (await reader.get('/api/media/v1/contents')).json();
    expect(listed.assocs.templates).toEqual([data]);
    const theirs = (await publicGet(ctx.app, url(foreignTemplate))).json();
    expect(theirs.data.id).toBe(foreignTemplate);
    expect((await otherReader.get('/api/media/v1/contents')).json().assocs.templates).toEqual([theirs.data]);
  });

  it('says in OpenAPI that it has no Reader successor', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const op = doc.paths['/api/public/docs/v2/templates/{id}'].get;
    expect(op.deprecated).toBe(true);
    expect(op.description).toMatch(/No Reader successor/);
    const index = (await ctx.app.inject({ method: 'GET', url: '/api/public' })).json().data;
    expect(index).toContainEqual({ operation_id: 'publicGetTemplate', method: 'GET', path: '/api/public/docs/v2/templates/{id}', successor: null });
  });

  it('answers 404 template_not_found for a deleted or unknown template, 400 for a malformed id', async () => {
    await expectPublicNotFound(ctx.app, url(deletedTemplate), 'template_not_found');
    await expectPublicNotFound(ctx.app, url(randomUUID()), 'template_not_found');
    await expectPublicBadId(ctx.app, url('nope'));
  });
});
