import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { type CommunityFixture, type ProfileKindPath, communityFixture, createProfile, createProfileType } from '../../setup/community.js';
import { createContent, docsFixture, insertAssetImage } from '../../setup/docs.js';
import { ISO_MS, expectError } from '../../setup/expect.js';
import { type CategoryWire, type Client, type SeededMedia, client, createCategory, seedMedia } from '../../setup/factories.js';
import { clientToken, readerClient, registerClient } from '../../setup/reader.js';

let ctx: TestContext;
let media: SeededMedia;
let api: Client;
let f: CommunityFixture;
let reader: ReturnType<typeof readerClient>;
let science: CategoryWire;
let arts: CategoryWire;
let ada: { id: string };
let adam: { id: string };
let grace: { id: string };
let hidden: { id: string; type: string };
let face: { id: string; fileKey: string };

const ids = (res: { json: () => { data: Array<{ id: string }> } }) => res.json().data.map((p) => p.id);
const SEARCH = '/api/media/v1/community/people/search';

beforeAll(async () => {
  ctx = await createTestApp({ publicBaseUrl: 'https://api.example.test', rateLimit: { backoffice: 10_000, reader: 10_000, anonymous: 10_000, token: 10_000 } });
  media = await seedMedia(ctx.app, { locales: ['en', 'fr'] });
  api = client(ctx.app, media.keys.editor);
  f = await communityFixture(api, media.workspaceId);
  const token = (await clientToken(ctx.app, await registerClient(ctx.app, media.keys.admin, ['media:read']))).access_token;
  reader = readerClient(ctx.app, media.mediaId, token);
  science = await createCategory(api, { locales: [{ locale: 'en', name: 'Science' }] });
  arts = await createCategory(api, { locales: [{ locale: 'en', name: 'Arts' }] });
  face = await insertAssetImage(ctx.database.db, media.mediaId);
  ada = await createProfile(api, f, 'people', {
    first_name: 'Ada',
    last_name: 'Lovelace',
    profile: { profile_categories: [{ category_id: science.id }], canonical_url: 'https://news.example.test/ada' },
    profile_image_key: face.fileKey,
    contact: [{ locale: 'en', email: 'ada@example.test', phone: '+44' }],
    locales: [
      { locale: 'en', summary_html: '<p>Mathematician and writer</p>' },
      { locale: 'fr', summary_html: '<p>Mathématicienne</p>' },
    ],
  });
  await api.put(`/community/v2/people/${ada.id}/metadata`, { metadata: [{ key: 'field', value: 'analytical engine' }] });
  adam = await createProfile(api, f, 'people', {
    first_name: 'Adam',
    last_name: 'Smith',
    profile: { profile_categories: [{ category_id: arts.id }] },
    locales: [{ locale: 'en', summary_html: 'Economist, mentions Ada Lovelace once' }],
  });
  grace = await createProfile(api, f, 'people', { first_name: 'Grace', last_name: 'Hopper', locales: [{ locale: 'en', summary_html: 'Admiral' }] });
  // Never on the Reader: a draft and a deleted one, both matching "Ada".
  await createProfile(api, f, 'people', { first_name: 'Ada', last_name: 'Draft', profile: { status_id: f.statuses.draft }, locales: [{ locale: 'en' }] });
  const deleted = await createProfile(api, f, 'people', { first_name: 'Ada', last_name: 'Deleted', locales: [{ locale: 'en' }] });
  await api.delete(`/community/v2/people/${deleted.id}`);
  const noPhone = await createProfileType(api, 'people', { has_phone: false });
  hidden = { ...(await createProfile(api, f, 'people', { first_name: 'Hedy', last_name: 'Lamarr', contact: [{ locale: 'en', email: 'h@l.test' }], locales: [{ locale: 'en' }] })), type: noPhone.id };
  await api.patch(`/community/v2/people/${hidden.id}`, { contact: [{ locale: 'en', email: 'h@l.test', phone: '+1' }] });
  await api.post(`/community/v2/people/${hidden.id}/profile-type/switch`, { profile_type_id: noPhone.id });
});
afterAll(() => ctx.close());

