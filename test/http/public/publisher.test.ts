import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { createProfile } from '../../setup/community.js';
import { createContent, docsFixture, short } from '../../setup/docs.js';
import type { Client } from '../../setup/factories.js';
import { type PublicMedia, expectPublicBadId, expectPublicNotFound, expectSameAsReader, publicGet, publicMedia } from '../../setup/public.js';

// The publisher rows of the Public API: records by media and by id, publications, RSS feeds
// (by id, and the media's list under /core), and the announcements, distributions and webpages of an organization.

let ctx: TestContext;
/** The media under test, and another one. */
let mine: PublicMedia;
let theirs: PublicMedia;
let org: { id: string };
let project: { id: string };
let person: { id: string };

beforeAll(async () => {
  ctx = await createTestApp({ rateLimit: { backoffice: 10_000, reader: 10_000, anonymous: 10_000, token: 10_000 } });
  mine = await publicMedia(ctx.app);
  theirs = await publicMedia(ctx.app);
  org = await createProfile(mine.editor, mine.community, 'organizations');
  project = await createProfile(mine.editor, mine.community, 'projects');
  person = await createProfile(mine.editor, mine.community, 'people');
});
afterAll(() => ctx?.close());

const PUBLIC = '/api/public/publisher/v2';
const READER = '/api/media/v1';
const ids = (body: { data: Array<{ id: string }> }) => body.data.map((r) => r.id);

