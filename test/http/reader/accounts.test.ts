import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { ISO_MS, UUID, expectError } from '../../setup/expect.js';
import { type SeededMedia, client, seedMedia } from '../../setup/factories.js';
import { type JwksTestProvider, startJwksProvider } from '../../setup/identity-providers.js';
import { clientToken, readerClient, readersOf, registerClient, registerProvider } from '../../setup/reader.js';
import { createPerson } from '../../setup/community.js';
import { createContent, docsFixture } from '../../setup/docs.js';

let ctx: TestContext;
let media: SeededMedia;
let other: SeededMedia;
let jwks: JwksTestProvider;
let readOnly: JwksTestProvider;
let providerId: string;
let otherProviderId: string;
let appToken: string;
let topicIds: string[];
let otherTopicId: string;
let readers: ReturnType<typeof readersOf>;

beforeAll(async () => {
  ctx = await createTestApp({ rateLimit: { backoffice: 10_000, reader: 10_000, anonymous: 10_000, token: 10_000 } });
  media = await seedMedia(ctx.app);
  other = await seedMedia(ctx.app);
  jwks = await startJwksProvider();
  readOnly = await startJwksProvider();
  providerId = await registerProvider(ctx.app, media.keys.admin, jwks.registration);
  // The same identity provider serves both media: the same person is a reader of each, apart.
  otherProviderId = await registerProvider(ctx.app, other.keys.admin, jwks.registration);
  await registerProvider(ctx.app, media.keys.admin, { ...readOnly.registration, scopes: ['media:read', 'account:read'] });
  readers = readersOf(ctx.app, jwks, media.mediaId);
  appToken = (await clientToken(ctx.app, await registerClient(ctx.app, media.keys.admin))).access_token;

  const editor = client(ctx.app, media.keys.editor);
  topicIds = [];
  for (const key of ['politics', 'sports', 'culture']) {
    const res = await editor.post('/publisher/v2/topics', { key, name: key[0]!.toUpperCase() + key.slice(1) });
    expect(res.statusCode, res.body).toBe(201);
    topicIds.push(res.json().data.id);
  }
  const foreign = await client(ctx.app, other.keys.editor).post('/publisher/v2/topics', { key: 'politics', name: 'Politics' });
  otherTopicId = foreign.json().data.id;
});
afterAll(async () => {
  await ctx?.close();
  await jwks?.close();
  await readOnly?.close();
});

describe('POST /api/media/v1/oauth/verify', () => {
  it('creates the reader account on first sign-in (201) and links the same account afterwards (200)', async () => {
    const reader = await readers.asReader('verify-first', { email: 'first@example.test', name: 'First Reader' });
    const created = await reader.post('/api/media/v1/oauth/verify');
    expect(created.statusCode, created.body).toBe(201);
    const account = created.json().data;
    expect(account).toEqual({
      id: expect.stringMatching(UUID),
      provider_id: providerId,
      sub: 'verify-first',
      email: 'first@example.test',
      name: 'First Reader',
      inserted_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
    });

    const again = await reader.post('/api/media/v1/oauth/verify');
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual(account);
  });

  it('refreshes e-mail and name from a newer token, and keeps them when a token lacks the claims', async () => {
    const first = await (await readers.asReader('verify-refresh', { email: 'old@example.test', name: 'Old' })).post('/api/media/v1/oauth/verify');
    const id = first.json().data.id;
    const changed = await (await readers.asReader('verify-refresh', { email: 'new@example.test', name: 'New' })).post('/api/media/v1/oauth/verify');
    expect(changed.statusCode).toBe(200);
    expect(changed.json().data).toMatchObject({ id, email: 'new@example.test', name: 'New' });
    const bare = await (await readers.asReader('verify-refresh')).post('/api/media/v1/oauth/verify');
    expect(bare.json().data).toMatchObject({ id, email: 'new@example.test', name: 'New' });
  });

  it('creates exactly one account when first sign-ins race', async () => {
    const reader = await readers.asReader('verify-race', { email: 'race@example.test' });
    const answers = await Promise.all(Array.from({ length: 6 }, () => reader.post('/api/media/v1/oauth/verify')));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.json().data.id)).size).toBe(1);
  });

  it('keeps the same person apart in two media that share an identity provider', async () => {
    const here = (await (await readers.asReader('two-media')).post('/api/media/v1/oauth/verify')).json().data;
    const there = await (await readersOf(ctx.app, jwks, other.mediaId).asReader('two-media')).post('/api/media/v1/oauth/verify');
    expect(there.statusCode).toBe(201);
    expect(there.json().data.id).not.toBe(here.id);
    expect(there.json().data.provider_id).toBe(otherProviderId);
  });

  it('refuses an application token with 403 reader_required and a missing token with 401', async () => {
    expectError(await readerClient(ctx.app, media.mediaId, appToken).post('/api/media/v1/oauth/verify'), 403, 'reader_required');
    expectError(await readerClient(ctx.app, media.mediaId).post('/api/media/v1/oauth/verify'), 401, 'missing_token');
  });

  it("refuses a reader token on a media whose providers do not include the token's issuer (401)", async () => {
    const token = await readOnly.mint({ sub: 'stranger' });
    expectError(await readerClient(ctx.app, other.mediaId, token).post('/api/media/v1/oauth/verify'), 401, 'invalid_token');
  });
});

