import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { ISO_MS, UUID, expectError } from '../../setup/expect.js';
import { type Client, type SeededMedia, client, seedMedia } from '../../setup/factories.js';
import {
  HTML,
  SVG,
  ZIP,
  avif,
  fileForm,
  filesUnder,
  form,
  gif,
  jpeg,
  noisePng,
  png,
  pngDeclaring,
  rotatedJpeg,
  sha256,
  tempDir,
  truncatedJpeg,
  webp,
} from '../../assets/fixtures.js';

const UPLOAD_LIMIT = 100_000;

let ctx: TestContext;
let storage: Awaited<ReturnType<typeof tempDir>>;
let media: SeededMedia;
let api: Client;
let viewer: Client;
let photo: Buffer;

beforeAll(async () => {
  storage = await tempDir('assets-backoffice');
  ctx = await createTestApp({ storageDir: storage.path, uploadLimit: UPLOAD_LIMIT });
  media = await seedMedia(ctx.app);
  api = client(ctx.app, media.keys.editor);
  viewer = client(ctx.app, media.keys.viewer);
  photo = await jpeg(120, 80);
});
afterAll(async () => {
  await ctx.close();
  await storage.remove();
});

const upload = (as: Client, data: Buffer, filename = 'photo.jpg', contentType = 'image/jpeg') => {
  const { payload, headers } = fileForm(data, filename, contentType);
  return as.post('/core/v2/assets', payload, headers);
};

/** Uploads through the API and answers the asset's wire shape. */
async function uploaded(data: Buffer, as: Client = api) {
  const res = await upload(as, data);
  expect([200, 201], res.body).toContain(res.statusCode);
  return res.json().data as AssetWire;
}

interface AssetWire {
  id: string;
  file_key: string;
  file_hash: string;
  content_type: string;
  size: number;
  width: number;
  height: number;
  inserted_at: string;
}

interface ImageWire {
  id: string;
  file_key: string;
  file_hash: string;
  name: string;
  gravity: string;
  locales: Array<{ id: string; locale: string; credit: string | null; caption_html: string | null }>;
  inserted_at: string;
  updated_at: string;
  deleted_at: string | null;
}

