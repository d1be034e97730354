import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { type ProfileKindPath, createProfile } from '../../setup/community.js';
import { type PublicMedia, expectPublicBadId, expectPublicNotFound, expectSameAsReader, publicGet, publicMedia } from '../../setup/public.js';

// The community rows of the Public API: profile types, and each kind's published profiles by media and by id.

let ctx: TestContext;
/** The media under test, and another one. */
let mine: PublicMedia;
let theirs: PublicMedia;

beforeAll(async () => {
  ctx = await createTestApp({ rateLimit: { backoffice: 10_000, reader: 10_000, anonymous: 10_000, token: 10_000 } });
  mine = await publicMedia(ctx.app);
  theirs = await publicMedia(ctx.app);
});
afterAll(() => ctx?.close());

const PUBLIC = '/api/public/community/v2';
const ids = (body: { data: Array<{ id: string }> }) => body.data.map((r) => r.id);

describe('GET /api/public/community/v2/medias/:media_id/profile-types', () => {
  it("answers the Reader's profile types of the media, with the deprecation headers", async () => {
    const url = `${PUBLIC}/medias/${mine.media.mediaId}/profile-types?limit=100`;
    const body = await expectSameAsReader(ctx.app, mine.reader, url, '/api/media/v1/profile-types?limit=100');
    expect(ids(body)).toEqual(expect.arrayContaining(Object.values(mine.community.types)));
    expect(ids(body)).not.toContain(theirs.community.types.events);
    expect(body.data.find((t: { id: string }) => t.id === mine.community.types.events)).toMatchObject({ kind: 'event', has_email: true });
    expect((await publicGet(ctx.app, url, '/api/media/v1/profile-types')).statusCode).toBe(200);
    await expectPublicNotFound(ctx.app, `${PUBLIC}/medias/${randomUUID()}/profile-types`, 'media_not_found');
    await expectPublicBadId(ctx.app, `${PUBLIC}/medias/not-a-uuid/profile-types`);
  });
});

describe.each(['events', 'organizations', 'people', 'projects'] as const)('Public %s', (kind: ProfileKindPath) => {
  it('lists the published ones of the media as the Reader does (same records, same order), and serves each by id', async () => {
    const first = await createProfile(mine.editor, mine.community, kind);
    const second = await createProfile(mine.editor, mine.community, kind);
    const draft = await createProfile(mine.editor, mine.community, kind, { profile: { status_id: mine.community.statuses.draft } });
    const gone = await createProfile(mine.editor, mine.community, kind);
    expect((await mine.editor.delete(`/community/v2/${kind}/${gone.id}`)).statusCode).toBe(204);
    const foreign = await createProfile(theirs.editor, theirs.community, kind);

    const listUrl = `${PUBLIC}/medias/${mine.media.mediaId}/${kind}?limit=100`;
    const list = await expectSameAsReader(ctx.app, mine.reader, listUrl, `/api/media/v1/community/${kind}?limit=100`);
    const listed = ids(list);
    expect(listed.indexOf(second.id)).toBeLessThan(listed.indexOf(first.id));
    expect(listed).toContain(first.id);
    for (const absent of [draft.id, gone.id, foreign.id]) expect(listed).not.toContain(absent);
    expect((await publicGet(ctx.app, listUrl, `/api/media/v1/community/${kind}`)).statusCode).toBe(200);
    await expectPublicNotFound(ctx.app, `${PUBLIC}/medias/${randomUUID()}/${kind}`, 'media_not_found');
    await expectPublicBadId(ctx.app, `${PUBLIC}/medias/nope/${kind}`);

    const one = await expectSameAsReader(ctx.app, mine.reader, `${PUBLIC}/${kind}/${first.id}?locale=fr`, `/api/media/v1/community/${kind}/${first.id}?locale=fr`);
    expect(one.data).toMatchObject({ id: first.id });
    expect((await publicGet(ctx.app, `${PUBLIC}/${kind}/${first.id}`, `/api/media/v1/community/${kind}/${first.id}`)).statusCode).toBe(200);
    // The media is the profile's: another media's profile is served as that media's Reader serves it.
    await expectSameAsReader(ctx.app, theirs.reader, `${PUBLIC}/${kind}/${foreign.id}`, `/api/media/v1/community/${kind}/${foreign.id}`);
    for (const missing of [draft.id, gone.id, randomUUID()]) await expectPublicNotFound(ctx.app, `${PUBLIC}/${kind}/${missing}`, 'profile_not_found');
    await expectPublicBadId(ctx.app, `${PUBLIC}/${kind}/not-a-uuid`);
  });
});

it('answers 404 for a profile of another kind under a kind', async () => {
  const org = await createProfile(mine.editor, mine.community, 'organizations');
  await expectPublicNotFound(ctx.app, `${PUBLIC}/events/${org.id}`, 'profile_not_found');
  await expectPublicNotFound(ctx.app, `${PUBLIC}/people/${org.id}`, 'profile_not_found');
});
