import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { type CommunityFixture, communityFixture, createProfile } from '../../setup/community.js';
import { createContent, docsFixture, short } from '../../setup/docs.js';
import { ISO_MS, UUID, expectError } from '../../setup/expect.js';
import { type Client, type SeededMedia, client, seedMedia } from '../../setup/factories.js';

let ctx: TestContext;
let media: SeededMedia;
let other: SeededMedia;
let editor: Client;
let foreignEditor: Client;
let community: CommunityFixture;
let foreignCommunity: CommunityFixture;

beforeAll(async () => {
  ctx = await createTestApp();
  media = await seedMedia(ctx.app);
  other = await seedMedia(ctx.app);
  editor = client(ctx.app, media.keys.editor);
  foreignEditor = client(ctx.app, other.keys.editor);
  community = await communityFixture(editor, media.workspaceId);
  foreignCommunity = await communityFixture(foreignEditor, other.workspaceId);
});
afterAll(() => ctx?.close());

const created = async (res: Awaited<ReturnType<Client['post']>>) => {
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
};

describe('webpages', () => {
  it('creates, reads, updates, deletes and restores a webpage with its locales; checks its organization and status', async () => {
    const org = await createProfile(editor, community, 'organizations');
    const k = `about-${short()}`;
    const page = await created(
      await editor.post('/publisher/v2/webpages', {
        key: k,
        organization_id: org.id,
        status_id: community.statuses.published,
        locales: [{ locale: 'en', title: 'About', body_html: '<p>We <em>are</em><img src=x onerror=alert(1)></p>', seo: { title: 'About us' } }],
      }),
    );
    expect(page).toEqual({
      id: expect.stringMatching(UUID),
      key: k,
      organization_id: org.id,
      status_id: community.statuses.published,
      locales: [
        {
          id: expect.stringMatching(UUID),
          locale: 'en',
          title: 'About',
          body_html: '<p>We <em>are</em><img src="x" /></p>',
          body_text: 'We are',
          seo: { title: 'About us', description: null },
          deleted_at: null,
        },
      ],
      inserted_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
      deleted_at: null,
    });
    expect((await editor.get(`/publisher/v2/webpages/${page.id}`)).json().data).toEqual(page);
    expectError(
      await editor.post('/publisher/v2/webpages', { key: k, status_id: community.statuses.draft, locales: [{ locale: 'en', title: 'X', body_html: 'x' }] }),
      409,
      'webpage_key_taken',
    );

    const patched = (await editor.patch(`/publisher/v2/webpages/${page.id}`, { organization_id: null, status_id: community.statuses.draft })).json().data;
    expect(patched).toMatchObject({ organization_id: null, status_id: community.statuses.draft, locales: page.locales });

    expect((await editor.delete(`/publisher/v2/webpages/${page.id}`)).statusCode).toBe(204);
    expectError(await editor.get(`/publisher/v2/webpages/${page.id}`), 404, 'webpage_not_found');
    const restored = (await editor.post(`/publisher/v2/webpages/${page.id}/restore`)).json().data;
    expect(restored).toMatchObject({ deleted_at: null, locales: [{ id: page.locales[0].id, deleted_at: null }] });
  });

  it("refuses another media's organization or status, a deleted organization (404 naming the field)", async () => {
    const foreignOrg = await createProfile(foreignEditor, foreignCommunity, 'organizations');
    const body = (extra: Record<string, unknown>) => ({
      key: `p-${short()}`,
      status_id: community.statuses.published,
      locales: [{ locale: 'en', title: 'T', body_html: 'b' }],
      ...extra,
    });
    const res = expectError(await editor.post('/publisher/v2/webpages', body({ organization_id: foreignOrg.id })), 404, 'organization_not_found');
    expect(res.details).toEqual([{ path: 'organization_id', message: 'is not a live record of this media' }]);
    expectError(await editor.post('/publisher/v2/webpages', body({ status_id: foreignCommunity.statuses.published })), 404, 'status_not_found');
    const person = await createProfile(editor, community, 'people');
    expectError(await editor.post('/publisher/v2/webpages', body({ organization_id: person.id })), 404, 'organization_not_found');
    const gone = await createProfile(editor, community, 'organizations');
    expect((await editor.delete(`/community/v2/organizations/${gone.id}`)).statusCode).toBe(204);
    expectError(await editor.post('/publisher/v2/webpages', body({ organization_id: gone.id })), 404, 'organization_not_found');
  });
});