describe('GET /api/media/v1/oauth/userinfo', () => {
  it("answers the reader's account with the token's scopes, creating the account on first use", async () => {
    const reader = await readers.asReader('userinfo', { email: 'info@example.test' });
    const info = await reader.get('/api/media/v1/oauth/userinfo');
    expect(info.statusCode, info.body).toBe(200);
    expect(info.json().data).toEqual({
      id: expect.stringMatching(UUID),
      provider_id: providerId,
      sub: 'userinfo',
      email: 'info@example.test',
      name: null,
      scopes: ['media:read', 'account:read', 'account:write'],
      inserted_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
    });
    // The account userinfo made is the one Verify then links.
    const verified = await reader.post('/api/media/v1/oauth/verify');
    expect(verified.statusCode).toBe(200);
    expect(verified.json().data.id).toBe(info.json().data.id);
  });
});

describe('the reader profile', () => {
  it('answers 404 reader_profile_not_found before the profile exists', async () => {
    const reader = await readers.asReader('profile-none');
    expectError(await reader.get('/api/media/v1/accounts/me/profile'), 404, 'reader_profile_not_found');
    expectError(await reader.patch('/api/media/v1/accounts/me/profile', { first_name: 'X' }), 404, 'reader_profile_not_found');
    expectError(await reader.get('/api/media/v1/accounts/me/profile/metadata'), 404, 'reader_profile_not_found');
    expectError(await reader.put('/api/media/v1/accounts/me/profile/metadata', { metadata: [] }), 404, 'reader_profile_not_found');
  });

  it('is created with its metadata (201), read back, and created only once (409 reader_profile_exists)', async () => {
    const reader = await readers.asReader('profile-create');
    const res = await reader.post('/api/media/v1/accounts/me/profile', {
      first_name: 'Ada',
      last_name: 'Lovelace',
      pronoun: 'she/her',
      metadata: [
        { key: 'newsletter', value: 'weekly' },
        { key: 'city', value: 'London' },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const profile = res.json().data;
    expect(profile).toEqual({
      id: expect.stringMatching(UUID),
      first_name: 'Ada',
      last_name: 'Lovelace',
      other_name: null,
      pronoun: 'she/her',
      profile_image_key: null,
      metadata: [
        { key: 'newsletter', value: 'weekly' },
        { key: 'city', value: 'London' },
      ],
      inserted_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
    });
    const read = await reader.get('/api/media/v1/accounts/me/profile');
    expect(read.statusCode).toBe(200);
    expect(read.json().data).toEqual(profile);

    expectError(await reader.post('/api/media/v1/accounts/me/profile', { first_name: 'Again' }), 409, 'reader_profile_exists');
  });

  it('updates only the fields sent, and clears one with null', async () => {
    const reader = await readers.asReader('profile-update');
    await reader.post('/api/media/v1/accounts/me/profile', { first_name: 'Grace', last_name: 'Hopper', other_name: 'Amazing' });
    const res = await reader.patch('/api/media/v1/accounts/me/profile', { last_name: 'Murray', other_name: null });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ first_name: 'Grace', last_name: 'Murray', other_name: null, pronoun: null });
  });

  it('refuses unknown and server-owned fields with 400, and writes nothing', async () => {
    const reader = await readers.asReader('profile-strict');
    for (const body of [{ id: randomUUID() }, { reader_id: randomUUID() }, { inserted_at: new Date().toISOString() }, { nickname: 'x' }]) {
      expectError(await reader.post('/api/media/v1/accounts/me/profile', body), 400, 'validation_failed');
    }
    expectError(await reader.get('/api/media/v1/accounts/me/profile'), 404, 'reader_profile_not_found');
    await reader.post('/api/media/v1/accounts/me/profile', {});
    expectError(await reader.patch('/api/media/v1/accounts/me/profile', { metadata: [] }), 400, 'validation_failed');
    expectError(await reader.patch('/api/media/v1/accounts/me/profile', { first_name: 'x'.repeat(201) }), 400, 'validation_failed');
  });

  it("is the signed-in reader's own: another reader does not see it", async () => {
    await (await readers.asReader('profile-owner')).post('/api/media/v1/accounts/me/profile', { first_name: 'Owner' });
    expectError(await (await readers.asReader('profile-other')).get('/api/media/v1/accounts/me/profile'), 404, 'reader_profile_not_found');
  });
});

describe('the reader profile metadata', () => {
  it('PUT replaces every pair, keeps the order sent, and an empty list removes them all', async () => {
    const reader = await readers.asReader('metadata');
    await reader.post('/api/media/v1/accounts/me/profile', { metadata: [{ key: 'a', value: '1' }] });
    const put = await reader.put('/api/media/v1/accounts/me/profile/metadata', {
      metadata: [
        { key: 'z', value: 'last letter' },
        { key: 'b', value: '' },
      ],
    });
    expect(put.statusCode, put.body).toBe(200);
    const pairs = [
      { key: 'z', value: 'last letter' },
      { key: 'b', value: '' },
    ];
    expect(put.json()).toEqual({ data: pairs });
    expect((await reader.get('/api/media/v1/accounts/me/profile/metadata')).json()).toEqual({ data: pairs });
    expect((await reader.get('/api/media/v1/accounts/me/profile')).json().data.metadata).toEqual(pairs);

    const cleared = await reader.put('/api/media/v1/accounts/me/profile/metadata', { metadata: [] });
    expect(cleared.json()).toEqual({ data: [] });
  });

  it('refuses a key twice, an unknown field in a pair, and a body without metadata (400), changing nothing', async () => {
    const reader = await readers.asReader('metadata-strict');
    await reader.post('/api/media/v1/accounts/me/profile', { metadata: [{ key: 'keep', value: 'me' }] });
    const bodies = [
      {
        metadata: [
          { key: 'k', value: '1' },
          { key: 'k', value: '2' },
        ],
      },
      { metadata: [{ key: 'k', value: '1', extra: true }] },
      { metadata: [{ key: '', value: '1' }] },
      {},
      { metadata: [], other: 1 },
    ];
    for (const body of bodies) {
      expectError(await reader.put('/api/media/v1/accounts/me/profile/metadata', body), 400, 'validation_failed');
    }
    expect((await reader.get('/api/media/v1/accounts/me/profile/metadata')).json()).toEqual({ data: [{ key: 'keep', value: 'me' }] });
  });
});

describe('POST /api/media/v1/devices', () => {
  it('accepts a 2048-character push token and refuses a longer one with 400, never a 500', async () => {
    const reader = await readers.asReader('device-long-token');
    const long = 'x'.repeat(2047) + 'y';
    const ok = await reader.post('/api/media/v1/devices', { token: long, platform: 'web' });
    expect(ok.statusCode).toBe(201);
    const tooLong = await reader.post('/api/media/v1/devices', { token: `${long}z`, platform: 'web' });
    expectError(tooLong, 400, 'validation_failed');
  });

  it('registers a device (201) and is idempotent by push token (200, same device)', async () => {
    const reader = await readers.asReader('device-owner');
    const first = await reader.post('/api/media/v1/devices', { token: 'apns-token-1', platform: 'ios', name: "Ada's iPhone" });
    expect(first.statusCode, first.body).toBe(201);
    const device = first.json().data;
    expect(device).toEqual({
      id: expect.stringMatching(UUID),
      platform: 'ios',
      name: "Ada's iPhone",
      last_registered_at: expect.stringMatching(ISO_MS),
      inserted_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
    });
    expect(first.body).not.toContain('apns-token-1');

    const again = await reader.post('/api/media/v1/devices', { token: 'apns-token-1', platform: 'ios' });
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toMatchObject({ id: device.id, name: "Ada's iPhone" });

    // Whoever signs in on the device last owns it: still the same device.
    const handedOver = await (await readers.asReader('device-next')).post('/api/media/v1/devices', { token: 'apns-token-1', platform: 'ios' });
    expect(handedOver.statusCode).toBe(200);
    expect(handedOver.json().data.id).toBe(device.id);

    const another = await reader.post('/api/media/v1/devices', { token: 'fcm-token-2', platform: 'android' });
    expect(another.statusCode).toBe(201);
    expect(another.json().data.id).not.toBe(device.id);
  });

  it('refuses an unknown platform, a token with spaces, and unknown fields (400)', async () => {
    const reader = await readers.asReader('device-strict');
    for (const body of [
      { token: 't', platform: 'symbian' },
      { token: 'has space', platform: 'web' },
      { token: '', platform: 'web' },
      { token: 't', platform: 'web', reader_id: randomUUID() },
      { platform: 'web' },
    ]) {
      expectError(await reader.post('/api/media/v1/devices', body), 400, 'validation_failed');
    }
  });
});

describe('favorites', () => {
  const path = '/api/media/v1/accounts/me/favorites';
  // Contents and profiles the readers may see: a favorite must point at one.
  let contentIds: string[];
  let profileIds: string[];
  beforeAll(async () => {
    const editor = client(ctx.app, media.keys.editor);
    const fixture = await docsFixture(editor, media.workspaceId);
    contentIds = [];
    for (let i = 0; i < 3; i++) contentIds.push((await createContent(editor, fixture)).id);
    profileIds = [(await createPerson(editor, media.workspaceId)).id, (await createPerson(editor, media.workspaceId)).id];
  });

  it('adds a favorite (201), answers the same one when added again (200), lists and removes it (204)', async () => {
    const reader = await readers.asReader('fav-owner');
    const recordId = contentIds[0]!;
    const added = await reader.post(path, { kind: 'content', record_id: recordId });
    expect(added.statusCode, added.body).toBe(201);
    const favorite = added.json().data;
    expect(favorite).toEqual({
      id: expect.stringMatching(UUID),
      kind: 'content',
      record_id: recordId,
      inserted_at: expect.stringMatching(ISO_MS),
    });
    const again = await reader.post(path, { kind: 'content', record_id: recordId });
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual(favorite);

    expect((await reader.get(path)).json().data).toEqual([favorite]);

    expect((await reader.delete(`${path}/${favorite.id}`)).statusCode).toBe(204);
    expect((await reader.get(path)).json().data).toEqual([]);
    expectError(await reader.delete(`${path}/${favorite.id}`), 404, 'favorite_not_found');

    // Added back after removal: a new favorite.
    const back = await reader.post(path, { kind: 'content', record_id: recordId });
    expect(back.statusCode).toBe(201);
    expect(back.json().data.id).not.toBe(favorite.id);
  });

  it('pages newest first with absolute links, and filters by kind', async () => {
    const reader = await readers.asReader('fav-pages');
    const ids: string[] = [];
    for (const [kind, recordId] of [['content', contentIds[1]!], ['profile', profileIds[0]!], ['content', contentIds[2]!]] as const) {
      ids.push((await reader.post(path, { kind, record_id: recordId })).json().data.id);
    }
    const first = await reader.get(`${path}?limit=2`);
    expect(first.statusCode).toBe(200);
    expect(first.json().data.map((f: { id: string }) => f.id)).toEqual([ids[2], ids[1]]);
    expect(first.json().meta.base).toMatch(/^http:\/\/localhost(:\d+)?\/api\/media\/v1\/accounts\/me\/favorites\?limit=2$/);
    expect(first.json().meta.previous).toBeNull();
    const next = first.json().meta.next as string;
    expect(next).toMatch(/^http:\/\/localhost/);
    const second = await reader.get(new URL(next).pathname + new URL(next).search);
    expect(second.json().data.map((f: { id: string }) => f.id)).toEqual([ids[0]]);
    expect(second.json().meta.next).toBeNull();

    const profiles = await reader.get(`${path}?kind=profile`);
    expect(profiles.json().data.map((f: { id: string }) => f.id)).toEqual([ids[1]]);
    expectError(await reader.get(`${path}?kind=issue`), 400, 'validation_failed');
  });

  it("keeps each reader's favorites to themselves: another reader neither lists nor removes them", async () => {
    const owner = await readers.asReader('fav-private');
    const favorite = (await owner.post(path, { kind: 'profile', record_id: profileIds[1]! })).json().data;
    const stranger = await readers.asReader('fav-stranger');
    expect((await stranger.get(path)).json().data).toEqual([]);
    expectError(await stranger.delete(`${path}/${favorite.id}`), 404, 'favorite_not_found');
    expect((await owner.get(path)).json().data).toEqual([favorite]);
  });

  it('refuses an unknown kind, a malformed record id and unknown fields (400), and a malformed favorite id (400 invalid_uuid)', async () => {
    const reader = await readers.asReader('fav-strict');
    for (const body of [
      { kind: 'issue', record_id: randomUUID() },
      { kind: 'content', record_id: 'nope' },
      { kind: 'content', record_id: randomUUID(), id: randomUUID() },
    ]) {
      expectError(await reader.post(path, body), 400, 'validation_failed');
    }
    expectError(await reader.delete(`${path}/not-a-uuid`), 400, 'invalid_uuid');
  });

  it('refuses a content that does not exist, is not published, is deleted or belongs to another media (404)', async () => {
    const reader = await readers.asReader('fav-contents');
    const editor = client(ctx.app, media.keys.editor);
    const fixture = await docsFixture(editor, media.workspaceId);
    const draft = await createContent(editor, fixture, { status_id: fixture.statuses.draft });
    const deleted = await createContent(editor, fixture);
    await editor.delete(`/docs/v2/contents/${deleted.id}`);
    const otherEditor = client(ctx.app, other.keys.editor);
    const foreign = await createContent(otherEditor, await docsFixture(otherEditor, other.workspaceId));
    for (const recordId of [randomUUID(), draft.id, deleted.id, foreign.id]) {
      const res = await reader.post(path, { kind: 'content', record_id: recordId });
      expectError(res, 404, 'content_not_found');
      expect(res.json().details).toEqual([{ path: 'record_id', message: 'is not a published content of this media' }]);
    }
    expect((await reader.get(path)).json().data).toEqual([]);
  });
});

describe('topics and subscriptions', () => {
  it('lists the topics of the media to an application token, in the order they were created', async () => {
    const res = await readerClient(ctx.app, media.mediaId, appToken).get('/api/media/v1/topics?limit=2');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual([
      { id: topicIds[0], key: 'politics', name: 'Politics', description: null, updated_at: expect.stringMatching(ISO_MS) },
      { id: topicIds[1], key: 'sports', name: 'Sports', description: null, updated_at: expect.stringMatching(ISO_MS) },
    ]);
    const next = new URL(res.json().meta.next);
    const rest = await readerClient(ctx.app, media.mediaId, appToken).get(next.pathname + next.search);
    expect(rest.json().data.map((t: { id: string }) => t.id)).toEqual([topicIds[2]]);
  });

  it('subscribes (201), answers the same subscription again (200), lists it, and unsubscribes idempotently (204)', async () => {
    const reader = await readers.asReader('topic-fan');
    const subscribed = await reader.post(`/api/media/v1/topics/${topicIds[1]}/subscription`);
    expect(subscribed.statusCode, subscribed.body).toBe(201);
    const subscription = subscribed.json().data;
    expect(subscription).toEqual({
      id: expect.stringMatching(UUID),
      topic: { id: topicIds[1], key: 'sports', name: 'Sports', description: null, updated_at: expect.stringMatching(ISO_MS) },
      inserted_at: expect.stringMatching(ISO_MS),
    });
    const again = await reader.post(`/api/media/v1/topics/${topicIds[1]}/subscription`);
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual(subscription);

    await reader.post(`/api/media/v1/topics/${topicIds[2]}/subscription`);
    const mine = await reader.get('/api/media/v1/accounts/me/topics');
    expect(mine.statusCode).toBe(200);
    expect(mine.json().data.map((s: { topic: { id: string } }) => s.topic.id)).toEqual([topicIds[2], topicIds[1]]);

    expect((await reader.delete(`/api/media/v1/topics/${topicIds[1]}/subscription`)).statusCode).toBe(204);
    expect((await reader.delete(`/api/media/v1/topics/${topicIds[1]}/subscription`)).statusCode).toBe(204);
    const after = await reader.get('/api/media/v1/accounts/me/topics');
    expect(after.json().data.map((s: { topic: { id: string } }) => s.topic.id)).toEqual([topicIds[2]]);

    // Another reader follows nothing.
    expect((await (await readers.asReader('topic-bystander')).get('/api/media/v1/accounts/me/topics')).json().data).toEqual([]);
  });

  it('leaves a deleted topic out of the reader\'s list until it is restored', async () => {
    const editor = client(ctx.app, media.keys.editor);
    const topic = (await editor.post('/publisher/v2/topics', { key: 'ephemeral', name: 'Ephemeral' })).json().data;
    const reader = await readers.asReader('topic-of-a-deleted-topic');
    expect((await reader.post(`/api/media/v1/topics/${topic.id}/subscription`)).statusCode).toBe(201);
    const listed = async () => (await reader.get('/api/media/v1/accounts/me/topics')).json().data.map((x: { topic: { id: string } }) => x.topic.id);
    expect(await listed()).toEqual([topic.id]);
    expect((await editor.delete(`/publisher/v2/topics/${topic.id}`)).statusCode).toBe(204);
    expect(await listed()).toEqual([]);
    expect((await editor.post(`/publisher/v2/topics/${topic.id}/restore`)).statusCode).toBe(200);
    expect(await listed()).toEqual([topic.id]);
  });

  it("answers 404 topic_not_found for an unknown topic and another media's topic, 400 for a malformed id", async () => {
    const reader = await readers.asReader('topic-strict');
    expectError(await reader.post(`/api/media/v1/topics/${randomUUID()}/subscription`), 404, 'topic_not_found');
    expectError(await reader.post(`/api/media/v1/topics/${otherTopicId}/subscription`), 404, 'topic_not_found');
    expectError(await reader.delete(`/api/media/v1/topics/${otherTopicId}/subscription`), 404, 'topic_not_found');
    expectError(await reader.post('/api/media/v1/topics/not-a-uuid/subscription'), 400, 'invalid_uuid');
  });
});

// Every Reader route about the signed-in reader's own data, with a valid body.
const readerRoutes = (): Array<{ method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'; url: string; body?: unknown; write: boolean }> => [
  { method: 'POST', url: '/api/media/v1/oauth/verify', write: false },
  { method: 'GET', url: '/api/media/v1/oauth/userinfo', write: false },
  { method: 'POST', url: '/api/media/v1/accounts/me/profile', body: {}, write: true },
  { method: 'GET', url: '/api/media/v1/accounts/me/profile', write: false },
  { method: 'PATCH', url: '/api/media/v1/accounts/me/profile', body: {}, write: true },
  { method: 'GET', url: '/api/media/v1/accounts/me/profile/metadata', write: false },
  { method: 'PUT', url: '/api/media/v1/accounts/me/profile/metadata', body: { metadata: [] }, write: true },
  { method: 'GET', url: '/api/media/v1/accounts/me/entitlements', write: false },
  { method: 'POST', url: '/api/media/v1/devices', body: { token: 'tok', platform: 'web' }, write: true },
  { method: 'GET', url: '/api/media/v1/accounts/me/favorites', write: false },
  { method: 'POST', url: '/api/media/v1/accounts/me/favorites', body: { kind: 'content', record_id: randomUUID() }, write: true },
  { method: 'DELETE', url: `/api/media/v1/accounts/me/favorites/${randomUUID()}`, write: true },
  { method: 'GET', url: '/api/media/v1/accounts/me/topics', write: false },
  { method: 'POST', url: `/api/media/v1/topics/${randomUUID()}/subscription`, write: true },
  { method: 'DELETE', url: `/api/media/v1/topics/${randomUUID()}/subscription`, write: true },
];

const send = (token: string, route: ReturnType<typeof readerRoutes>[number]) =>
  ctx.app.inject({
    method: route.method,
    url: route.url,
    headers: { 'x-service-media-id': media.mediaId, authorization: `Bearer ${token}` },
    ...(route.body !== undefined && { payload: route.body as object }),
  });

describe('authorization of the reader routes', () => {
  it('refuses an application (client credentials) token holding every scope with 403 reader_required', async () => {
    for (const route of readerRoutes()) expectError(await send(appToken, route), 403, 'reader_required');
  });

  it('refuses an application token without the scope with 403 insufficient_scope', async () => {
    const { access_token } = await clientToken(ctx.app, await registerClient(ctx.app, media.keys.admin, ['media:read']));
    for (const route of readerRoutes()) expectError(await send(access_token, route), 403, 'insufficient_scope');
  });

  it('lets a reader whose provider grants account:read only read, and refuses each write with 403 insufficient_scope', async () => {
    const token = await readOnly.mint({ sub: 'read-only' });
    for (const route of readerRoutes()) {
      const res = await send(token, route);
      if (route.write) expectError(res, 403, 'insufficient_scope');
      else expect([200, 201, 404], `${route.method} ${route.url}: ${res.body}`).toContain(res.statusCode);
    }
  });

  it('creates no account for a request refused before its handler', async () => {
    const before = (await client(ctx.app, media.keys.admin).get('/core/v2/readers?limit=100')).json().data.length;
    const reader = await readers.asReader('refused-only');
    expectError(await reader.post('/api/media/v1/devices', { token: 'has space', platform: 'web' }), 400, 'validation_failed');
    const after = (await client(ctx.app, media.keys.admin).get('/core/v2/readers?limit=100')).json().data;
    expect(after.length).toBe(before);
    expect(after.map((r: { sub: string }) => r.sub)).not.toContain('refused-only');
  });
});
