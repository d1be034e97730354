import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { ISO_MS, UUID, expectError } from '../../setup/expect.js';
import { type SeededMedia, client, seedMedia } from '../../setup/factories.js';
import { type JwksTestProvider, startJwksProvider } from '../../setup/identity-providers.js';
import { clientToken, readerClient, readersOf, registerClient, registerProvider } from '../../setup/reader.js';
import sharp from 'sharp';
import { SVG, fileForm, jpeg, noisePng, png, sha256, tempDir } from '../../assets/fixtures.js';

const READER_UPLOAD_LIMIT = 50_000;
const UPLOADS_PER_MINUTE = 4;
const URL = '/api/media/v1/assets/images';

let ctx: TestContext;
let storage: Awaited<ReturnType<typeof tempDir>>;
let media: SeededMedia;
let jwks: JwksTestProvider;
let readOnly: JwksTestProvider;
let readers: ReturnType<typeof readersOf>;

beforeAll(async () => {
  storage = await tempDir('assets-reader');
  ctx = await createTestApp({ storageDir: storage.path, readerUploadLimit: READER_UPLOAD_LIMIT, readerUploadRateLimit: UPLOADS_PER_MINUTE });
  media = await seedMedia(ctx.app, { locales: ['fr', 'en'] });
  jwks = await startJwksProvider();
  readOnly = await startJwksProvider();
  await registerProvider(ctx.app, media.keys.admin, jwks.registration);
  await registerProvider(ctx.app, media.keys.admin, { ...readOnly.registration, scopes: ['media:read', 'account:read'] });
  readers = readersOf(ctx.app, jwks, media.mediaId);
});
afterAll(async () => {
  await ctx?.close();
  await jwks?.close();
  await readOnly?.close();
  await storage?.remove();
});

type Reader = Awaited<ReturnType<typeof readers.signIn>>['api'];

const send = (reader: Reader, data: Buffer, filename = 'me.jpg', extra: Parameters<typeof fileForm>[3] = []) => {
  const { payload, headers } = fileForm(data, filename, 'image/jpeg', extra);
  return reader.post(URL, payload, headers);
};

describe('POST /api/media/v1/assets/images', () => {
  it("stores the reader's image and answers 201 with the image record, credit and caption in the media's default language", async () => {
    const { api } = await readers.signIn('uploader-1');
    const bytes = await jpeg(48, 48, '#224466');
    const res = await send(api, bytes, 'portrait.jpg', [
      { name: 'name', value: 'My portrait' },
      { name: 'credit', value: 'Photo: a friend' },
      { name: 'caption', value: 'Me & <b>my</b> cat' },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data;
    expect(data).toEqual({
      id: expect.stringMatching(UUID),
      file_key: `${media.mediaId}_${sha256(bytes)}.jpg`,
      file_hash: sha256(bytes),
      name: 'My portrait',
      gravity: 'center',
      // Plain text: escaped, never taken as HTML.
      locales: [{ id: expect.stringMatching(UUID), locale: 'fr', credit: 'Photo: a friend', caption_html: 'Me &amp; &lt;b&gt;my&lt;/b&gt; cat' }],
      inserted_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
      deleted_at: null,
    });

    // Delivered like any image, and visible to the Backoffice by its key.
    const delivered = await ctx.app.inject({ method: 'GET', url: `/assets/${data.file_key}` });
    expect(delivered.statusCode).toBe(200);
    expect(delivered.rawPayload.equals(bytes)).toBe(true);
    const backoffice = await client(ctx.app, media.keys.viewer).get(`/core/v2/assets/images/by-key/${data.file_key}`);
    expect(backoffice.json().data).toEqual(data);
  });

  it("names the record after the file's own name without its path, and gives it no locale entry when nothing is said", async () => {
    const { api } = await readers.signIn('uploader-2');
    const res = await send(api, await png(20, 20, '#102030'), '../../../etc/avatar.png');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ name: 'avatar.png', locales: [] });
  });

  it('refuses a file past READER_UPLOAD_LIMIT (413), SVG (415), unknown fields and overlong ones (400)', async () => {
    // Each refusal by a reader of its own: every attempt counts against the upload limit.
    const reader = async (sub: string) => (await readers.signIn(sub)).api;
    const big = await noisePng(150, 150);
    expect(big.length).toBeGreaterThan(READER_UPLOAD_LIMIT);
    expectError(await send(await reader('refused-big'), big), 413, 'payload_too_large');
    expectError(await send(await reader('refused-svg'), SVG, 'me.svg'), 415, 'unsupported_image_type');
    expectError(await send(await reader('refused-field'), await jpeg(), 'me.jpg', [{ name: 'gravity', value: 'north' }]), 400, 'validation_failed');
    const long = await send(await reader('refused-long'), await jpeg(), 'me.jpg', [{ name: 'credit', value: 'x'.repeat(501) }]);
    expect(expectError(long, 400, 'validation_failed').details).toEqual([{ path: 'credit', message: expect.any(String) }]);
    expectError(await (await reader('refused-json')).post(URL, { name: 'json' }), 415, 'unsupported_media_type');
  });

  it('needs a signed-in reader with account:write: 401 without a token, 403 for an application or a read-only token', async () => {
    const bytes = await jpeg();
    const { payload, headers } = fileForm(bytes);
    expectError(await readerClient(ctx.app, media.mediaId).post(URL, payload, headers), 401, 'missing_token');
    const appToken = (await clientToken(ctx.app, await registerClient(ctx.app, media.keys.admin))).access_token;
    expectError(await readerClient(ctx.app, media.mediaId, appToken).post(URL, payload, headers), 403, 'reader_required');
    const reading = readerClient(ctx.app, media.mediaId, await readOnly.mint({ sub: 'read-only' }));
    expectError(await reading.post(URL, payload, headers), 403, 'insufficient_scope');
  });

  it('limits uploads per reader (429 past RATE_LIMIT_READER_UPLOADS a minute), leaving other readers their own budget', async () => {
    const { api } = await readers.signIn('uploader-busy');
    for (let i = 0; i < UPLOADS_PER_MINUTE; i++) {
      expect((await send(api, await png(10 + i, 10, '#334455'))).statusCode).toBe(201);
    }
    const refused = await send(api, await png(30, 10, '#334455'));
    expectError(refused, 429, 'rate_limited');
    expect(refused.headers['retry-after']).toBeDefined();
    // Other reader routes are counted apart.
    expect((await api.get('/api/media/v1/oauth/userinfo')).statusCode).toBe(200);
    const { api: someoneElse } = await readers.signIn('uploader-calm');
    expect((await send(someoneElse, await png(31, 10, '#334455'))).statusCode).toBe(201);
  });
});