describe('announcements', () => {
  it('keeps a display window (ends after starts, on create and on update) and an optional organization', async () => {
    const org = await createProfile(editor, community, 'organizations');
    const a = await created(
      await editor.post('/publisher/v2/announcements', {
        organization_id: org.id,
        starts_at: '2026-01-01T10:00:00+01:00',
        ends_at: '2036-01-01T00:00:00Z',
        link_url: 'https://example.com/x',
        locales: [{ locale: 'en', title: 'Hello', body_html: '<p>Body</p>' }],
      }),
    );
    expect(a).toMatchObject({
      organization_id: org.id,
      starts_at: '2026-01-01T09:00:00.000Z',
      ends_at: '2036-01-01T00:00:00.000Z',
      link_url: 'https://example.com/x',
      locales: [{ locale: 'en', title: 'Hello', body_html: '<p>Body</p>', body_text: 'Body' }],
    });
    expectError(
      await editor.post('/publisher/v2/announcements', { starts_at: '2026-02-01T00:00:00Z', ends_at: '2026-01-01T00:00:00Z', locales: [{ locale: 'en', title: 'X' }] }),
      400,
      'validation_failed',
    );
    expectError(await editor.patch(`/publisher/v2/announcements/${a.id}`, { ends_at: '2025-01-01T00:00:00Z' }), 400, 'validation_failed');
    const open = (await editor.patch(`/publisher/v2/announcements/${a.id}`, { starts_at: null, ends_at: null, locales: [{ locale: 'en', title: 'Hi', body_html: null }] })).json().data;
    expect(open).toMatchObject({ starts_at: null, ends_at: null, locales: [{ title: 'Hi', body_html: null, body_text: null }] });
  });
});

describe('releases', () => {
  it('belongs to a live organization or project of the media, with a date, links and localized description', async () => {
    const project = await createProfile(editor, community, 'projects');
    const r = await created(
      await editor.post('/publisher/v2/releases', {
        project_id: project.id,
        released_on: '2026-03-15',
        cover_image_key: 'cover.jpg',
        links: [{ label: 'Shop', url: 'https://shop.example.com/book' }],
        locales: [{ locale: 'en', title: 'The book', description_html: '<p>A <b>book</b></p>' }],
      }),
    );
    expect(r).toMatchObject({
      organization_id: null,
      project_id: project.id,
      released_on: '2026-03-15',
      cover_image_key: 'cover.jpg',
      links: [{ label: 'Shop', url: 'https://shop.example.com/book' }],
      locales: [{ title: 'The book', description_html: '<p>A <b>book</b></p>', description_text: 'A book' }],
    });
    expect((await editor.get(`/publisher/v2/releases/${r.id}`)).json().data).toEqual(r);
    expectError(await editor.post('/publisher/v2/releases', { released_on: '2026-03-15', locales: [{ locale: 'en', title: 'X' }] }), 400, 'validation_failed');
    expectError(await editor.post('/publisher/v2/releases', { released_on: '2026-02-30', project_id: project.id, locales: [{ locale: 'en', title: 'X' }] }), 400, 'validation_failed');
    const foreignOrg = await createProfile(foreignEditor, foreignCommunity, 'organizations');
    expectError(
      await editor.post('/publisher/v2/releases', { released_on: '2026-03-15', organization_id: foreignOrg.id, locales: [{ locale: 'en', title: 'X' }] }),
      404,
      'organization_not_found',
    );
    expectError(await editor.patch(`/publisher/v2/releases/${r.id}`, { project_id: randomUUID() }), 404, 'project_not_found');
  });
});