describe('GET /api/media/v1/community/people/search (spec 4.1)', () => {
  it('answers spec 2.3 results with 2.4 and 2.5 assocs, ranked: names before summaries', async () => {
    const res = await reader.get(`${SEARCH}?q=Lovelace&locale=en`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(ids(res)).toEqual([ada.id, adam.id]);
    expect(body.data[0]).toEqual({
      id: ada.id,
      profile_type_id: f.types.people,
      kind: 'person',
      first_name: 'Ada',
      last_name: 'Lovelace',
      other_name: null,
      pronoun: null,
      summary_html: '<p>Mathematician and writer</p>',
      summary_text: 'Mathematician and writer',
      canonical_url: 'https://news.example.test/ada',
      canonical_domain: 'news.example.test',
      profile_image_url: `https://api.example.test/assets/${face.fileKey}`,
      cover_image_url: null,
      contact: {
        email: 'ada@example.test',
        phone: '+44',
        facebook: null,
        linkedin: null,
        instagram: null,
        twitter: null,
        bluesky: null,
        website: null,
        meta: { locales: { current: 'en', available: ['en'], requested: 'en' } },
      },
      category_ids: [science.id],
      metadata: [{ key: 'field', value: 'analytical engine' }],
      meta: { locales: { current: 'en', available: ['en', 'fr'], requested: 'en' } },
      updated_at: expect.stringMatching(ISO_MS),
    });
    expect(body.assocs.categories.map((c: { id: string }) => c.id).sort()).toEqual([science.id, arts.id].sort());
    expect(body.assocs.categories.find((c: { id: string }) => c.id === science.id)).toMatchObject({ id: science.id, name: 'Science', meta: expect.any(Object), updated_at: expect.stringMatching(ISO_MS) });
    expect(body.assocs.profile_types).toEqual([
      expect.objectContaining({ id: f.types.people, kind: 'person', has_phone: true, metadata: [], meta: { locales: { current: 'en', available: ['en', 'fr'], requested: 'en' } } }),
    ]);
    expect(body.meta).toMatchObject({ base: expect.stringContaining(SEARCH), next: null, previous: null, locales: { current: 'en', available: ['en', 'fr'], requested: 'en' } });
  });

  it('tolerates a typo ("Ada Lovelase"), matches metadata values and summaries per language', async () => {
    expect(ids(await reader.get(`${SEARCH}?q=${encodeURIComponent('Ada Lovelase')}`))[0]).toBe(ada.id);
    expect(ids(await reader.get(`${SEARCH}?q=analytical`))).toEqual([ada.id]);
    expect(ids(await reader.get(`${SEARCH}?q=Mathématicienne&locale=fr`))).toEqual([ada.id]);
    const fr = (await reader.get(`${SEARCH}?q=Lovelace&locale=fr`)).json().data[0];
    expect(fr.summary_text).toBe('Mathématicienne');
  });

  it('filters by categories and profile types (any of), alone or with q; never unpublished or deleted ones', async () => {
    expect(ids(await reader.get(`${SEARCH}?q=Lovelace&category_ids[]=${arts.id}`))).toEqual([adam.id]);
    expect(ids(await reader.get(`${SEARCH}?category_ids[]=${arts.id}&category_ids[]=${science.id}`)).sort()).toEqual([ada.id, adam.id].sort());
    expect(ids(await reader.get(`${SEARCH}?profile_type_ids[]=${hidden.type}`))).toEqual([hidden.id]);
    expect(ids(await reader.get(`${SEARCH}?q=Ada&profile_type_ids[]=${hidden.type}`))).toEqual([]);
    const all = ids(await reader.get(`${SEARCH}?q=Ada&limit=100`));
    expect(all).toContain(ada.id);
    const everyone = ids(await reader.get('/api/media/v1/community/people?limit=100'));
    expect(everyone.sort()).toEqual([ada.id, adam.id, grace.id, hidden.id].sort());
    for (const q of ['Draft', 'Deleted']) expect(ids(await reader.get(`${SEARCH}?q=${q}`))).toEqual([]);
  });

  it('hides contact fields the profile type does not allow', async () => {
    const person = (await reader.get(`${SEARCH}?q=Lamarr`)).json().data[0];
    expect(person.id).toBe(hidden.id);
    expect(person.contact).not.toHaveProperty('phone');
    expect(person.contact.email).toBe('h@l.test');
  });

  it('pages by cursor through ranked results without duplicates or gaps', async () => {
    const many = [];
    for (let i = 0; i < 7; i++) many.push((await createProfile(api, f, 'people', { first_name: 'Paging', last_name: `Person${i}`, locales: [{ locale: 'en', summary_html: i % 2 ? 'paging paging' : 'other' }] })).id);
    const whole = ids(await reader.get(`${SEARCH}?q=paging&limit=100`));
    expect(whole.sort()).toEqual([...many].sort());
    const seen: string[] = [];
    let url: string | null = `${SEARCH}?q=paging&limit=3`;
    while (url) {
      const res = await reader.get(url.replace('https://api.example.test', ''));
      expect(res.statusCode, res.body).toBe(200);
      seen.push(...ids(res));
      url = res.json().meta.next;
    }
    expect(seen).toEqual(ids(await reader.get(`${SEARCH}?q=paging&limit=100`)));
    expect(new Set(seen).size).toBe(7);
    expectError(await reader.get(`${SEARCH}?q=paging&after=garbage`), 400, 'invalid_cursor');
    expectError(await reader.get(`${SEARCH}?q=`), 400);
    expectError(await reader.get(`${SEARCH}?q=${'x'.repeat(201)}`), 400);
  });
});

describe('each kind on the Reader: paginated, search, by id, block by id', () => {
  it.each<ProfileKindPath>(['events', 'organizations', 'projects', 'people'])('%s', async (kind) => {
    const rec = await createProfile(api, f, kind, {
      locales: [{ locale: 'en', summary_html: 'Zyzzyva summary' }],
      description: [{ locale: 'en', blocks: [{ kind: 'richtext', content_html: '<p>About</p>' }] }],
      address: [{ locale: 'en', city: 'Lyon' }],
    });
    const draft = await createProfile(api, f, kind, { profile: { status_id: f.statuses.draft }, locales: [{ locale: 'en', summary_html: 'Zyzzyva draft' }] });
    const base = `/api/media/v1/community/${kind}`;
    expect(ids(await reader.get(`${base}?limit=100`))).toContain(rec.id);
    expect(ids(await reader.get(`${base}?limit=100`))).not.toContain(draft.id);
    expect(ids(await reader.get(`${base}/search?q=Zyzzyva`))).toEqual([rec.id]);
    const one = await reader.get(`${base}/${rec.id}?locale=en`);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().data).toMatchObject({
      id: rec.id,
      summary_text: 'Zyzzyva summary',
      description_blocks: [{ kind: 'richtext', content_html: '<p>About</p>', position: 0 }],
      address: { city: 'Lyon', meta: { locales: { current: 'en', available: ['en'], requested: 'en' } } },
      blocks: [],
    });
    expectError(await reader.get(`${base}/${draft.id}`), 404, 'profile_not_found');
    const docs = await docsFixture(api, media.workspaceId);
    const content = await createContent(api, docs);
    const block = (await api.put(`/community/v2/${kind}/${rec.id}/blocks`, { blocks: [{ key: 'news', locales: [{ locale: 'en', title: 'News' }, { locale: 'fr', title: 'Actualités' }] }] })).json().data[0];
    await api.put(`/community/v2/${kind}/${rec.id}/blocks/${block.id}/entries`, { entries: [{ content_id: content.id }] });
    const got = await reader.get(`${base}/${rec.id}/blocks/${block.id}?locale=fr`);
    expect(got.json()).toEqual({ data: { id: block.id, key: 'news', position: 0, title: 'Actualités', entries: [{ id: expect.any(String), content_id: content.id, relation_id: null }] } });
    expectError(await reader.get(`${base}/${rec.id}/blocks/${randomUUID()}`), 404, 'block_not_found');
    // Readers see only what they may: no entry of a draft content, no relation to a draft or deleted profile.
    const draftContent = await createContent(api, docs, { status_id: docs.statuses.draft });
    const gone = await createProfile(api, f, 'people', { locales: [{ locale: 'en' }] });
    await api.put(`/community/v2/${kind}/${rec.id}/blocks/${block.id}/entries`, {
      entries: [
        { content_id: content.id, relation_id: ada.id },
        { content_id: draftContent.id, relation_id: ada.id },
        { content_id: content.id, relation_id: draft.id },
        { content_id: content.id, relation_id: gone.id },
      ],
    });
    await api.delete(`/community/v2/people/${gone.id}`);
    const shown = await reader.get(`${base}/${rec.id}/blocks/${block.id}?locale=en`);
    expect(shown.json().data.entries).toEqual([
      { id: expect.any(String), content_id: content.id, relation_id: ada.id },
      { id: expect.any(String), content_id: content.id, relation_id: null },
      { id: expect.any(String), content_id: content.id, relation_id: null },
    ]);
    // The Backoffice still sees every entry as written.
    const all = (await api.get(`/community/v2/${kind}/${rec.id}/blocks/${block.id}/entries`)).json().data;
    expect(all.map((e: { content_id: string; relation_id: string | null }) => [e.content_id, e.relation_id])).toEqual([
      [content.id, ada.id],
      [draftContent.id, ada.id],
      [content.id, draft.id],
      [content.id, gone.id],
    ]);
    // Deleted: gone from every read.
    await api.delete(`/community/v2/${kind}/${rec.id}`);
    expectError(await reader.get(`${base}/${rec.id}`), 404);
    expect(ids(await reader.get(`${base}/search?q=Zyzzyva`))).toEqual([]);
  });

  it('another media never sees them', async () => {
    const other = await seedMedia(ctx.app);
    const token = (await clientToken(ctx.app, await registerClient(ctx.app, other.keys.admin, ['media:read']))).access_token;
    const stranger = readerClient(ctx.app, other.mediaId, token);
    expect(ids(await stranger.get('/api/media/v1/community/people?limit=100'))).toEqual([]);
    expect(ids(await stranger.get(`${SEARCH}?q=Lovelace`))).toEqual([]);
  });
});