async function createImage(body: Record<string, unknown>, as: Client = api) {
  const res = await as.post('/core/v2/assets/images', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as ImageWire;
}

describe('POST /core/v2/assets (upload)', () => {
  it('stores a JPEG and answers 201 with the asset, its key derived from the media and the hash', async () => {
    const res = await upload(api, photo);
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data as AssetWire;
    const hash = sha256(photo);
    expect(data).toEqual({
      id: expect.stringMatching(UUID),
      file_key: `${media.mediaId}_${hash}.jpg`,
      file_hash: hash,
      content_type: 'image/jpeg',
      size: photo.length,
      width: 120,
      height: 80,
      inserted_at: expect.stringMatching(ISO_MS),
    });
    expect(await filesUnder(storage.path)).toContain(`originals/${media.mediaId}/${hash}`);

    const fetched = await api.get(`/core/v2/assets/${data.id}`);
    expect(fetched.statusCode).toBe(200);
    expect(fetched.json()).toEqual({ data });
  });

  it('answers the same bytes again with 200 and the asset they made, whatever the file is called', async () => {
    const first = await uploaded(photo);
    const again = await upload(api, photo, 'another-name.png', 'image/png');
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual(first);
  });

  it('takes the type from the bytes, not from the name or the declared type', async () => {
    const cases: Array<[Buffer, string, string]> = [
      [await png(40, 30), 'image/png', 'png'],
      [await webp(40, 30), 'image/webp', 'webp'],
      [await avif(40, 30), 'image/avif', 'avif'],
      [await gif(40, 30), 'image/gif', 'gif'],
    ];
    for (const [bytes, type, ext] of cases) {
      const res = await upload(api, bytes, 'lies.jpg', 'image/jpeg');
      expect(res.statusCode, `${type}: ${res.body}`).toBe(201);
      expect(res.json().data).toMatchObject({ content_type: type, width: 40, height: 30, file_key: `${media.mediaId}_${sha256(bytes)}.${ext}` });
    }
  });

  it('reports the size as displayed, with the EXIF orientation applied', async () => {
    expect(await uploaded(await rotatedJpeg())).toMatchObject({ width: 32, height: 64 });
  });

  describe('refusals, which store nothing', () => {
    const refused = async (data: Buffer, filename: string, contentType: string, status: number, code: string) => {
      const before = await filesUnder(storage.path);
      const body = expectError(await upload(api, data, filename, contentType), status, code);
      expect(await filesUnder(storage.path)).toEqual(before);
      return body;
    };

    it('refuses SVG with 415, saying so', async () => {
      const body = await refused(SVG, 'logo.svg', 'image/svg+xml', 415, 'unsupported_image_type');
      expect(body.error).toMatch(/SVG/);
    });

    it('refuses an HTML page renamed .jpg with 415', async () => {
      await refused(HTML, 'holiday.jpg', 'image/jpeg', 415, 'unsupported_image_type');
    });

    it('refuses a zip archive and an empty file with 415', async () => {
      await refused(ZIP, 'photos.zip', 'application/zip', 415, 'unsupported_image_type');
      await refused(Buffer.alloc(0), 'empty.jpg', 'image/jpeg', 415, 'unsupported_image_type');
    });

    it('refuses a truncated JPEG with 422', async () => {
      await refused(await truncatedJpeg(), 'cut.jpg', 'image/jpeg', 422, 'invalid_image');
    });

    it('refuses a file past UPLOAD_LIMIT with 413', async () => {
      const big = await noisePng(200, 200);
      expect(big.length).toBeGreaterThan(UPLOAD_LIMIT);
      const body = await refused(big, 'big.png', 'image/png', 413, 'payload_too_large');
      expect(body.error).toContain(String(UPLOAD_LIMIT));
    });

    it('refuses a decompression bomb (a small PNG declaring 30,000 x 30,000 pixels) from its header, with 413', async () => {
      const bomb = pngDeclaring(30_000, 30_000);
      expect(bomb.length).toBeLessThan(100_000);
      const started = Date.now();
      const body = await refused(bomb, 'bomb.png', 'image/png', 413, 'image_too_large');
      expect(body.error).toMatch(/30000 x 30000/);
      // Decoding 900 megapixels would take seconds and gigabytes; reading a header takes nothing.
      expect(Date.now() - started).toBeLessThan(2_000);
    });

    it('answers 415 to a body that is not multipart, and 400 to a form without its file or with strangers in it', async () => {
      expectError(await api.post('/core/v2/assets', { file: 'x' }), 415, 'unsupported_media_type');
      const noFile = form([{ name: 'note', value: 'hello' }]);
      expectError(await api.post('/core/v2/assets', noFile.payload, noFile.headers), 400, 'validation_failed');
      const wrongField = form([{ name: 'image', filename: 'a.jpg', data: photo }]);
      expectError(await api.post('/core/v2/assets', wrongField.payload, wrongField.headers), 400, 'validation_failed');
      const extra = fileForm(photo, 'a.jpg', 'image/jpeg', [{ name: 'owner', value: 'me' }]);
      expectError(await api.post('/core/v2/assets', extra.payload, extra.headers), 400, 'validation_failed');
      const twoFiles = form([
        { name: 'file', filename: 'a.jpg', data: photo },
        { name: 'file', filename: 'b.jpg', data: photo },
      ]);
      expectError(await api.post('/core/v2/assets', twoFiles.payload, twoFiles.headers), 400, 'validation_failed');
    });

    it('answers 400 to a malformed or cut-off multipart body', async () => {
      const { payload, headers } = fileForm(photo);
      const cut = payload.subarray(0, payload.length - 30);
      expectError(await api.post('/core/v2/assets', cut, headers), 400, 'invalid_multipart');
      expectError(await api.post('/core/v2/assets', 'not a form', { 'content-type': 'multipart/form-data; boundary=x' }), 400, 'invalid_multipart');
    });
  });

  it('never lets a client file name reach the file system: `../` names are only labels', async () => {
    const bytes = await png(33, 33);
    const escape = '../../../../../../tmp/mps-escape.png';
    const res = await upload(api, bytes, escape, 'image/png');
    expect(res.statusCode).toBe(201);
    const data = res.json().data as AssetWire;
    expect(data.file_key).toBe(`${media.mediaId}_${sha256(bytes)}.png`);
    expect(existsSync('/tmp/mps-escape.png')).toBe(false);
    expect(existsSync(resolve(storage.path, escape))).toBe(false);
    for (const file of await filesUnder(storage.path)) expect(file).toMatch(/^(originals|variants)\/[0-9a-f-]{36}\/[0-9a-f]{64}(\/[a-z0-9.-]+)?$/);
  });

  it('is refused to a viewer (403), and GET by id answers 404 for an unknown or malformed id', async () => {
    expectError(await upload(viewer, photo), 403, 'forbidden');
    expectError(await api.get('/core/v2/assets/0190c9a8-1234-7000-8000-000000000000'), 404, 'asset_not_found');
    expectError(await api.get('/core/v2/assets/nope'), 400, 'invalid_uuid');
  });
});

describe('asset images', () => {
  let asset: AssetWire;
  beforeAll(async () => {
    asset = await uploaded(await png(90, 60, '#aa5500'));
  });

  it('creates a record over an uploaded file, exactly spec 2.9, with its caption sanitized', async () => {
    const res = await api.post('/core/v2/assets/images', {
      file_key: asset.file_key,
      name: 'Harbour at dawn',
      gravity: 'northeast',
      locales: [
        { locale: 'en', credit: 'Jane Doe / Agency', caption_html: '<p>The <b>harbour</b><script>alert(1)</script></p><img src=x onerror=alert(1)>' },
        { locale: 'fr', caption_html: 'Le port' },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data as ImageWire;
    expect(Object.keys(data).sort()).toEqual(['deleted_at', 'file_hash', 'file_key', 'gravity', 'id', 'inserted_at', 'locales', 'name', 'updated_at']);
    expect(data).toMatchObject({
      file_key: asset.file_key,
      file_hash: asset.file_hash,
      name: 'Harbour at dawn',
      gravity: 'northeast',
      deleted_at: null,
    });
    expect(data.id).toMatch(UUID);
    expect(data.inserted_at).toMatch(ISO_MS);
    expect(data.updated_at).toMatch(ISO_MS);
    expect(data.locales).toEqual([
      { id: expect.stringMatching(UUID), locale: 'en', credit: 'Jane Doe / Agency', caption_html: '<p>The <b>harbour</b></p><img src="x" />' },
      { id: expect.stringMatching(UUID), locale: 'fr', credit: null, caption_html: 'Le port' },
    ]);
    expect((await api.get(`/core/v2/assets/images/${data.id}`)).json()).toEqual({ data });
  });

  it('defaults gravity to center and locales to none', async () => {
    const data = await createImage({ file_key: asset.file_key, name: 'Plain' });
    expect(data).toMatchObject({ gravity: 'center', locales: [] });
  });

  it('refuses an unknown file (404), a locale the media lacks, an unknown gravity and server-owned fields (400)', async () => {
    const other = `${media.mediaId}_${'0'.repeat(64)}.jpg`;
    expectError(await api.post('/core/v2/assets/images', { file_key: other, name: 'x' }), 404, 'asset_not_found');
    expectError(await api.post('/core/v2/assets/images', { file_key: asset.file_key, name: 'x', locales: [{ locale: 'de' }] }), 400, 'unsupported_locale');
    expectError(await api.post('/core/v2/assets/images', { file_key: asset.file_key, name: 'x', gravity: 'up' }), 400, 'validation_failed');
    expectError(await api.post('/core/v2/assets/images', { file_key: 'photo.jpg', name: 'x' }), 400, 'validation_failed');
    for (const field of ['id', 'file_hash', 'inserted_at', 'deleted_at']) {
      const res = await api.post('/core/v2/assets/images', { file_key: asset.file_key, name: 'x', [field]: 'x' });
      expectError(res, 400, 'validation_failed');
    }
  });

  it('lists live records newest first, with cursor links', async () => {
    const fresh = await seedMedia(ctx.app);
    const own = client(ctx.app, fresh.keys.editor);
    const file = await uploaded(photo, own);
    const made: string[] = [];
    for (let i = 0; i < 3; i++) made.push((await createImage({ file_key: file.file_key, name: `n${i}` }, own)).id);
    const first = (await own.get('/core/v2/assets/images?limit=2')).json();
    expect(first.data.map((i: ImageWire) => i.id)).toEqual([made[2], made[1]]);
    expect(first.meta).toMatchObject({ base: '/core/v2/assets/images?limit=2', previous: null });
    const second = (await own.get(first.meta.next)).json();
    expect(second.data.map((i: ImageWire) => i.id)).toEqual([made[0]]);
    expect(second.meta.next).toBeNull();
  });

  it('finds the newest live record of a file by key and by hash (two records may share a file)', async () => {
    const file = await uploaded(await png(21, 21));
    const older = await createImage({ file_key: file.file_key, name: 'older' });
    const newer = await createImage({ file_key: file.file_key, name: 'newer' });
    const byKey = await api.get(`/core/v2/assets/images/by-key/${file.file_key}`);
    expect(byKey.statusCode).toBe(200);
    expect(byKey.json().data).toEqual(newer);
    // A hash is taken in either case.
    const byHash = await viewer.get(`/core/v2/assets/images/by-hash/${file.file_hash.toUpperCase()}`);
    expect(byHash.json().data).toEqual(newer);

    expect((await api.delete(`/core/v2/assets/images/${newer.id}`)).statusCode).toBe(204);
    expect((await api.get(`/core/v2/assets/images/by-key/${file.file_key}`)).json().data.id).toBe(older.id);
    expect((await api.delete(`/core/v2/assets/images/${older.id}`)).statusCode).toBe(204);
    expectError(await api.get(`/core/v2/assets/images/by-key/${file.file_key}`), 404, 'asset_image_not_found');
    expectError(await api.get(`/core/v2/assets/images/by-hash/${file.file_hash}`), 404, 'asset_image_not_found');
  });

  it('answers 400 to a malformed key or hash, path tricks included', async () => {
    for (const bad of ['photo.jpg', '..%2F..%2Fetc%2Fpasswd', `${media.mediaId}_${'a'.repeat(64)}.svg`, `${media.mediaId}_${'a'.repeat(63)}.jpg`]) {
      expectError(await api.get(`/core/v2/assets/images/by-key/${bad}`), 400, 'validation_failed');
    }
    expectError(await api.get(`/core/v2/assets/images/by-hash/${'g'.repeat(64)}`), 400, 'validation_failed');
  });

  it('updates name, gravity, file and the complete set of locales, moving updated_at', async () => {
    const created = await createImage({
      file_key: asset.file_key,
      name: 'Before',
      locales: [
        { locale: 'en', credit: 'A', caption_html: 'One' },
        { locale: 'fr', credit: 'B', caption_html: 'Un' },
      ],
    });
    const other = await uploaded(await webp(30, 20));
    const res = await api.patch(`/core/v2/assets/images/${created.id}`, {
      name: 'After',
      gravity: 'smart',
      file_key: other.file_key,
      locales: [{ locale: 'en', credit: 'A2', caption_html: '<i>One</i>' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data as ImageWire;
    expect(data).toMatchObject({ id: created.id, name: 'After', gravity: 'smart', file_key: other.file_key, file_hash: other.file_hash });
    expect(data.locales).toEqual([{ id: created.locales[0]!.id, locale: 'en', credit: 'A2', caption_html: '<i>One</i>' }]);
    expect(data.updated_at >= created.updated_at).toBe(true);
    expect(data.inserted_at).toBe(created.inserted_at);

    // Fields left out keep their value.
    const renamed = (await api.patch(`/core/v2/assets/images/${created.id}`, { name: 'Again' })).json().data as ImageWire;
    expect(renamed).toMatchObject({ name: 'Again', gravity: 'smart', file_key: other.file_key });
    expect(renamed.locales).toEqual(data.locales);

    expectError(await api.patch(`/core/v2/assets/images/${created.id}`, { file_hash: 'x' }), 400, 'validation_failed');
    expectError(await api.patch(`/core/v2/assets/images/${created.id}`, { file_key: `${media.mediaId}_${'1'.repeat(64)}.png` }), 404, 'asset_not_found');
    expectError(await viewer.patch(`/core/v2/assets/images/${created.id}`, { name: 'x' }), 403, 'forbidden');
  });

  it('soft-deletes with the locale entries, and restore brings back exactly those', async () => {
    const created = await createImage({
      file_key: asset.file_key,
      name: 'Deleted',
      locales: [
        { locale: 'en', caption_html: 'kept' },
        { locale: 'fr', caption_html: 'removed before' },
      ],
    });
    // The French entry goes on its own first: the restore must not bring it back.
    await api.patch(`/core/v2/assets/images/${created.id}`, { locales: [{ locale: 'en', caption_html: 'kept' }] });

    expect((await api.delete(`/core/v2/assets/images/${created.id}`)).statusCode).toBe(204);
    expectError(await api.get(`/core/v2/assets/images/${created.id}`), 404, 'asset_image_not_found');
    expectError(await api.patch(`/core/v2/assets/images/${created.id}`, { name: 'x' }), 404, 'asset_image_not_found');
    expectError(await api.delete(`/core/v2/assets/images/${created.id}`), 404, 'asset_image_not_found');
    const listed = (await api.get('/core/v2/assets/images?limit=100')).json().data as ImageWire[];
    expect(listed.map((i) => i.id)).not.toContain(created.id);

    const restored = await api.post(`/core/v2/assets/images/${created.id}/restore`);
    expect(restored.statusCode).toBe(200);
    const data = restored.json().data as ImageWire;
    expect(data).toMatchObject({ id: created.id, name: 'Deleted', deleted_at: null });
    expect(data.locales.map((l) => [l.locale, l.caption_html])).toEqual([['en', 'kept']]);

    // Restoring a live record is a no-op 200; an unknown one is a 404.
    expect((await api.post(`/core/v2/assets/images/${created.id}/restore`)).json()).toEqual({ data });
    expectError(await api.post('/core/v2/assets/images/0190c9a8-1234-7000-8000-000000000000/restore'), 404, 'asset_image_not_found');
  });
});

describe('tenancy', () => {
  let other: SeededMedia;
  let otherApi: Client;
  let theirs: ImageWire;
  let theirAsset: AssetWire;

  beforeAll(async () => {
    other = await seedMedia(ctx.app);
    otherApi = client(ctx.app, other.keys.admin);
    theirAsset = await uploaded(await png(17, 17, '#112233'), otherApi);
    theirs = await createImage({ file_key: theirAsset.file_key, name: 'Theirs' }, otherApi);
  });

  it("cannot read, update, delete or restore another media's image, or use its file: each answers 404", async () => {
    expectError(await api.get(`/core/v2/assets/${theirAsset.id}`), 404, 'asset_not_found');
    expectError(await api.get(`/core/v2/assets/images/${theirs.id}`), 404, 'asset_image_not_found');
    expectError(await api.get(`/core/v2/assets/images/by-key/${theirs.file_key}`), 404, 'asset_image_not_found');
    expectError(await api.get(`/core/v2/assets/images/by-hash/${theirs.file_hash}`), 404, 'asset_image_not_found');
    expectError(await api.patch(`/core/v2/assets/images/${theirs.id}`, { name: 'Mine now' }), 404, 'asset_image_not_found');
    expectError(await api.delete(`/core/v2/assets/images/${theirs.id}`), 404, 'asset_image_not_found');
    expectError(await api.post(`/core/v2/assets/images/${theirs.id}/restore`), 404, 'asset_image_not_found');
    expectError(await api.post('/core/v2/assets/images', { file_key: theirs.file_key, name: 'Borrowed' }), 404, 'asset_not_found');

    expect((await api.get('/core/v2/assets/images?limit=100')).json().data.map((i: ImageWire) => i.id)).not.toContain(theirs.id);
    // Untouched on their side.
    expect((await otherApi.get(`/core/v2/assets/images/${theirs.id}`)).json().data).toEqual(theirs);
  });

  it("gets a file of its own for the same bytes another media uploaded, under its own key", async () => {
    const bytes = await png(17, 17, '#112233');
    const mine = await upload(api, bytes, 'same.png', 'image/png');
    expect(mine.statusCode).toBe(201);
    expect(mine.json().data.file_key).toBe(`${media.mediaId}_${sha256(bytes)}.png`);
    expect(mine.json().data.id).not.toBe(theirAsset.id);
  });

  it("cannot restore another media's deleted image", async () => {
    expect((await otherApi.delete(`/core/v2/assets/images/${theirs.id}`)).statusCode).toBe(204);
    expectError(await api.post(`/core/v2/assets/images/${theirs.id}/restore`), 404, 'asset_image_not_found');
    expect((await otherApi.post(`/core/v2/assets/images/${theirs.id}/restore`)).statusCode).toBe(200);
  });
});