describe('distributions', () => {
  it('credits people of an event in order, with role names per locale; entries sent back keep their ids', async () => {
    const org = await createProfile(editor, community, 'organizations');
    const event = await createProfile(editor, community, 'events');
    const [ada, bob] = [await createProfile(editor, community, 'people'), await createProfile(editor, community, 'people')];
    const d = await created(
      await editor.post('/publisher/v2/distributions', {
        organization_id: org.id,
        event_id: event.id,
        entries: [
          { role: 'director', profile_id: ada.id },
          { role: 'actor', profile_id: bob.id },
        ],
        locales: [
          { locale: 'en', title: 'Cast', role_names: [{ role: 'director', name: 'Director' }, { role: 'actor', name: 'Actor' }] },
          { locale: 'fr', role_names: [{ role: 'director', name: 'Mise en scène' }] },
        ],
      }),
    );
    expect(d).toMatchObject({
      organization_id: org.id,
      event_id: event.id,
      project_id: null,
      entries: [
        { id: expect.stringMatching(UUID), position: 0, role: 'director', profile_id: ada.id },
        { id: expect.stringMatching(UUID), position: 1, role: 'actor', profile_id: bob.id },
      ],
      locales: [
        { locale: 'en', title: 'Cast', role_names: [{ role: 'director', name: 'Director' }, { role: 'actor', name: 'Actor' }] },
        { locale: 'fr', title: null, role_names: [{ role: 'director', name: 'Mise en scène' }] },
      ],
    });
    const reordered = (
      await editor.patch(`/publisher/v2/distributions/${d.id}`, { entries: [{ id: d.entries[1].id, role: 'lead', profile_id: bob.id }, { id: d.entries[0].id, role: 'director', profile_id: ada.id }] })
    ).json().data;
    expect(reordered.entries).toEqual([
      { id: d.entries[1].id, position: 0, role: 'lead', profile_id: bob.id },
      { id: d.entries[0].id, position: 1, role: 'director', profile_id: ada.id },
    ]);
    expectError(await editor.patch(`/publisher/v2/distributions/${d.id}`, { entries: [{ id: randomUUID(), role: 'x', profile_id: ada.id }] }), 400, 'validation_failed');
  });

  it('needs exactly one of event_id and project_id, and live records of the media (404 naming the field)', async () => {
    const org = await createProfile(editor, community, 'organizations');
    const event = await createProfile(editor, community, 'events');
    const project = await createProfile(editor, community, 'projects');
    expectError(await editor.post('/publisher/v2/distributions', { organization_id: org.id, locales: [{ locale: 'en' }] }), 400, 'validation_failed');
    expectError(await editor.post('/publisher/v2/distributions', { organization_id: org.id, event_id: event.id, project_id: project.id, locales: [{ locale: 'en' }] }), 400, 'validation_failed');
    expectError(await editor.post('/publisher/v2/distributions', { organization_id: org.id, event_id: project.id, locales: [{ locale: 'en' }] }), 404, 'event_not_found');
    expectError(await editor.post('/publisher/v2/distributions', { organization_id: event.id, project_id: project.id, locales: [{ locale: 'en' }] }), 404, 'organization_not_found');
    const foreignPerson = await createProfile(foreignEditor, foreignCommunity, 'people');
    const res = expectError(
      await editor.post('/publisher/v2/distributions', { organization_id: org.id, project_id: project.id, entries: [{ role: 'x', profile_id: foreignPerson.id }], locales: [{ locale: 'en' }] }),
      404,
      'person_not_found',
    );
    expect(res.details).toEqual([{ path: 'entries.0.profile_id', message: 'is not a live record of this media' }]);
  });
});

