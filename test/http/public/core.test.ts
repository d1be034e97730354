import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { type SeededMedia, client, seedMedia } from '../../setup/factories.js';
import { type ReaderOf, expectPublicBadId, expectPublicNotFound, expectSameAsReader, publicGet, readerOf } from '../../setup/public.js';

// The core group of the deprecated Public API: a media by id and a reference by ref, twins of
// the Reader's operations, the media taken from the path.

let ctx: TestContext;
let media: SeededMedia;
let other: SeededMedia;
let reader: ReaderOf;
let otherReader: ReaderOf;
let ref: string;
let urn: string;

const PUBLIC = '/api/public/core/v2';

beforeAll(async () => {
  ctx = await createTestApp({ rateLimit: { backoffice: 10_000, reader: 10_000, anonymous: 10_000, token: 10_000 } });
  media = await seedMedia(ctx.app, { locales: ['fr', 'en'], name: 'Le Quotidien' });
  other = await seedMedia(ctx.app, { locales: ['de'], name: 'Die Zeitung' });
  reader = await readerOf(ctx.app, media.keys.admin, media.mediaId);
  otherReader = await readerOf(ctx.app, other.keys.admin, other.mediaId);
  urn = `urn:mps:content:${randomUUID()}`;
  ref = (await client(ctx.app, media.keys.editor).post('/core/v2/references', { provider: 'wordpress', urn })).json().data.ref;
});
afterAll(() => ctx.close());

describe('Public (deprecated) GET /api/public/core/v2/medias/:media_id', () => {
  const url = (mediaId: string) => `${PUBLIC}/medias/${mediaId}`;

  it('serves the media overview of the media in the path, as the Reader does for its own', async () => {
    const res = await publicGet(ctx.app, url(media.mediaId), '/api/media/v1/media');
    expect(res.statusCode, res.body).toBe(200);
    const body = await expectSameAsReader(ctx.app, reader, url(media.mediaId), '/api/media/v1/media');
    expect(body.data).toEqual({
      id: media.mediaId,
      name: 'Le Quotidien',
      default_locale: 'fr',
      locales: ['fr', 'en'],
      site_url: null,
      locale_fallbacks: {},
      meter: { limit: 0, period_days: 30 },
      inserted_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const theirs = await expectSameAsReader(ctx.app, otherReader, url(other.mediaId), '/api/media/v1/media');
    expect(theirs.data).toMatchObject({ id: other.mediaId, name: 'Die Zeitung', locales: ['de'] });
  });

  it('answers 404 media_not_found for an unknown media, 400 for a malformed id', async () => {
    await expectPublicNotFound(ctx.app, url(randomUUID()), 'media_not_found');
    await expectPublicBadId(ctx.app, url('nope'));
  });
});

describe('Public (deprecated) GET /api/public/core/v2/medias/:media_id/references/:ref', () => {
  const url = (mediaId: string, r: string) => `${PUBLIC}/medias/${mediaId}/references/${encodeURIComponent(r)}`;

  it('resolves the reference as the Reader does', async () => {
    const body = await expectSameAsReader(ctx.app, reader, url(media.mediaId, ref), `/api/media/v1/references/${encodeURIComponent(ref)}`);
    expect(body.data).toMatchObject({ ref, urn, provider: 'wordpress', expires_at: null });
    const res = await publicGet(ctx.app, url(media.mediaId, ref), `/api/media/v1/references/${encodeURIComponent(ref)}`);
    expect(res.statusCode).toBe(200);
  });

  it('answers 404 for another media’s reference, an unknown ref or media; 400 for a malformed media id', async () => {
    await expectPublicNotFound(ctx.app, url(other.mediaId, ref));
    await expectPublicNotFound(ctx.app, url(media.mediaId, `wordpress:${randomUUID()}`));
    await expectPublicNotFound(ctx.app, url(randomUUID(), ref), 'media_not_found');
    await expectPublicBadId(ctx.app, url('nope', ref));
  });
});
