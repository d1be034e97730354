import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import S3rver from 's3rver';
import sharp from 'sharp';
import type { S3Options } from '../../src/modules/core/assets/storage/index.js';

// Images made in memory by sharp, small so that every test stays fast.

const solid = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } });

export const jpeg = (width = 64, height = 48, background = '#c03030') => solid(width, height, background).jpeg().toBuffer();
export const png = (width = 64, height = 48, background = '#3060c0') => solid(width, height, background).png().toBuffer();
export const webp = (width = 64, height = 48) => solid(width, height, '#30c060').webp().toBuffer();
export const avif = (width = 64, height = 48) => solid(width, height, '#c0c030').avif().toBuffer();
export const gif = (width = 64, height = 48) => solid(width, height, '#8030c0').gif().toBuffer();

/** Random pixels: a PNG that does not compress, about width × height × 3 bytes. */
export const noisePng = (width: number, height: number) =>
  sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } }).png().toBuffer();

/** A JPEG whose pixels are stored sideways with EXIF orientation 6 (displayed rotated 90°). */
export const rotatedJpeg = () => solid(64, 32, '#30a0a0').withMetadata({ orientation: 6 }).jpeg().toBuffer();

/** Left half `left`, right half `right`: which side a crop kept shows in its colour. */
export const twoTone = (width: number, height: number, left: string, right: string) =>
  solid(width, height, right)
    .composite([{ input: { create: { width: width / 2, height, channels: 3, background: left } }, left: 0, top: 0 }])
    .png()
    .toBuffer();

/** A JPEG that stops in the middle of its scan data. */
export async function truncatedJpeg(): Promise<Buffer> {
  const full = await sharp(randomBytes(200 * 150 * 3), { raw: { width: 200, height: 150, channels: 3 } }).jpeg().toBuffer();
  return full.subarray(0, Math.floor(full.length * 0.7));
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A decompression bomb: a PNG of a few hundred bytes whose header declares width × height pixels. */
export function pngDeclaring(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    // The start of the first rows, all zero: compresses to almost nothing.
    pngChunk('IDAT', deflateSync(Buffer.alloc(width * 3 + 1))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

export const SVG = Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>');
export const HTML = Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>');
/** An empty zip archive (end-of-central-directory record only), as `zip` writes it. */
export const ZIP = Buffer.from([0x50, 0x4b, 0x05, 0x06, ...Array<number>(18).fill(0)]);

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export type FormPart = { name: string; value: string } | { name: string; filename: string; contentType?: string; data: Buffer };

/** A multipart/form-data body, written out by hand as a browser would send it. */
export function form(parts: FormPart[]) {
  const boundary = `----mps${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if ('data' in part) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\n` +
            `Content-Type: ${part.contentType ?? 'application/octet-stream'}\r\n\r\n`,
        ),
        part.data,
        Buffer.from('\r\n'),
      );
    } else {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** The form of one file in the field `file`. */
export const fileForm = (data: Buffer, filename = 'image.bin', contentType = 'application/octet-stream', extra: FormPart[] = []) =>
  form([{ name: 'file', filename, contentType, data }, ...extra]);

/** A directory of the test's own, removed by `remove()`. */
export async function tempDir(prefix: string) {
  const path = await mkdtemp(join(tmpdir(), `mps-${prefix}-`));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** Every file under a directory, as paths relative to it, sorted. */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

/** An S3-speaking server in this process (s3rver) on a random port, with one bucket. */
export async function startS3(bucket = 'mps-test') {
  const dir = await tempDir('s3');
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir.path, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const options: S3Options & { endpoint: string; accessKeyId: string; secretAccessKey: string } = {
    bucket,
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  };
  return {
    options,
    close: async () => {
      await server.close();
      await dir.remove();
    },
  };
}