describe('publications', () => {
  it('records a content published on an outside channel: create, by id, list, remove (no update)', async () => {
    const f = await docsFixture(editor, media.workspaceId);
    const content = await createContent(editor, f);
    const p = await created(
      await editor.post('/publisher/v2/publications', { content_id: content.id, channel: 'social', external_url: 'https://social.example/p/1', published_at: '2026-11-22T10:00:00+02:00' }),
    );
    expect(p).toEqual({
      id: expect.stringMatching(UUID),
      content_id: content.id,
      channel: 'social',
      external_url: 'https://social.example/p/1',
      published_at: '2026-11-22T08:00:00.000Z',
      inserted_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
      deleted_at: null,
    });
    expect((await editor.get(`/publisher/v2/publications/${p.id}`)).json().data).toEqual(p);
    expect((await editor.get('/publisher/v2/publications')).json().data.map((x: { id: string }) => x.id)).toContain(p.id);
    expect((await editor.patch(`/publisher/v2/publications/${p.id}`, { channel: 'web' })).statusCode).toBe(404);
    expectError(await editor.post('/publisher/v2/publications', { content_id: content.id, channel: 'fax', published_at: '2026-11-22T10:00:00Z' }), 400, 'validation_failed');
    const foreign = await createContent(foreignEditor, await docsFixture(foreignEditor, other.workspaceId));
    expectError(await editor.post('/publisher/v2/publications', { content_id: foreign.id, channel: 'web', published_at: '2026-11-22T10:00:00Z' }), 404, 'content_not_found');
    expect((await editor.delete(`/publisher/v2/publications/${p.id}`)).statusCode).toBe(204);
    expectError(await editor.get(`/publisher/v2/publications/${p.id}`), 404, 'publication_not_found');
  });
});

describe('topics: update, delete, restore', () => {
  it('updates a topic, soft-deletes it (gone from lists and reads), lets its key be taken, and restores it unless the key is taken', async () => {
    const t = (await editor.post('/publisher/v2/topics', { key: `t-${short()}`, name: 'Old' })).json().data;
    const updated = await editor.patch(`/publisher/v2/topics/${t.id}`, { name: 'New', description: 'About' });
    expect(updated.json().data).toEqual({ ...t, name: 'New', description: 'About', updated_at: expect.stringMatching(ISO_MS), deleted_at: null });
    expect((await editor.delete(`/publisher/v2/topics/${t.id}`)).statusCode).toBe(204);
    expectError(await editor.get(`/publisher/v2/topics/${t.id}`), 404, 'topic_not_found');
    expect((await editor.get('/publisher/v2/topics?limit=100')).json().data.map((x: { id: string }) => x.id)).not.toContain(t.id);
    const restored = await editor.post(`/publisher/v2/topics/${t.id}/restore`);
    expect(restored.json().data).toMatchObject({ id: t.id, name: 'New', deleted_at: null });
    await editor.delete(`/publisher/v2/topics/${t.id}`);
    expect((await editor.post('/publisher/v2/topics', { key: t.key, name: 'Again' })).statusCode).toBe(201);
    expectError(await editor.post(`/publisher/v2/topics/${t.id}/restore`), 409, 'topic_exists');
    const other2 = (await editor.post('/publisher/v2/topics', { key: `t-${short()}`, name: 'Two' })).json().data;
    expectError(await editor.patch(`/publisher/v2/topics/${other2.id}`, { key: t.key }), 409, 'topic_exists');
    expectError(await foreignEditor.patch(`/publisher/v2/topics/${other2.id}`, { name: 'Mine' }), 404, 'topic_not_found');
  });
});

