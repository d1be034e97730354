import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { type Client, type SeededMedia, client, seedMedia } from '../../setup/factories.js';
import { type IssueWire, type SectionWire, createIssue, createIssueType, createSection } from '../../setup/magazines.js';
import { type ReaderOf, expectPublicBadId, expectPublicNotFound, expectSameAsReader, publicGet, readerOf } from '../../setup/public.js';

// The magazines rows of the deprecated Public API (the docs group): an issue and a section by
// id, twins of the Reader's, the media taken from the issue or section.

let ctx: TestContext;
let media: SeededMedia;
let other: SeededMedia;
let api: Client;
let reader: ReaderOf;
let otherReader: ReaderOf;
let issue: IssueWire;
let features: SectionWire;
let news: SectionWire;
let removedSection: SectionWire;
let removedIssue: IssueWire;
let orphan: SectionWire;
let foreignIssue: IssueWire;
let foreignSection: SectionWire;

const PUBLIC = '/api/public/docs/v2';

beforeAll(async () => {
  ctx = await createTestApp({ rateLimit: { backoffice: 10_000, reader: 10_000, anonymous: 10_000, token: 10_000 } });
  media = await seedMedia(ctx.app);
  other = await seedMedia(ctx.app);
  api = client(ctx.app, media.keys.editor);
  reader = await readerOf(ctx.app, media.keys.admin, media.mediaId);
  otherReader = await readerOf(ctx.app, other.keys.admin, other.mediaId);
  const type = await createIssueType(api);
  issue = await createIssue(api, media.workspaceId, type.id, {
    locales: [
      { locale: 'en', name: 'Winter', description_html: '<p>Cold <b>stories</b></p>' },
      { locale: 'fr', name: 'Hiver' },
    ],
  });
  features = await createSection(api, issue.id, { key: 'features', locales: [{ locale: 'en', name: 'Features' }, { locale: 'fr', name: 'Dossiers' }] });
  news = await createSection(api, issue.id, { key: 'news', locales: [{ locale: 'en', name: 'News' }] });
  removedSection = await createSection(api, issue.id, { key: 'gone' });
  expect((await api.delete(`/magazines/v2/sections/${removedSection.id}`)).statusCode).toBe(204);
  removedIssue = await createIssue(api, media.workspaceId, type.id);
  orphan = await createSection(api, removedIssue.id);
  expect((await api.delete(`/magazines/v2/issues/${removedIssue.id}`)).statusCode).toBe(204);

  const otherApi = client(ctx.app, other.keys.editor);
  foreignIssue = await createIssue(otherApi, other.workspaceId, (await createIssueType(otherApi)).id, { locales: [{ locale: 'en', name: 'Elsewhere' }] });
  foreignSection = await createSection(otherApi, foreignIssue.id, { key: 'abroad' });
});
afterAll(() => ctx.close());

describe('Public (deprecated) GET /api/public/docs/v2/issues/:id', () => {
  const url = (id: string, query = '') => `${PUBLIC}/issues/${id}${query}`;

  it('serves the issue with its live sections in order, as the Reader does', async () => {
    const res = await publicGet(ctx.app, url(issue.id, '?locale=en'), `/api/media/v1/issues/${issue.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = await expectSameAsReader(ctx.app, reader, url(issue.id, '?locale=en'), `/api/media/v1/issues/${issue.id}?locale=en`);
    expect(body.data).toMatchObject({
      id: issue.id,
      issue_type_id: issue.issue_type_id,
      kind: 'regular',
      color: '#112233',
      locale: 'en',
      name: 'Winter',
      description_text: 'Cold stories',
    });
    expect(body.data.sections.map((s: { id: string }) => s.id)).toEqual([features.id, news.id]);
    const fr = await expectSameAsReader(ctx.app, reader, url(issue.id, '?locale=fr'), `/api/media/v1/issues/${issue.id}?locale=fr`);
    expect(fr.data).toMatchObject({ locale: 'fr', name: 'Hiver' });
    // Another media's issue is served as its own media's Reader serves it.
    const theirs = await expectSameAsReader(ctx.app, otherReader, url(foreignIssue.id), `/api/media/v1/issues/${foreignIssue.id}`);
    expect(theirs.data).toMatchObject({ id: foreignIssue.id, name: 'Elsewhere', sections: [expect.objectContaining({ id: foreignSection.id })] });
  });

  it('answers 404 issue_not_found for a deleted or unknown issue, 400 for a malformed id', async () => {
    await expectPublicNotFound(ctx.app, url(removedIssue.id), 'issue_not_found');
    await expectPublicNotFound(ctx.app, url(randomUUID()), 'issue_not_found');
    await expectPublicBadId(ctx.app, url('nope'));
  });
});

describe('Public (deprecated) GET /api/public/docs/v2/sections/:id', () => {
  const url = (id: string, query = '') => `${PUBLIC}/sections/${id}${query}`;

  it('serves the section as the Reader does', async () => {
    const res = await publicGet(ctx.app, url(features.id, '?locale=fr'), `/api/media/v1/sections/${features.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = await expectSameAsReader(ctx.app, reader, url(features.id, '?locale=fr'), `/api/media/v1/sections/${features.id}?locale=fr`);
    expect(body.data).toMatchObject({ id: features.id, key: 'features', name: 'Dossiers' });
    const en = await expectSameAsReader(ctx.app, reader, url(news.id), `/api/media/v1/sections/${news.id}`);
    expect(en.data).toMatchObject({ id: news.id, key: 'news', name: 'News' });
    const theirs = await expectSameAsReader(ctx.app, otherReader, url(foreignSection.id), `/api/media/v1/sections/${foreignSection.id}`);
    expect(theirs.data).toMatchObject({ id: foreignSection.id, key: 'abroad' });
  });

  it('answers 404 section_not_found for a deleted section, one of a deleted issue, or an unknown one; 400 for a malformed id', async () => {
    await expectPublicNotFound(ctx.app, url(removedSection.id), 'section_not_found');
    await expectPublicNotFound(ctx.app, url(orphan.id), 'section_not_found');
    await expectPublicNotFound(ctx.app, url(randomUUID()), 'section_not_found');
    await expectPublicBadId(ctx.app, url('nope'));
  });

  it('shares its position in the path with the section contents route, each answering its own', async () => {
    const contents = await publicGet(ctx.app, url(features.id, '/contents'), `/api/media/v1/sections/${features.id}/contents`);
    expect(contents.statusCode, contents.body).toBe(200);
    expect(contents.json()).toEqual({ meta: expect.any(Object), data: [], assocs: {} });
  });
});
