import type * as Sharp from 'sharp';
import type { Metadata } from 'sharp';
import { coreErrors } from '../core.errors.js';

// sharp loads libvips, a native library: on the first image, so that a start that sees none never pays for it.
let sharpModule: Promise<typeof Sharp> | undefined;
const loadSharp = async () => (await (sharpModule ??= import('sharp'))).default;

/** The image types the service stores, identified by their bytes. */
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/gif'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

export const EXTENSIONS: Record<ImageType, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/gif': 'gif',
};

/** Decompression bombs: a few KB of PNG can declare billions of pixels. */
export const MAX_PIXELS = 100_000_000;

export const GRAVITIES = ['center', 'north', 'northeast', 'east', 'southeast', 'south', 'southwest', 'west', 'northwest', 'smart'] as const;
export type Gravity = (typeof GRAVITIES)[number];

export const FITS = ['cover', 'contain', 'inside'] as const;
export const OUTPUT_FORMATS = ['webp', 'avif', 'jpeg', 'png'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number] | 'gif';

const ascii = (bytes: Buffer, start: number, end: number) => bytes.toString('latin1', start, end);

/** An ISO-BMFF file (`ftyp` box) whose major or compatible brands name AVIF. */
function isAvif(bytes: Buffer): boolean {
  if (bytes.length < 16 || ascii(bytes, 4, 8) !== 'ftyp') return false;
  const boxSize = Math.min(bytes.readUInt32BE(0), bytes.length, 256);
  const brands = [ascii(bytes, 8, 12)];
  for (let at = 16; at + 4 <= boxSize; at += 4) brands.push(ascii(bytes, at, at + 4));
  return brands.some((brand) => brand === 'avif' || brand === 'avis');
}

/** The image type from the file's first bytes (its magic number); undefined for anything else. */
export function sniff(bytes: Buffer): ImageType | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.length >= 6 && (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a')) return 'image/gif';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'image/webp';
  if (isAvif(bytes)) return 'image/avif';
  return undefined;
}

/** What sharp calls each type; AVIF is HEIF with AV1 compression. */
const SHARP_FORMAT: Record<ImageType, string> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/avif': 'heif',
  'image/gif': 'gif',
};

const looksLikeSvg = (bytes: Buffer) => /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(ascii(bytes, 0, 1024).replace(/^\uFEFF/, ''));

const decodeOptions = { limitInputPixels: MAX_PIXELS, failOn: 'truncated' } as const;

export interface ImageInfo {
  type: ImageType;
  /** As displayed: EXIF orientation applied. */
  width: number;
  height: number;
}

/**
 * Checks that the bytes are one image of an accepted type and returns its type and size: the
 * type from the bytes (415), the size from the header before any decoding (413 past
 * MAX_PIXELS), then one decode at reduced size (422 for a truncated or corrupt file).
 */
export async function inspect(bytes: Buffer): Promise<ImageInfo> {
  const type = sniff(bytes);
  if (!type) {
    throw bytes.length === 0
      ? coreErrors.unsupportedImage('the file is empty')
      : coreErrors.unsupportedImage(looksLikeSvg(bytes) ? 'SVG images are not accepted (they can carry scripts)' : 'the file is not an image of an accepted type');
  }
  const sharp = await loadSharp();
  let metadata: Metadata;
  try {
    // Reads the header only: nothing is decoded, so no pixel limit applies yet (ours follows).
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw coreErrors.invalidImage();
  }
  if (metadata.format !== SHARP_FORMAT[type] || (type === 'image/avif' && metadata.compression !== 'av1')) {
    throw coreErrors.unsupportedImage('the file is not an image of an accepted type');
  }
  const { width, height } = metadata;
  if (!width || !height) throw coreErrors.invalidImage();
  if (width * height > MAX_PIXELS) throw coreErrors.imageTooLarge(width, height, MAX_PIXELS);
  try {
    // A small decode proves the whole file is there (JPEG shrinks on load, so it stays cheap).
    await sharp(bytes, decodeOptions).resize(32, 32, { fit: 'inside' }).raw().toBuffer();
  } catch {
    throw coreErrors.invalidImage();
  }
  const oriented = metadata.autoOrient ?? { width, height };
  return { type, width: oriented.width, height: oriented.height };
}

export interface Transform {
  w?: number | undefined;
  h?: number | undefined;
  fit: (typeof FITS)[number];
  format: OutputFormat;
  q?: number | undefined;
}

export const CONTENT_TYPES: Record<OutputFormat, string> = {
  webp: 'image/webp',
  avif: 'image/avif',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
};

/**
 * Resizes (never enlarging) and re-encodes one image: EXIF orientation applied and metadata
 * dropped, the crop anchored at the gravity (`smart`: sharp's attention strategy), the first
 * frame of an animation.
 */
export async function render(bytes: Buffer, t: Transform, gravity: Gravity): Promise<Buffer> {
  const sharp = await loadSharp();
  let image = sharp(bytes, decodeOptions).rotate();
  if (t.w !== undefined || t.h !== undefined) {
    image = image.resize({
      width: t.w,
      height: t.h,
      fit: t.fit,
      position: gravity === 'smart' ? sharp.strategy.attention : gravity,
      withoutEnlargement: true,
      background: { r: 255, g: 255, b: 255, alpha: 0 },
    });
  }
  const quality = t.q === undefined ? {} : { quality: t.q };
  switch (t.format) {
    case 'jpeg':
      return image.flatten({ background: '#ffffff' }).jpeg(quality).toBuffer();
    case 'webp':
      return image.webp(quality).toBuffer();
    case 'avif':
      return image.avif(quality).toBuffer();
    case 'png':
      return image.png().toBuffer();
    case 'gif':
      return image.gif().toBuffer();
  }
}

const FORMAT_OF: Record<ImageType, OutputFormat> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/gif': 'gif',
};

/**
 * The image without its EXIF, XMP and IPTC metadata (a phone photo's GPS position, its camera's
 * serial number), re-encoded in its own type at high quality with the EXIF orientation applied;
 * the bytes as they are when they carry none. For files a reader publishes about themselves: the
 * original is served as stored. Call it on bytes `inspect` accepted.
 */
export async function withoutMetadata(bytes: Buffer, type: ImageType): Promise<Buffer> {
  const sharp = await loadSharp();
  const metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  if (!metadata.exif && !metadata.xmp && !metadata.iptc) return bytes;
  const format = FORMAT_OF[type];
  return render(bytes, { fit: 'inside', format, ...(format === 'jpeg' || format === 'webp' ? { q: 90 } : {}) }, 'center');
}