describe('every publisher record: by id, update, delete and restore', () => {
  // Each collection's smallest valid body, and an update of one of its own fields.
  const RECORDS: Array<{ path: string; notFound: string; body: () => Promise<Record<string, unknown>>; update: Record<string, unknown> }> = [
    {
      path: 'announcements',
      notFound: 'announcement_not_found',
      body: async () => ({ link_url: 'https://example.com/a', locales: [{ locale: 'en', title: 'Hello' }] }),
      update: { link_url: 'https://example.com/b' },
    },
    {
      path: 'releases',
      notFound: 'release_not_found',
      body: async () => ({ project_id: (await createProfile(editor, community, 'projects')).id, released_on: '2026-03-15', locales: [{ locale: 'en', title: 'Record' }] }),
      update: { released_on: '2026-04-01' },
    },
    {
      path: 'distributions',
      notFound: 'distribution_not_found',
      body: async () => ({
        organization_id: (await createProfile(editor, community, 'organizations')).id,
        project_id: (await createProfile(editor, community, 'projects')).id,
        locales: [{ locale: 'en', title: 'Credits' }],
      }),
      update: { locales: [{ locale: 'en', title: 'Full credits' }] },
    },
    {
      path: 'media-blocks',
      notFound: 'media_block_not_found',
      body: async () => ({ key: `b-${short()}`, locales: [{ locale: 'en', content_html: '<p>Hi</p>' }] }),
      update: { locales: [{ locale: 'en', content_html: '<p>Hello</p>' }] },
    },
    {
      path: 'rss-feeds',
      notFound: 'rss_feed_not_found',
      body: async () => ({ key: `f-${short()}`, locales: [{ locale: 'en', title: 'Feed' }] }),
      update: { limit: 5 },
    },
  ];

  it.each(RECORDS)('$path: read back by id, updated, deleted (404, gone from the list), restored as it was', async ({ path, notFound, body, update }) => {
    const rec = await created(await editor.post(`/publisher/v2/${path}`, await body()));
    expect(rec).toMatchObject({ id: expect.stringMatching(UUID), inserted_at: expect.stringMatching(ISO_MS), deleted_at: null });
    expect((await editor.get(`/publisher/v2/${path}/${rec.id}`)).json().data).toEqual(rec);

    const patched = await editor.patch(`/publisher/v2/${path}/${rec.id}`, update);
    expect(patched.statusCode, patched.body).toBe(200);
    const updated = patched.json().data;
    expect(updated).toMatchObject({ id: rec.id, inserted_at: rec.inserted_at, deleted_at: null });
    expect(updated).not.toEqual(rec);
    expect((await editor.get(`/publisher/v2/${path}/${rec.id}`)).json().data).toEqual(updated);

    expect((await editor.delete(`/publisher/v2/${path}/${rec.id}`)).statusCode).toBe(204);
    expectError(await editor.get(`/publisher/v2/${path}/${rec.id}`), 404, notFound);
    expect((await editor.get(`/publisher/v2/${path}?limit=100`)).json().data.map((x: { id: string }) => x.id)).not.toContain(rec.id);
    expectError(await foreignEditor.post(`/publisher/v2/${path}/${rec.id}/restore`), 404, notFound);

    const restored = await editor.post(`/publisher/v2/${path}/${rec.id}/restore`);
    expect(restored.statusCode, restored.body).toBe(200);
    expect({ ...restored.json().data, updated_at: null }).toEqual({ ...updated, updated_at: null });
    expect((await editor.get(`/publisher/v2/${path}/${rec.id}`)).json().data).toEqual(restored.json().data);
  });

  it('publications (no update): deleted, then restored as they were', async () => {
    const content = await createContent(editor, await docsFixture(editor, media.workspaceId));
    const p = await created(await editor.post('/publisher/v2/publications', { content_id: content.id, channel: 'web', published_at: '2026-11-22T10:00:00Z' }));
    expect((await editor.delete(`/publisher/v2/publications/${p.id}`)).statusCode).toBe(204);
    expectError(await foreignEditor.post(`/publisher/v2/publications/${p.id}/restore`), 404, 'publication_not_found');
    const restored = await editor.post(`/publisher/v2/publications/${p.id}/restore`);
    expect(restored.statusCode, restored.body).toBe(200);
    expect({ ...restored.json().data, updated_at: null }).toEqual({ ...p, updated_at: null });
    expect((await editor.get(`/publisher/v2/publications/${p.id}`)).json().data).toEqual(restored.json().data);
  });
});