describe("a reader's photo with metadata", () => {
  it('is stored and served without its EXIF (GPS position, camera), upright, and keyed by the bytes kept', async () => {
    const { api } = await readers.signIn('uploader-gps');
    const photo = await sharp({ create: { width: 60, height: 30, channels: 3, background: '#446688' } })
      .withMetadata({ orientation: 6 })
      .withExifMerge({
        IFD0: { Make: 'PhoneMaker', Model: 'Phone 9' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2400/100', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 300/100' },
      })
      .jpeg()
      .toBuffer();
    expect(photo.includes(Buffer.from('PhoneMaker'))).toBe(true);
    expect((await sharp(photo).metadata()).orientation).toBe(6);

    const res = await send(api, photo, 'holiday.jpg');
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data as { file_key: string; file_hash: string };
    const served = await ctx.app.inject({ method: 'GET', url: `/assets/${data.file_key}` });
    expect(served.statusCode).toBe(200);
    const kept = served.rawPayload;
    const meta = await sharp(kept).metadata();
    expect(meta.exif).toBeUndefined();
    expect(kept.includes(Buffer.from('PhoneMaker'))).toBe(false);
    // Orientation 6 applied: 60 x 30 stored as 30 x 60, a JPEG still.
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({ format: 'jpeg', width: 30, height: 60 });
    expect(data.file_hash).toBe(sha256(kept));
    expect(data.file_key).toBe(`${media.mediaId}_${sha256(kept)}.jpg`);
  });
});

describe('the upload as the Reader profile image', () => {
  it("is taken as profile_image_key by the reader's profile; an unknown, deleted or other media's key is a 404 that changes nothing; null clears it", async () => {
    const { api } = await readers.signIn('portrait-owner');
    const uploaded = await send(api, await jpeg(40, 40, '#663311'), 'face.jpg');
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const image = uploaded.json().data as { id: string; file_key: string };

    const created = await api.post('/api/media/v1/accounts/me/profile', { first_name: 'Ida', profile_image_key: image.file_key });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data).toMatchObject({ first_name: 'Ida', profile_image_key: image.file_key });

    // Another media's image, with the same kind of key: not this media's.
    const other = await seedMedia(ctx.app);
    const otherBytes = await png(20, 20, '#101010');
    const { payload, headers } = fileForm(otherBytes, 'other.png', 'image/png');
    const otherFile = await client(ctx.app, other.keys.admin).post('/core/v2/assets', payload, headers);
    expect(otherFile.statusCode, otherFile.body).toBe(201);
    const otherKey = otherFile.json().data.file_key as string;
    expect((await client(ctx.app, other.keys.admin).post('/core/v2/assets/images', { file_key: otherKey, name: 'Other' })).statusCode).toBe(201);

    // A key nobody uploaded, the other media's, and this media's image once deleted: 404, profile unchanged.
    const deletedBytes = await jpeg(30, 30, '#aa00aa');
    const doomed = (await send(api, deletedBytes, 'old.jpg')).json().data as { id: string; file_key: string };
    expect((await client(ctx.app, media.keys.admin).delete(`/core/v2/assets/images/${doomed.id}`)).statusCode).toBe(204);
    for (const key of [`${media.mediaId}_${'0'.repeat(64)}.jpg`, otherKey, doomed.file_key]) {
      expectError(await api.patch('/api/media/v1/accounts/me/profile', { first_name: 'Changed', profile_image_key: key }), 404, 'asset_image_not_found');
    }
    expect((await api.get('/api/media/v1/accounts/me/profile')).json().data).toMatchObject({ first_name: 'Ida', profile_image_key: image.file_key });

    const cleared = await api.patch('/api/media/v1/accounts/me/profile', { profile_image_key: null });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json().data).toMatchObject({ first_name: 'Ida', profile_image_key: null });
  });
});
