import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { type CommunityFixture, communityFixture, createProfile } from '../../setup/community.js';
import { short } from '../../setup/docs.js';
import { ISO_MS, expectError } from '../../setup/expect.js';
import { type Client, type SeededMedia, client, seedMedia } from '../../setup/factories.js';
import { clientToken, readerClient, registerClient } from '../../setup/reader.js';

let ctx: TestContext;
let media: SeededMedia;
let editor: Client;
let community: CommunityFixture;
let reader: ReturnType<typeof readerClient>;

beforeAll(async () => {
  ctx = await createTestApp({ publicBaseUrl: 'https://api.example.test' });
  media = await seedMedia(ctx.app, { locales: ['en', 'fr'] });
  editor = client(ctx.app, media.keys.editor);
  community = await communityFixture(editor, media.workspaceId);
  const token = (await clientToken(ctx.app, await registerClient(ctx.app, media.keys.admin, ['media:read']))).access_token;
  reader = readerClient(ctx.app, media.mediaId, token);
});
afterAll(() => ctx?.close());

const post = async (url: string, body: Record<string, unknown>) => {
  const res = await editor.post(url, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
};
const ids = (res: Awaited<ReturnType<Client['get']>>) => (res.json().data as Array<{ id: string }>).map((r) => r.id);

describe('Reader webpages', () => {
  it('lists and serves webpages in a published status only, by key or by id, in the asked language', async () => {
    const k = `about-${short()}`;
    const page = await post('/publisher/v2/webpages', {
      key: k,
      status_id: community.statuses.published,
      locales: [
        { locale: 'en', title: 'About', body_html: '<p>About us</p>' },
        { locale: 'fr', title: 'À propos', body_html: '<p>Nous</p>', seo: { description: 'Qui' } },
      ],
    });
    const draft = await post('/publisher/v2/webpages', { key: `draft-${short()}`, status_id: community.statuses.draft, locales: [{ locale: 'en', title: 'D', body_html: 'd' }] });

    const byKey = await reader.get(`/api/media/v1/webpages/${k}?locale=fr`);
    expect(byKey.statusCode, byKey.body).toBe(200);
    expect(byKey.json().data).toEqual({
      id: page.id,
      key: k,
      organization_id: null,
      status_id: community.statuses.published,
      localized: { id: page.locales[1].id, locale: 'fr', title: 'À propos', body_html: '<p>Nous</p>', body_text: 'Nous', seo: { title: null, description: 'Qui' } },
      meta: { locales: { current: 'fr', available: ['en', 'fr'], requested: 'fr' } },
      inserted_at: page.inserted_at,
      updated_at: page.updated_at,
    });
    expect((await reader.get(`/api/media/v1/webpages/${page.id}`)).json().data.localized.locale).toBe('en');
    expectError(await reader.get(`/api/media/v1/webpages/${draft.key}`), 404, 'webpage_not_found');
    expectError(await reader.get(`/api/media/v1/webpages/${draft.id}`), 404, 'webpage_not_found');

    const list = await reader.get('/api/media/v1/webpages?limit=100');
    expect(list.statusCode).toBe(200);
    expect(ids(list)).toContain(page.id);
    expect(ids(list)).not.toContain(draft.id);
    expect(list.json().meta).toEqual({
      base: 'https://api.example.test/api/media/v1/webpages?limit=100',
      next: null,
      previous: null,
      locales: { current: 'en', available: ['en', 'fr'], requested: null },
    });
  });
});

describe('Reader announcements', () => {
  it('shows announcements inside their display window only', async () => {
    const hour = 3_600_000;
    const at = (ms: number) => new Date(Date.now() + ms).toISOString();
    const now = await post('/publisher/v2/announcements', { starts_at: at(-hour), ends_at: at(hour), locales: [{ locale: 'en', title: 'Now' }] });
    const open = await post('/publisher/v2/announcements', { locales: [{ locale: 'en', title: 'Always' }] });
    const past = await post('/publisher/v2/announcements', { starts_at: at(-2 * hour), ends_at: at(-hour), locales: [{ locale: 'en', title: 'Past' }] });
    const future = await post('/publisher/v2/announcements', { starts_at: at(hour), locales: [{ locale: 'en', title: 'Soon' }] });

    const listed = ids(await reader.get('/api/media/v1/announcements?limit=100'));
    expect(listed).toEqual(expect.arrayContaining([now.id, open.id]));
    expect(listed).not.toContain(past.id);
    expect(listed).not.toContain(future.id);
    const one = (await reader.get(`/api/media/v1/announcements/${now.id}`)).json().data;
    expect(one).toMatchObject({ id: now.id, starts_at: now.starts_at, ends_at: now.ends_at, localized: { title: 'Now', body_html: null } });
    expectError(await reader.get(`/api/media/v1/announcements/${future.id}`), 404, 'announcement_not_found');
    expectError(await reader.get(`/api/media/v1/announcements/${past.id}`), 404, 'announcement_not_found');
  });
});

describe('Reader releases and distributions', () => {
  it('lists and serves releases and distributions, deleted ones gone', async () => {
    const org = await createProfile(editor, community, 'organizations');
    const project = await createProfile(editor, community, 'projects');
    const person = await createProfile(editor, community, 'people');
    const release = await post('/publisher/v2/releases', {
      organization_id: org.id,
      released_on: '2026-05-01',
      locales: [{ locale: 'en', title: 'Album' }, { locale: 'fr', title: 'Disque' }],
    });
    const gone = await post('/publisher/v2/releases', { organization_id: org.id, released_on: '2026-05-02', locales: [{ locale: 'en', title: 'Gone' }] });
    await editor.delete(`/publisher/v2/releases/${gone.id}`);
    const r = (await reader.get(`/api/media/v1/releases/${release.id}?locale=fr`)).json().data;
    expect(r).toEqual({
      id: release.id,
      organization_id: org.id,
      project_id: null,
      released_on: '2026-05-01',
      cover_image_key: null,
      links: [],
      localized: { id: release.locales[1].id, locale: 'fr', title: 'Disque', description_html: null, description_text: null },
      meta: { locales: { current: 'fr', available: ['en', 'fr'], requested: 'fr' } },
      inserted_at: expect.stringMatching(ISO_MS),
      updated_at: release.updated_at,
    });
    const releases = ids(await reader.get('/api/media/v1/releases?limit=100'));
    expect(releases).toContain(release.id);
    expect(releases).not.toContain(gone.id);
    expectError(await reader.get(`/api/media/v1/releases/${gone.id}`), 404, 'release_not_found');

    const d = await post('/publisher/v2/distributions', {
      organization_id: org.id,
      project_id: project.id,
      entries: [{ role: 'author', profile_id: person.id }],
      locales: [{ locale: 'en', title: 'Credits', role_names: [{ role: 'author', name: 'Author' }] }],
    });
    const dist = (await reader.get(`/api/media/v1/distributions/${d.id}`)).json().data;
    expect(dist).toMatchObject({
      id: d.id,
      organization_id: org.id,
      project_id: project.id,
      event_id: null,
      entries: [{ id: d.entries[0].id, position: 0, role: 'author', profile_id: person.id }],
      localized: { locale: 'en', title: 'Credits', role_names: [{ role: 'author', name: 'Author' }] },
    });
    expect(ids(await reader.get('/api/media/v1/distributions'))).toContain(d.id);
    const foreign = await seedMedia(ctx.app);
    const foreignToken = (await clientToken(ctx.app, await registerClient(ctx.app, foreign.keys.admin, ['media:read']))).access_token;
    expectError(await readerClient(ctx.app, foreign.mediaId, foreignToken).get(`/api/media/v1/distributions/${d.id}`), 404, 'distribution_not_found');
  });
});
