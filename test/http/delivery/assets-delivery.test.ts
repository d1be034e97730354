import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { expectError } from '../../setup/expect.js';
import { type Client, type SeededMedia, client, seedMedia } from '../../setup/factories.js';
import { fileForm, filesUnder, jpeg, noisePng, png, tempDir, twoTone } from '../../assets/fixtures.js';

let ctx: TestContext;
let storage: Awaited<ReturnType<typeof tempDir>>;
let media: SeededMedia;
let api: Client;
/** A 400 × 300 JPEG and its image record. */
let photo: Buffer;
let photoKey: string;
let photoImageId: string;

const IMMUTABLE = 'public, max-age=31536000, immutable';

async function uploadImage(as: Client, data: Buffer, body: Record<string, unknown> = {}) {
  const { payload, headers } = fileForm(data);
  const asset = await as.post('/core/v2/assets', payload, headers);
  expect([200, 201], asset.body).toContain(asset.statusCode);
  const fileKey = asset.json().data.file_key as string;
  const image = await as.post('/core/v2/assets/images', { file_key: fileKey, name: 'Image', ...body });
  expect(image.statusCode, image.body).toBe(201);
  return { fileKey, imageId: image.json().data.id as string };
}

const get = (url: string, headers: Record<string, string> = {}) => ctx.app.inject({ method: 'GET', url, headers });

/** What the answer's bytes are, decoded. */
const decode = async (body: Buffer) => {
  const { format, width, height } = await sharp(body).metadata();
  return { format, width, height };
};

/** The colour at the centre of an image. */
async function centre(body: Buffer) {
  const { data, info } = await sharp(body).raw().toBuffer({ resolveWithObject: true });
  const at = (Math.floor(info.height / 2) * info.width + Math.floor(info.width / 2)) * info.channels;
  return [data[at]!, data[at + 1]!, data[at + 2]!];
}

beforeAll(async () => {
  storage = await tempDir('assets-delivery');
  ctx = await createTestApp({ storageDir: storage.path });
  media = await seedMedia(ctx.app);
  api = client(ctx.app, media.keys.editor);
  photo = await jpeg(400, 300);
  ({ fileKey: photoKey, imageId: photoImageId } = await uploadImage(api, photo));
});
afterAll(async () => {
  await ctx.close();
  await storage.remove();
});

