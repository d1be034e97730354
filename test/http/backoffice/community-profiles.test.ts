import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { type CommunityFixture, type ProfileKindPath, OWN_FIELDS, communityFixture, createProfile, createProfileType } from '../../setup/community.js';
import { createContent, docsFixture, insertAssetImage } from '../../setup/docs.js';
import { ISO_MS, UUID, expectError } from '../../setup/expect.js';
import { type Client, type SeededMedia, client, createCategory, seedMedia } from '../../setup/factories.js';
import { rowsOf } from '../../../src/db/rows.js';

let ctx: TestContext;
let media: SeededMedia;
let other: SeededMedia;
let api: Client;
let f: CommunityFixture;

const KINDS: ProfileKindPath[] = ['events', 'organizations', 'people', 'projects'];

beforeAll(async () => {
  ctx = await createTestApp({ publicBaseUrl: 'https://api.example.test' });
  media = await seedMedia(ctx.app, { locales: ['en', 'fr'] });
  other = await seedMedia(ctx.app);
  api = client(ctx.app, media.keys.editor);
  f = await communityFixture(api, media.workspaceId);
});
afterAll(() => ctx.close());

describe('/community/v2/people (spec 2.13)', () => {
  it('creates a person with every part and reads it back exactly', async () => {
    const category = await createCategory(api);
    const image = await insertAssetImage(ctx.database.db, media.mediaId);
    const res = await api.post('/community/v2/people', {
      profile: {
        workspace_id: media.workspaceId,
        profile_type_id: f.types.people,
        status_id: f.statuses.published,
        profile_categories: [{ category_id: category.id }],
        canonical_url: 'https://news.example.test/people/ada',
      },
      first_name: 'Ada',
      last_name: 'Lovelace',
      other_name: 'Countess',
      pronoun: 'she/her',
      cover_image_key: image.fileKey,
      profile_image_key: image.fileKey,
      description: [
        { locale: 'en', blocks: [{ kind: 'richtext', content_html: '<p>Hi <script>x</script><b>there</b></p>' }, { kind: 'image', image: { asset_image_id: image.id } }] },
      ],
      address: [{ locale: 'en', country: 'UK', city: 'London', street: 'St James', location: '51.5,-0.1' }],
      contact: [{ locale: 'en', email: 'ada@example.test', phone: '+44 1', website: 'https://ada.test' }],
      locales: [
        { locale: 'en', summary_html: '<p>Mathematician</p>', description_html: '<p>First programmer</p>' },
        { locale: 'fr', summary_html: 'Mathématicienne' },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data;
    expect(data).toEqual({
      id: expect.stringMatching(UUID),
      first_name: 'Ada',
      last_name: 'Lovelace',
      other_name: 'Countess',
      pronoun: 'she/her',
      cover_image_key: image.fileKey,
      profile_image_key: image.fileKey,
      profile: {
        id: data.id,
        workspace_id: media.workspaceId,
        profile_type_id: f.types.people,
        status_id: f.statuses.published,
        profile_categories: [{ id: expect.stringMatching(UUID), category_id: category.id }],
        canonical_url: 'https://news.example.test/people/ada',
      },
      description: [
        {
          id: expect.stringMatching(UUID),
          locale: 'en',
          blocks: [
            { id: expect.stringMatching(UUID), kind: 'richtext', position: 0, content_html: '<p>Hi <b>there</b></p>', content_text: 'Hi there' },
            {
              id: expect.stringMatching(UUID),
              kind: 'image',
              position: 1,
              image: expect.objectContaining({ id: image.id, file_key: image.fileKey, url: `https://api.example.test/assets/${image.fileKey}` }),
            },
          ],
          deleted_at: null,
        },
      ],
      address: [{ id: expect.stringMatching(UUID), locale: 'en', country: 'UK', state: null, city: 'London', street: 'St James', location: '51.5,-0.1', deleted_at: null }],
      contact: [
        {
          id: expect.stringMatching(UUID),
          locale: 'en',
          email: 'ada@example.test',
          phone: '+44 1',
          facebook: null,
          linkedin: null,
          instagram: null,
          twitter: null,
          bluesky: null,
          website: 'https://ada.test',
          deleted_at: null,
        },
      ],
      locales: [
        { id: expect.stringMatching(UUID), locale: 'en', summary_html: '<p>Mathematician</p>', summary_text: 'Mathematician', description_html: '<p>First programmer</p>', description_text: 'First programmer', deleted_at: null },
        { id: expect.stringMatching(UUID), locale: 'fr', summary_html: 'Mathématicienne', summary_text: 'Mathématicienne', description_html: null, description_text: null, deleted_at: null },
      ],
      inserted_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
      deleted_at: null,
    });
    const fetched = await api.get(`/community/v2/people/${data.id}`);
    expect(fetched.json().data).toEqual(data);
    const listed = await api.get('/community/v2/people?limit=100');
    expect(listed.json().data.map((p: { id: string }) => p.id)).toContain(data.id);
    expectError(await api.patch(`/community/v2/people/${data.id}`, { cover_image_key: 'nothing-here.jpg' }), 404, 'asset_image_not_found');
    // Another kind's path does not know it.
    expectError(await api.get(`/community/v2/events/${data.id}`), 404, 'profile_not_found');
  });

  it('refuses fields the profile type does not allow (400 naming them) and never serves them', async () => {
    const type = await createProfileType(api, 'people', { has_phone: false, has_city: false });
    const base = { profile: { workspace_id: media.workspaceId, profile_type_id: type.id, status_id: f.statuses.published }, first_name: 'Grace', last_name: 'Hopper' };
    const refused = expectError(
      await api.post('/community/v2/people', { ...base, contact: [{ locale: 'en', phone: '1' }], address: [{ locale: 'en', city: 'NYC' }] }),
      400,
      'field_not_allowed',
    );
    expect(refused.details!.map((d) => d.path).sort()).toEqual(['address.0.city', 'contact.0.phone']);
    // Stored under a type that allows it, then switched to one that does not: kept, not served.
    const person = await createProfile(api, f, 'people', { contact: [{ locale: 'en', phone: '+1 2', email: 'g@h.test' }] });
    const switched = await api.post(`/community/v2/people/${person.id}/profile-type/switch`, { profile_type_id: type.id });
    expect(switched.statusCode, switched.body).toBe(200);
    const contact = switched.json().data.contact[0];
    expect(contact).not.toHaveProperty('phone');
    expect(contact.email).toBe('g@h.test');
    expect(switched.json().data.profile.profile_type_id).toBe(type.id);
  });

  it('refuses a profile type of another kind or media (400), unknown fields (400), another media workspace (404)', async () => {
    const base = { profile: { workspace_id: media.workspaceId, profile_type_id: f.types.events, status_id: f.statuses.published }, ...OWN_FIELDS.people() };
    expect(expectError(await api.post('/community/v2/people', base), 400, 'invalid_profile_type').details![0]!.path).toBe('profile.profile_type_id');
    const person = await createProfile(api, f, 'people');
    expectError(await api.post(`/community/v2/people/${person.id}/profile-type/switch`, { profile_type_id: f.types.projects }), 400, 'invalid_profile_type');
    expectError(await api.post('/community/v2/people', { ...base, profile: { ...base.profile, profile_type_id: f.types.people }, shoe_size: 42 }), 400, 'validation_failed');
    expectError(
      await api.post('/community/v2/people', { ...base, profile: { ...base.profile, profile_type_id: f.types.people, workspace_id: other.workspaceId } }),
      404,
      'workspace_not_found',
    );
  });

  it('updates fields and parts (complete sets), keeps the rest', async () => {
    const person = await createProfile(api, f, 'people', { pronoun: 'they', locales: [{ locale: 'en', summary_html: 'A' }, { locale: 'fr', summary_html: 'B' }] });
    const res = await api.patch(`/community/v2/people/${person.id}`, { last_name: 'Byron', locales: [{ locale: 'fr', summary_html: 'C' }], profile: { canonical_url: null } });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.last_name).toBe('Byron');
    expect(data.pronoun).toBe('they');
    expect(data.locales.map((l: { locale: string; summary_text: string }) => [l.locale, l.summary_text])).toEqual([['fr', 'C']]);
    expect(data.profile.canonical_url).toBeNull();
  });
});

describe('every kind: routes, delete and restore, metadata, blocks, entries, transfer', () => {
  it.each(KINDS)('%s: create, list, get, update, delete cascades with one stamp, restore brings back exactly those parts', async (kind) => {
    const rec = await createProfile(api, f, kind, {
      locales: [{ locale: 'en', summary_html: 'Hello' }, { locale: 'fr', summary_html: 'Bonjour' }],
      contact: [{ locale: 'en', email: 'a@b.test' }],
      address: [{ locale: 'en', city: 'Paris' }],
      description: [{ locale: 'en', blocks: [{ kind: 'richtext', content_html: 'x' }] }],
    });
    // A part removed on its own before the delete stays removed after the restore.
    const edited = await api.patch(`/community/v2/${kind}/${rec.id}`, { locales: [{ locale: 'en', summary_html: 'Hello' }] });
    expect(edited.statusCode, edited.body).toBe(200);
    const before = edited.json().data;
    expect((await api.get(`/community/v2/${kind}/${rec.id}`)).json().data).toEqual(before);
    await api.put(`/community/v2/${kind}/${rec.id}/blocks`, { blocks: [{ key: 'news', locales: [{ locale: 'en', title: 'News' }] }] });
    expect((await api.delete(`/community/v2/${kind}/${rec.id}`)).statusCode).toBe(204);
    expectError(await api.get(`/community/v2/${kind}/${rec.id}`), 404, 'profile_not_found');
    expect((await api.get(`/community/v2/${kind}?limit=100`)).json().data.map((p: { id: string }) => p.id)).not.toContain(rec.id);
    const stamps = await ctx.database.db.execute(
      `select (select count(distinct deleted_at) from (select deleted_at from profile_locales where profile_id = '${rec.id}' and locale = 'en'
         union all select deleted_at from profile_contacts where profile_id = '${rec.id}'
         union all select deleted_at from profiles where id = '${rec.id}'
         union all select deleted_at from profile_blocks where profile_id = '${rec.id}') s) as n` as never,
    );
    const n = rowsOf<{ n: number }>(stamps)[0]!;
    expect(Number(n.n)).toBe(1);
    const restored = await api.post(`/community/v2/${kind}/${rec.id}/restore`);
    expect(restored.statusCode, restored.body).toBe(200);
    const after = restored.json().data;
    expect({ ...after, updated_at: null }).toEqual({ ...before, updated_at: null });
    expect(after.locales.map((l: { locale: string }) => l.locale)).toEqual(['en']);
    expect((await api.get(`/community/v2/${kind}/${rec.id}/blocks`)).json().data).toHaveLength(1);
    // Idempotent, and 404 for unknown ids.
    expect((await api.post(`/community/v2/${kind}/${rec.id}/restore`)).statusCode).toBe(200);
    expectError(await api.post(`/community/v2/${kind}/${randomUUID()}/restore`), 404, 'profile_not_found');
  });

  it.each(KINDS)('%s: switches to another profile type of its kind, and to none of another kind or media', async (kind) => {
    const rec = await createProfile(api, f, kind);
    const type = await createProfileType(api, kind);
    const switched = await api.post(`/community/v2/${kind}/${rec.id}/profile-type/switch`, { profile_type_id: type.id });
    expect(switched.statusCode, switched.body).toBe(200);
    const data = switched.json().data;
    expect(data.profile).toEqual({ ...(rec.profile as object), profile_type_id: type.id });
    expect({ ...data, profile: null, updated_at: null }).toEqual({ ...rec, profile: null, updated_at: null });
    expect((await api.get(`/community/v2/${kind}/${rec.id}`)).json().data).toEqual(data);
    const otherKind = KINDS.find((k) => k !== kind)!;
    expectError(await api.post(`/community/v2/${kind}/${rec.id}/profile-type/switch`, { profile_type_id: f.types[otherKind] }), 400, 'invalid_profile_type');
    expectError(await client(ctx.app, other.keys.editor).post(`/community/v2/${kind}/${rec.id}/profile-type/switch`, { profile_type_id: type.id }), 404, 'profile_not_found');
  });

  it.each(KINDS)('%s: metadata, blocks and block entries (spec 2.14)', async (kind) => {
    const rec = await createProfile(api, f, kind);
    const meta = await api.put(`/community/v2/${kind}/${rec.id}/metadata`, { metadata: [{ key: 'a', value: '1' }, { key: 'b', value: '2' }] });
    expect(meta.json()).toEqual({ data: [{ key: 'a', value: '1' }, { key: 'b', value: '2' }] });
    expect((await api.get(`/community/v2/${kind}/${rec.id}/metadata`)).json()).toEqual(meta.json());

    const blocks = await api.put(`/community/v2/${kind}/${rec.id}/blocks`, {
      blocks: [
        { key: 'press', locales: [{ locale: 'en', title: 'Press' }, { locale: 'fr', title: 'Presse' }] },
        { key: 'more', locales: [{ locale: 'en', title: 'More' }] },
      ],
    });
    expect(blocks.statusCode, blocks.body).toBe(200);
    const [press, more] = blocks.json().data;
    expect(press).toEqual({ id: expect.stringMatching(UUID), key: 'press', position: 0, locales: [{ locale: 'en', title: 'Press' }, { locale: 'fr', title: 'Presse' }] });
    expect(more.position).toBe(1);
    const patched = await api.patch(`/community/v2/${kind}/${rec.id}/blocks/${more.id}`, { key: 'extra', locales: [{ locale: 'fr', title: 'Plus' }] });
    expect(patched.json().data).toEqual({ id: more.id, key: 'extra', position: 1, locales: [{ locale: 'fr', title: 'Plus' }] });
    // Reordered with ids kept.
    const reordered = await api.put(`/community/v2/${kind}/${rec.id}/blocks`, { blocks: [{ id: more.id, key: 'extra', locales: [{ locale: 'fr', title: 'Plus' }] }, { id: press.id, key: 'press', locales: [{ locale: 'en', title: 'Press' }] }] });
    expect(reordered.json().data.map((b: { id: string; position: number }) => [b.id, b.position])).toEqual([[more.id, 0], [press.id, 1]]);

    const docs = await docsFixture(api, media.workspaceId);
    const content = await createContent(api, docs);
    const relation = await createProfile(api, f, 'people');
    const entries = await api.put(`/community/v2/${kind}/${rec.id}/blocks/${press.id}/entries`, {
      entries: [{ content_id: content.id, relation_id: relation.id }, { content_id: content.id }],
    });
    expect(entries.statusCode, entries.body).toBe(200);
    expect(entries.json().data).toEqual([
      { id: expect.stringMatching(UUID), content_id: content.id, relation_id: relation.id },
      { id: expect.stringMatching(UUID), content_id: content.id, relation_id: null },
    ]);
    expect((await api.get(`/community/v2/${kind}/${rec.id}/blocks/${press.id}/entries`)).json()).toEqual(entries.json());
    const bad = expectError(await api.put(`/community/v2/${kind}/${rec.id}/blocks/${press.id}/entries`, { entries: [{ content_id: randomUUID(), relation_id: randomUUID() }] }), 404);
    expect(bad.details!.map((d) => d.path)).toEqual(['entries.0.content_id', 'entries.0.relation_id']);
    expectError(await api.get(`/community/v2/${kind}/${rec.id}/blocks/${randomUUID()}/entries`), 404, 'block_not_found');
  });

  it('workspace transfer: 204, another media workspace 404, foreign status 400, without community:write 403', async () => {
    const event = await createProfile(api, f, 'events');
    const ws = await api.post('/core/v2/workspaces', { key: `second-${randomUUID().slice(0, 6)}`, name: 'Second' });
    expect(ws.statusCode, ws.body).toBe(201);
    const target = { workspace_id: ws.json().data.id, status_id: f.statuses.draft };
    const moved = await api.post(`/community/v2/events/${event.id}/workspace/transfer`, target);
    expect(moved.statusCode, moved.body).toBe(204);
    expect(moved.body).toBe('');
    const data = (await api.get(`/community/v2/events/${event.id}`)).json().data;
    expect([data.profile.workspace_id, data.profile.status_id]).toEqual([target.workspace_id, target.status_id]);
    expectError(await api.post(`/community/v2/events/${event.id}/workspace/transfer`, { ...target, workspace_id: other.workspaceId }), 404, 'workspace_not_found');
    const foreign = (await client(ctx.app, other.keys.editor).get('/core/v2/statuses')).json().data[0].id;
    expectError(await api.post(`/community/v2/events/${event.id}/workspace/transfer`, { ...target, status_id: foreign }), 400, 'invalid_status');
    expectError(await client(ctx.app, media.keys.viewer).post(`/community/v2/events/${event.id}/workspace/transfer`, target), 403);
    expectError(await client(ctx.app, other.keys.editor).post(`/community/v2/events/${event.id}/workspace/transfer`, target), 404);
  });

  it('tenancy and permissions: another media sees 404, a viewer reads but cannot write', async () => {
    const rec = await createProfile(api, f, 'organizations');
    expectError(await client(ctx.app, other.keys.admin).get(`/community/v2/organizations/${rec.id}`), 404, 'profile_not_found');
    expect((await client(ctx.app, media.keys.viewer).get(`/community/v2/organizations/${rec.id}`)).statusCode).toBe(200);
    expectError(await client(ctx.app, media.keys.viewer).patch(`/community/v2/organizations/${rec.id}`, { name: 'X' }), 403);
    expectError(await client(ctx.app, media.keys.ad_manager).get(`/community/v2/organizations/${rec.id}`), 403);
    expectError(await api.get('/community/v2/organizations/not-a-uuid'), 400);
  });

  it('a profile of another kind is none of this kind: read, list, write, delete and restore answer 404 and change nothing', async () => {
    const org = await createProfile(api, f, 'organizations', { name: 'Kind Boundary Org' });
    const people = `/community/v2/people/${org.id}`;
    expectError(await api.get(people), 404, 'profile_not_found');
    expectError(await api.patch(people, { first_name: 'X' }), 404, 'profile_not_found');
    expectError(await api.delete(people), 404, 'profile_not_found');
    expect((await api.get('/community/v2/people?limit=100')).json().data.map((p: { id: string }) => p.id)).not.toContain(org.id);
    expect((await api.get(`/community/v2/organizations/${org.id}`)).json().data.name).toBe('Kind Boundary Org');

    expect((await api.delete(`/community/v2/organizations/${org.id}`)).statusCode).toBe(204);
    expectError(await api.post(`${people}/restore`), 404, 'profile_not_found');
    expectError(await api.get(`/community/v2/organizations/${org.id}`), 404, 'profile_not_found');
    const restored = await api.post(`/community/v2/organizations/${org.id}/restore`);
    expect(restored.statusCode).toBe(200);
    expect(restored.json().data).toMatchObject({ id: org.id, name: 'Kind Boundary Org', deleted_at: null });
  });
});

describe('content authors (docs) must be people of the same media', () => {
  it('accepts a person, refuses an organization, another media person, a deleted or unknown id (400 naming the author)', async () => {
    const docs = await docsFixture(api, media.workspaceId);
    const person = await createProfile(api, f, 'people');
    const org = await createProfile(api, f, 'organizations');
    const gone = await createProfile(api, f, 'people');
    await api.delete(`/community/v2/people/${gone.id}`);
    const otherApi = client(ctx.app, other.keys.editor);
    const foreign = await createProfile(otherApi, await communityFixture(otherApi, other.workspaceId), 'people');
    const ok = await createContent(api, docs, { locales: [{ locale: 'en', title_html: 'By Ada', authors: [{ profile_id: person.id }] }] });
    expect(ok.locales[0]!.authors.map((a) => a.profile_id)).toEqual([person.id]);
    for (const bad of [org.id, foreign.id, gone.id, randomUUID()]) {
      const res = await api.post('/docs/v2/contents', {
        template_id: docs.templateId,
        workspace_id: media.workspaceId,
        status_id: docs.statuses.published,
        locales: [{ locale: 'en', title_html: 'X', authors: [{ profile_id: person.id }, { profile_id: bad }] }],
      });
      expect(expectError(res, 400, 'invalid_author').details).toEqual([{ path: 'locales.0.authors.1.profile_id', message: 'is not a person of this media' }]);
    }
  });
});

describe('/community/v2/profile-types: update, remove, restore', () => {
  it('updates flags and metadata, refuses removal while in use, removes and restores', async () => {
    const type = await createProfileType(api, 'projects', { has_phone: false, metadata: [{ key: 'x', value: '1' }] });
    const updated = await api.patch(`/community/v2/profile-types/${type.id}`, { name: 'Renamed', has_phone: true, metadata: [] });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().data).toMatchObject({ id: type.id, kind: 'project', name: 'Renamed', has_phone: true, metadata: [], deleted_at: null });
    const project = await createProfile(api, f, 'projects', { profile: { profile_type_id: type.id } });
    expectError(await api.delete(`/community/v2/profile-types/${type.id}`), 409, 'profile_type_in_use');
    expect((await api.delete(`/community/v2/projects/${project.id}`)).statusCode).toBe(204);
    expect((await api.delete(`/community/v2/profile-types/${type.id}`)).statusCode).toBe(204);
    expectError(await api.get(`/community/v2/profile-types/${type.id}`), 404, 'profile_type_not_found');
    const restored = await api.post(`/community/v2/profile-types/${type.id}/restore`);
    expect(restored.statusCode).toBe(200);
    expect(restored.json().data).toMatchObject({ id: type.id, name: 'Renamed', deleted_at: null });
    expectError(await api.patch(`/community/v2/profile-types/${type.id}`, { kind: 'event' }), 400, 'validation_failed');
  });
});