const post = async (api: Client, url: string, body: Record<string, unknown>) => {
  const res = await api.post(url, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as Record<string, unknown> & { id: string };
};
const remove = async (api: Client, url: string) => expect((await api.delete(url)).statusCode).toBe(204);

const hour = 3_600_000;
const at = (offset: number) => new Date(Date.now() + offset).toISOString();
const announcement = (api: Client, body: Record<string, unknown> = {}) => post(api, '/publisher/v2/announcements', { locales: [{ locale: 'en', title: `A ${short()}` }], ...body });
const distribution = (api: Client, body: Record<string, unknown>) =>
  post(api, '/publisher/v2/distributions', { locales: [{ locale: 'en', title: 'Credits', role_names: [{ role: 'author', name: 'Author' }] }], ...body });
const release = (api: Client, body: Record<string, unknown>) => post(api, '/publisher/v2/releases', { released_on: '2026-05-01', locales: [{ locale: 'en', title: 'Album' }, { locale: 'fr', title: 'Disque' }], ...body });

/** A by-id twin: the Reader's answer, its successor link, another media's record served as that media's, 404 for hidden, deleted and unknown ones, 400 for a malformed id. */
async function byId(path: string, readerPath: string, record: string, foreign: string, hidden: string[], code: string) {
  const body = await expectSameAsReader(ctx.app, mine.reader, `${PUBLIC}/${path}/${record}?locale=fr`, `${READER}/${readerPath}/${record}?locale=fr`);
  expect(body.data.id).toBe(record);
  expect((await publicGet(ctx.app, `${PUBLIC}/${path}/${record}`, `${READER}/${readerPath}/${record}`)).statusCode).toBe(200);
  await expectSameAsReader(ctx.app, theirs.reader, `${PUBLIC}/${path}/${foreign}`, `${READER}/${readerPath}/${foreign}`);
  for (const missing of [...hidden, randomUUID()]) await expectPublicNotFound(ctx.app, `${PUBLIC}/${path}/${missing}`, code);
  await expectPublicBadId(ctx.app, `${PUBLIC}/${path}/not-a-uuid`);
  return body.data;
}

/** A by-media list: the Reader's list (same records, same order), its successor link, 404 for an unknown media, 400 for a malformed one. */
async function byMedia(path: string, readerPath: string | null, successor: string | null) {
  const url = `${PUBLIC}/medias/${mine.media.mediaId}/${path}?limit=100`;
  const res = await publicGet(ctx.app, url, successor ?? undefined);
  expect(res.statusCode, res.body).toBe(200);
  if (successor === null) expect(res.headers.link).toBeUndefined();
  const body = readerPath ? await expectSameAsReader(ctx.app, mine.reader, url, `${READER}/${readerPath}?limit=100`) : res.json();
  await expectPublicNotFound(ctx.app, `${PUBLIC}/medias/${randomUUID()}/${path}`, 'media_not_found');
  await expectPublicBadId(ctx.app, `${PUBLIC}/medias/not-a-uuid/${path}`);
  return body as { data: Array<Record<string, unknown> & { id: string }> };
}

describe('Public announcements', () => {
  it('lists and serves the announcements inside their window, as the Reader does', async () => {
    const older = await announcement(mine.editor, { organization_id: org.id, starts_at: at(-hour), ends_at: at(hour), link_url: 'https://example.com/a' });
    const newer = await announcement(mine.editor);
    const past = await announcement(mine.editor, { starts_at: at(-2 * hour), ends_at: at(-hour) });
    const future = await announcement(mine.editor, { starts_at: at(hour) });
    const gone = await announcement(mine.editor);
    await remove(mine.editor, `/publisher/v2/announcements/${gone.id}`);
    const foreign = await announcement(theirs.editor);

    const listed = ids(await byMedia('announcements', 'announcements', `${READER}/announcements`));
    expect(listed.indexOf(newer.id)).toBeLessThan(listed.indexOf(older.id));
    for (const absent of [past.id, future.id, gone.id, foreign.id]) expect(listed).not.toContain(absent);

    const one = await byId('announcements', 'announcements', older.id, foreign.id, [past.id, future.id, gone.id], 'announcement_not_found');
    expect(one).toMatchObject({ organization_id: org.id, link_url: 'https://example.com/a', localized: { locale: 'en', body_html: null } });
  });
});

describe('Public distributions and releases', () => {
  it('lists and serves them as the Reader does', async () => {
    const d1 = await distribution(mine.editor, { organization_id: org.id, project_id: project.id, entries: [{ role: 'author', profile_id: person.id }] });
    const d2 = await distribution(mine.editor, { organization_id: org.id, project_id: project.id });
    const dGone = await distribution(mine.editor, { organization_id: org.id, project_id: project.id });
    await remove(mine.editor, `/publisher/v2/distributions/${dGone.id}`);
    const otherOrg = await createProfile(theirs.editor, theirs.community, 'organizations');
    const otherProject = await createProfile(theirs.editor, theirs.community, 'projects');
    const dForeign = await distribution(theirs.editor, { organization_id: otherOrg.id, project_id: otherProject.id });

    const dList = ids(await byMedia('distributions', 'distributions', `${READER}/distributions`));
    expect(dList.indexOf(d2.id)).toBeLessThan(dList.indexOf(d1.id));
    for (const absent of [dGone.id, dForeign.id]) expect(dList).not.toContain(absent);
    const d = await byId('distributions', 'distributions', d1.id, dForeign.id, [dGone.id], 'distribution_not_found');
    expect(d).toMatchObject({ organization_id: org.id, project_id: project.id, event_id: null });

    const r1 = await release(mine.editor, { organization_id: org.id });
    const r2 = await release(mine.editor, { project_id: project.id });
    const rGone = await release(mine.editor, { organization_id: org.id });
    await remove(mine.editor, `/publisher/v2/releases/${rGone.id}`);
    const rForeign = await release(theirs.editor, { organization_id: otherOrg.id });
    const rList = ids(await byMedia('releases', 'releases', `${READER}/releases`));
    expect(rList.indexOf(r2.id)).toBeLessThan(rList.indexOf(r1.id));
    for (const absent of [rGone.id, rForeign.id]) expect(rList).not.toContain(absent);
    const r = await byId('releases', 'releases', r1.id, rForeign.id, [rGone.id], 'release_not_found');
    expect(r).toMatchObject({ organization_id: org.id, released_on: '2026-05-01', localized: { locale: 'fr', title: 'Disque' } });
  });
});

describe('Public media blocks', () => {
  it('serves a block by id as the Reader does', async () => {
    const block = await post(mine.editor, '/publisher/v2/media-blocks', {
      key: `b-${short()}`,
      locales: [{ locale: 'en', content_html: '<p>Hello</p>' }, { locale: 'fr', content_html: '<p>Bonjour</p>' }],
    });
    const gone = await post(mine.editor, '/publisher/v2/media-blocks', { key: `g-${short()}`, locales: [{ locale: 'en', content_html: 'g' }] });
    await remove(mine.editor, `/publisher/v2/media-blocks/${gone.id}`);
    const foreign = await post(theirs.editor, '/publisher/v2/media-blocks', { key: `f-${short()}`, locales: [{ locale: 'en', content_html: 'f' }] });
    const data = await byId('blocks', 'blocks', block.id, foreign.id, [gone.id], 'media_block_not_found');
    expect(data).toMatchObject({ key: block.key, localized: { locale: 'fr', content_html: '<p>Bonjour</p>', content_text: 'Bonjour' } });
  });
});

describe('Public publications (no Reader successor)', () => {
  it("lists the media's live publications newest first, in the Reader record shape, without a Link", async () => {
    const f = await docsFixture(mine.editor, mine.media.workspaceId);
    const content = await createContent(mine.editor, f);
    const p1 = await post(mine.editor, '/publisher/v2/publications', { content_id: content.id, channel: 'social', external_url: 'https://social.example/p/1', published_at: '2026-11-22T10:00:00Z' });
    const p2 = await post(mine.editor, '/publisher/v2/publications', { content_id: content.id, channel: 'web', published_at: '2026-11-22T11:00:00Z' });
    const gone = await post(mine.editor, '/publisher/v2/publications', { content_id: content.id, channel: 'app', published_at: '2026-11-22T11:00:00Z' });
    await remove(mine.editor, `/publisher/v2/publications/${gone.id}`);
    const body = await byMedia('publications', null, null);
    expect(ids(body)).toEqual([p2.id, p1.id]);
    expect(body.data[1]).toEqual({
      id: p1.id,
      content_id: content.id,
      channel: 'social',
      external_url: 'https://social.example/p/1',
      published_at: '2026-11-22T10:00:00.000Z',
      meta: { locales: { current: null, available: [], requested: null } },
      inserted_at: p1.inserted_at,
      updated_at: p1.updated_at,
    });
    const doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(doc.paths['/api/public/publisher/v2/medias/{media_id}/publications'].get.description).toMatch(/no Reader successor/);
  });
});

describe('Public RSS feeds', () => {
  it('serves a feed by id as the Reader does, and lists the media\'s feeds under /core', async () => {
    const feed = await post(mine.editor, '/publisher/v2/rss-feeds', { key: `feed-${short()}`, locales: [{ locale: 'en', title: 'News', description: 'All' }] });
    const second = await post(mine.editor, '/publisher/v2/rss-feeds', { key: `feed-${short()}`, limit: 5, locales: [{ locale: 'en', title: 'More' }] });
    const gone = await post(mine.editor, '/publisher/v2/rss-feeds', { key: `feed-${short()}`, locales: [{ locale: 'en', title: 'Gone' }] });
    await remove(mine.editor, `/publisher/v2/rss-feeds/${gone.id}`);
    const foreign = await post(theirs.editor, '/publisher/v2/rss-feeds', { key: `feed-${short()}`, locales: [{ locale: 'en', title: 'Theirs' }] });

    const res = await publicGet(ctx.app, `${PUBLIC}/rss/${feed.id}`, `${READER}/rss/${feed.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    const successor = await ctx.app.inject({ method: 'GET', url: `${READER}/rss/${feed.id}?media_id=${mine.media.mediaId}` });
    expect(res.body).toBe(successor.body);
    expect(res.body).toContain('<title>News</title>');
    const foreignFeed = await publicGet(ctx.app, `${PUBLIC}/rss/${foreign.id}`);
    expect(foreignFeed.body).toBe((await ctx.app.inject({ method: 'GET', url: `${READER}/rss/${foreign.id}?media_id=${theirs.media.mediaId}` })).body);
    for (const missing of [gone.id, randomUUID()]) await expectPublicNotFound(ctx.app, `${PUBLIC}/rss/${missing}`, 'rss_feed_not_found');
    await expectPublicBadId(ctx.app, `${PUBLIC}/rss/nope`);

    const url = `/api/public/core/v2/medias/${mine.media.mediaId}/feeds`;
    const list = await publicGet(ctx.app, url, `${READER}/rss/{id}`);
    expect(list.statusCode, list.body).toBe(200);
    expect(ids(list.json())).toEqual([second.id, feed.id]);
    expect(list.json().data[1]).toMatchObject({ id: feed.id, key: feed.key, limit: 20, category_ids: [], localized: { locale: 'en', title: 'News', description: 'All' } });
    expect(list.json().meta).toMatchObject({ locales: { current: 'en', available: ['en', 'fr'], requested: null } });
    await expectPublicNotFound(ctx.app, `/api/public/core/v2/medias/${randomUUID()}/feeds`, 'media_not_found');
    await expectPublicBadId(ctx.app, '/api/public/core/v2/medias/nope/feeds');
  });
});

describe('Public records of an organization', () => {
  it("lists an organization's announcements, distributions and webpages as the Reader lists them, filtered by the organization", async () => {
    const ours = await createProfile(mine.editor, mine.community, 'organizations');
    const otherOrg = await createProfile(mine.editor, mine.community, 'organizations');
    const draftOrg = await createProfile(mine.editor, mine.community, 'organizations', { profile: { status_id: mine.community.statuses.draft } });
    const foreignOrg = await createProfile(theirs.editor, theirs.community, 'organizations');
    const webpage = (api: Client, organization: string | null, status: string | undefined) =>
      post(api, '/publisher/v2/webpages', { key: `p-${short()}`, organization_id: organization, status_id: status, locales: [{ locale: 'en', title: 'P', body_html: '<p>P</p>' }] });

    const kept = {
      announcements: [await announcement(mine.editor, { organization_id: ours.id }), await announcement(mine.editor, { organization_id: ours.id })],
      distributions: [
        await distribution(mine.editor, { organization_id: ours.id, project_id: project.id }),
        await distribution(mine.editor, { organization_id: ours.id, project_id: project.id }),
      ],
      webpages: [await webpage(mine.editor, ours.id, mine.community.statuses.published), await webpage(mine.editor, ours.id, mine.community.statuses.published)],
    };
    const left = {
      announcements: [await announcement(mine.editor, { organization_id: otherOrg.id }), await announcement(mine.editor), await announcement(mine.editor, { organization_id: ours.id, starts_at: at(hour) })],
      distributions: [await distribution(mine.editor, { organization_id: otherOrg.id, project_id: project.id })],
      webpages: [await webpage(mine.editor, otherOrg.id, mine.community.statuses.published), await webpage(mine.editor, null, mine.community.statuses.published), await webpage(mine.editor, ours.id, mine.community.statuses.draft)],
    };
    const deleted = {
      announcements: await announcement(mine.editor, { organization_id: ours.id }),
      distributions: await distribution(mine.editor, { organization_id: ours.id, project_id: project.id }),
      webpages: await webpage(mine.editor, ours.id, mine.community.statuses.published),
    };
    for (const [name, record] of Object.entries(deleted)) await remove(mine.editor, `/publisher/v2/${name}/${record.id}`);
    const foreignProject = await createProfile(theirs.editor, theirs.community, 'projects');
    const foreign = {
      announcements: await announcement(theirs.editor, { organization_id: foreignOrg.id }),
      distributions: await distribution(theirs.editor, { organization_id: foreignOrg.id, project_id: foreignProject.id }),
      webpages: await webpage(theirs.editor, foreignOrg.id, theirs.community.statuses.published),
    };

    for (const name of ['announcements', 'distributions', 'webpages'] as const) {
      const url = `/api/public/community/v2/organizations/${ours.id}/${name}`;
      const res = await publicGet(ctx.app, `${url}?limit=100`, `${READER}/${name}`);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(ids(body), name).toEqual([kept[name][1]!.id, kept[name][0]!.id]);
      // The same records, in the same shape, as the Reader list (which holds every organization's).
      const all = (await mine.reader.get(`${READER}/${name}?limit=100`)).json();
      expect(body.data).toEqual(all.data.filter((r: { organization_id: string | null }) => r.organization_id === ours.id));
      expect(body.meta.locales).toEqual(all.meta.locales);
      expect(body.data[0]).toMatchObject({ id: kept[name][1]!.id, organization_id: ours.id });
      // Paging keeps the filter.
      const first = (await publicGet(ctx.app, `${url}?limit=1`)).json();
      expect(ids(first)).toEqual([kept[name][1]!.id]);
      const nextRes = await publicGet(ctx.app, first.meta.next);
      expect(nextRes.statusCode, `${first.meta.next} ${nextRes.body}`).toBe(200);
      const next = nextRes.json();
      expect(ids(next)).toEqual([kept[name][0]!.id]);

      // The media is the organization's: another media's organization lists that media's records.
      expect(ids((await publicGet(ctx.app, `/api/public/community/v2/organizations/${foreignOrg.id}/${name}`)).json())).toEqual([foreign[name].id]);
      expect(ids(await (async () => (await theirs.reader.get(`${READER}/${name}?limit=100`)).json())())).toContain(foreign[name].id);
      for (const absent of [...left[name], deleted[name]]) expect(ids(body)).not.toContain(absent.id);
      for (const missing of [draftOrg.id, person.id, randomUUID()]) {
        await expectPublicNotFound(ctx.app, `/api/public/community/v2/organizations/${missing}/${name}`, 'profile_not_found');
      }
      await expectPublicBadId(ctx.app, `/api/public/community/v2/organizations/nope/${name}`);
    }
  });
});