describe('GET /assets/{file_key}', () => {
  it('serves the original bytes to anyone, with ETag, immutable caching and a cross-origin resource policy', async () => {
    const res = await get(`/assets/${photoKey}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.rawPayload.equals(photo)).toBe(true);
    expect(res.headers['content-length']).toBe(String(photo.length));
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
  });

  it('resizes keeping the aspect ratio, and converts to each format, as decoding the answer shows', async () => {
    const cases: Array<[string, { format: string; width: number; height: number }, string]> = [
      ['w=200', { format: 'jpeg', width: 200, height: 150 }, 'image/jpeg'],
      ['h=60', { format: 'jpeg', width: 80, height: 60 }, 'image/jpeg'],
      ['w=100&format=webp', { format: 'webp', width: 100, height: 75 }, 'image/webp'],
      ['w=100&format=png', { format: 'png', width: 100, height: 75 }, 'image/png'],
      ['w=64&format=avif', { format: 'heif', width: 64, height: 48 }, 'image/avif'],
      ['format=webp', { format: 'webp', width: 400, height: 300 }, 'image/webp'],
      ['w=120&h=120', { format: 'jpeg', width: 120, height: 120 }, 'image/jpeg'],
      ['w=120&h=120&fit=cover', { format: 'jpeg', width: 120, height: 120 }, 'image/jpeg'],
      ['w=120&h=120&fit=contain', { format: 'jpeg', width: 120, height: 120 }, 'image/jpeg'],
      ['w=120&h=120&fit=inside', { format: 'jpeg', width: 120, height: 90 }, 'image/jpeg'],
      // Never enlarged.
      ['w=4000', { format: 'jpeg', width: 400, height: 300 }, 'image/jpeg'],
    ];
    for (const [query, expected, type] of cases) {
      const res = await get(`/assets/${photoKey}?${query}`);
      expect(res.statusCode, `${query}: ${res.body.slice(0, 200)}`).toBe(200);
      expect(res.headers['content-type'], query).toBe(type);
      expect(res.headers['cache-control'], query).toBe(IMMUTABLE);
      expect(await decode(res.rawPayload), query).toEqual(expected);
    }
  });

  it('applies the quality: q=10 is smaller than q=95', async () => {
    // Noise, so that quality shows in the size (a flat colour costs the same at any quality).
    const { fileKey } = await uploadImage(api, await noisePng(120, 90));
    const low = await get(`/assets/${fileKey}?w=100&format=webp&q=10`);
    const high = await get(`/assets/${fileKey}?w=100&format=webp&q=95`);
    expect(await decode(low.rawPayload)).toEqual({ format: 'webp', width: 100, height: 75 });
    expect(low.rawPayload.length).toBeLessThan(high.rawPayload.length);
    expect(low.headers.etag).not.toBe(high.headers.etag);
  });

  it('answers 304 to a matching If-None-Match (strong, weak or in a list), and 200 to another tag', async () => {
    const first = await get(`/assets/${photoKey}?w=50`);
    const etag = first.headers.etag as string;
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await get(`/assets/${photoKey}?w=50`, { 'if-none-match': header });
      expect(res.statusCode, header).toBe(304);
      expect(res.body).toBe('');
      expect(res.headers.etag).toBe(etag);
      expect(res.headers['cache-control']).toBe(IMMUTABLE);
    }
    expect((await get(`/assets/${photoKey}?w=50`, { 'if-none-match': '"stale"' })).statusCode).toBe(200);
    // The original has its own tag.
    expect((await get(`/assets/${photoKey}`, { 'if-none-match': etag })).statusCode).toBe(200);
  });

  it('keeps each rendition in storage and serves it from there', async () => {
    const res = await get(`/assets/${photoKey}?w=77&format=png`);
    expect(res.statusCode).toBe(200);
    const variant = (await filesUnder(storage.path)).find((f) => f.startsWith('variants/') && f.endsWith('/77x0-inside-any-q0.png'));
    expect(variant, (await filesUnder(storage.path)).join('\n')).toBeDefined();
    expect(variant).toMatch(new RegExp(`^variants/${media.mediaId}/[0-9a-f]{64}/`));
    // Replaced behind the service's back: the next answer comes from storage, not a new render.
    const marker = await png(5, 5);
    await writeFile(join(storage.path, variant!), marker);
    expect((await get(`/assets/${photoKey}?w=77&format=png`)).rawPayload.equals(marker)).toBe(true);
  });

  it('renders a variant asked for many times at once only once, all answers alike', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => get(`/assets/${photoKey}?w=33&format=webp`)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((a) => a.rawPayload.toString('base64'))).size).toBe(1);
  });

  it("crops at the image's gravity, and a new gravity makes a new rendition", async () => {
    const { fileKey, imageId } = await uploadImage(api, await twoTone(200, 100, '#ff0000', '#0000ff'), { gravity: 'west' });
    const west = await get(`/assets/${fileKey}?w=50&h=50&format=png`);
    expect(await centre(west.rawPayload)).toEqual([255, 0, 0]);

    expect((await api.patch(`/core/v2/assets/images/${imageId}`, { gravity: 'east' })).statusCode).toBe(200);
    const east = await get(`/assets/${fileKey}?w=50&h=50&format=png`);
    expect(await centre(east.rawPayload)).toEqual([0, 0, 255]);
    expect(east.headers.etag).not.toBe(west.headers.etag);
  });

  it('answers 400 to parameters out of bounds, naming the parameter', async () => {
    for (const query of ['w=0', 'w=4097', 'h=0', 'h=5000', 'w=-1', 'w=1e3', 'w=abc', 'q=0', 'q=101', 'fit=stretch', 'format=svg', 'format=gif', 'w=', 'w=1&w=2']) {
      const res = await get(`/assets/${photoKey}?${query}`);
      const body = expectError(res, 400, 'validation_failed');
      expect(body.details?.[0]?.path, query).toMatch(/^(w|h|q|fit|format)$/);
    }
    expect((await get(`/assets/${photoKey}?w=4096&h=1`)).statusCode).toBe(200);
  });

  it('answers 400 to a malformed key, path tricks included, and 404 to a well-formed unknown one', async () => {
    for (const bad of ['photo.jpg', '..%2F..%2Fetc%2Fpasswd', `..%2F${photoKey}`, `${photoKey}.exe`, photoKey.toUpperCase()]) {
      expectError(await get(`/assets/${bad}`), 400, 'validation_failed');
    }
    expectError(await get(`/assets/${media.mediaId}_${'0'.repeat(64)}.jpg`), 404, 'asset_image_not_found');
    // A real file of the media with no image record over it is not served either.
    const { payload, headers } = fileForm(await png(12, 12, '#010203'));
    const bare = (await api.post('/core/v2/assets', payload, headers)).json().data.file_key as string;
    expectError(await get(`/assets/${bare}`), 404, 'asset_image_not_found');
  });

  it('stops serving a file once its image is deleted (404, renditions too), and serves it again after a restore', async () => {
    const { fileKey, imageId } = await uploadImage(api, await jpeg(60, 40, '#404040'));
    expect((await get(`/assets/${fileKey}?w=30`)).statusCode).toBe(200);
    expect((await api.delete(`/core/v2/assets/images/${imageId}`)).statusCode).toBe(204);
    expectError(await get(`/assets/${fileKey}`), 404, 'asset_image_not_found');
    expectError(await get(`/assets/${fileKey}?w=30`), 404, 'asset_image_not_found');
    expect((await api.post(`/core/v2/assets/images/${imageId}/restore`)).statusCode).toBe(200);
    expect((await get(`/assets/${fileKey}?w=30`)).statusCode).toBe(200);
  });

  it('keeps serving a file while another live record still uses it', async () => {
    const shared = await jpeg(30, 30, '#505050');
    const first = await uploadImage(api, shared);
    const second = await uploadImage(api, shared);
    expect(second.fileKey).toBe(first.fileKey);
    await api.delete(`/core/v2/assets/images/${first.imageId}`);
    expect((await get(`/assets/${first.fileKey}`)).statusCode).toBe(200);
    await api.delete(`/core/v2/assets/images/${second.imageId}`);
    expect((await get(`/assets/${first.fileKey}`)).statusCode).toBe(404);
  });

  it("serves every media's images under their own keys, one media's delete leaving the other's alone", async () => {
    const other = await seedMedia(ctx.app);
    const otherApi = client(ctx.app, other.keys.editor);
    const theirs = await uploadImage(otherApi, photo);
    expect(theirs.fileKey).toBe(photoKey.replace(media.mediaId, other.mediaId));
    await otherApi.delete(`/core/v2/assets/images/${theirs.imageId}`);
    expect((await get(`/assets/${theirs.fileKey}`)).statusCode).toBe(404);
    expect((await get(`/assets/${photoKey}`)).statusCode).toBe(200);
    // Nor can they delete ours.
    expectError(await otherApi.delete(`/core/v2/assets/images/${photoImageId}`), 404, 'asset_image_not_found');
  });
});

describe('rate limit of renditions', () => {
  let limited: TestContext;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let key: string;

  beforeAll(async () => {
    dir = await tempDir('assets-delivery-limit');
    limited = await createTestApp({
      storageDir: dir.path,
      rateLimit: { backoffice: 1000, reader: 300, anonymous: 3, token: 20 },
    });
    const seeded = await seedMedia(limited.app);
    const { payload, headers } = fileForm(await jpeg(80, 60));
    const own = client(limited.app, seeded.keys.editor);
    key = (await own.post('/core/v2/assets', payload, headers)).json().data.file_key;
    expect((await own.post('/core/v2/assets/images', { file_key: key, name: 'x' })).statusCode).toBe(201);
  });
  afterAll(async () => {
    await limited.close();
    await dir.remove();
  });

  it('counts only requests that make a new rendition: stored ones and the original stay open', async () => {
    const fetch = (query: string) => limited.app.inject({ method: 'GET', url: `/assets/${key}${query}` });
    for (const w of [10, 11, 12]) expect((await fetch(`?w=${w}`)).statusCode).toBe(200);
    const refused = await fetch('?w=13');
    expectError(refused, 429, 'rate_limited');
    expect(refused.headers['retry-after']).toBeDefined();
    for (let i = 0; i < 10; i++) {
      expect((await fetch('?w=10')).statusCode).toBe(200);
      expect((await fetch('')).statusCode).toBe(200);
    }
  });
});

describe('the OpenAPI document', () => {
  it('documents delivery with its operationId and image types, and uploads as multipart forms', async () => {
    const doc = (await get('/openapi.json')).json();
    const delivery = doc.paths['/assets/{file_key}'].get;
    expect(delivery.operationId).toBe('deliverAsset');
    expect(Object.keys(delivery.responses['200'].content).sort()).toEqual(['image/avif', 'image/gif', 'image/jpeg', 'image/png', 'image/webp']);
    expect(delivery.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['file_key', 'fit', 'format', 'h', 'q', 'w']);
    expect(delivery.security).toEqual([]);
    const upload = doc.paths['/core/v2/assets'].post;
    expect(upload.operationId).toBe('uploadAsset');
    expect(Object.keys(upload.requestBody.content)).toEqual(['multipart/form-data']);
    expect(Object.keys(upload.responses)).toEqual(expect.arrayContaining(['200', '201', '413', '415', '422']));
    const reader = doc.paths['/api/media/v1/assets/images'].post;
    expect(reader.operationId).toBe('readerUploadAssetImage');
    expect(Object.keys(reader.requestBody.content)).toEqual(['multipart/form-data']);
  });
});
