import { z } from 'zod';
import { richHtml } from '../../../shared/html.js';
import { fileField } from '../../../shared/http/upload.js';
import { isoTimestamp, locale, queryInt, uuid } from '../../../shared/schemas.js';
import { EXTENSIONS, FITS, GRAVITIES, IMAGE_TYPES, OUTPUT_FORMATS } from './assets.images.js';

// `<media id>_<sha-256 of the bytes>.<extension of the type>`: made by the service, never from a file name.
const FILE_KEY = new RegExp(`^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})_([0-9a-f]{64})\\.(${Object.values(EXTENSIONS).join('|')})$`);

export const fileKey = z
  .string()
  .max(120)
  .regex(FILE_KEY, 'must be a file_key as an upload answers it')
  .describe('The stored file: `<media id>_<sha-256>.<ext>`, as the upload answers it');

/** The media and hash a file key names, or undefined when it is not one. */
export function parseFileKey(key: string): { mediaId: string; fileHash: string } | undefined {
  const match = FILE_KEY.exec(key);
  return match ? { mediaId: match[1]!, fileHash: match[2]! } : undefined;
}

export const fileHash = z
  .string()
  .regex(/^[0-9a-fA-F]{64}$/, 'must be a SHA-256 in hex (64 characters)')
  .transform((hash) => hash.toLowerCase())
  .describe('SHA-256 of the bytes, hex');

export const gravity = z
  .enum(GRAVITIES)
  .describe('Where a crop keeps the image (deliveries with fit=cover): a side or corner, the center, or smart (the most salient region)');

export const assetSchema = z
  .object({
    id: uuid,
    file_key: z.string(),
    file_hash: z.string(),
    content_type: z.enum(IMAGE_TYPES).describe('Identified from the bytes, not from the name or the declared type'),
    size: z.int().describe('Bytes'),
    width: z.int().describe('Pixels, as displayed (EXIF orientation applied)'),
    height: z.int(),
    inserted_at: isoTimestamp,
  })
  .meta({ id: 'Asset' });

export const assetImageLocaleSchema = z
  .object({
    id: uuid,
    locale,
    credit: z.string().nullable(),
    caption_html: z.string().nullable(),
  })
  .meta({ id: 'AssetImageLocale' });

export const assetImageSchema = z
  .object({
    id: uuid,
    file_key: z.string(),
    file_hash: z.string(),
    name: z.string(),
    gravity,
    locales: z.array(assetImageLocaleSchema),
    inserted_at: isoTimestamp,
    updated_at: isoTimestamp,
    deleted_at: isoTimestamp.nullable(),
  })
  .meta({ id: 'AssetImage' });

const name = z.string().trim().min(1).max(300);

const localeInput = z.strictObject({
  locale,
  credit: z.string().trim().max(500).nullable().optional(),
  caption_html: richHtml(20_000).nullable().optional(),
});

const localesInput = z
  .array(localeInput)
  .max(50)
  .refine((entries) => new Set(entries.map((e) => e.locale)).size === entries.length, {
    message: 'each locale may appear only once',
  });

export const assetImageCreateBody = z
  .strictObject({
    file_key: fileKey,
    name,
    gravity: gravity.optional().describe('Default center'),
    locales: localesInput.optional().describe('Credit and caption per language (none by default)'),
  })
  .meta({ id: 'AssetImageCreate' });

export const assetImageUpdateBody = z
  .strictObject({
    file_key: fileKey.optional().describe("Another uploaded file of the media: the record's new image"),
    name: name.optional(),
    gravity: gravity.optional(),
    locales: localesInput
      .optional()
      .describe('The complete set of locale entries: listed ones are created or updated, others are deleted'),
  })
  .meta({ id: 'AssetImageUpdate' });

export type AssetImageCreate = z.output<typeof assetImageCreateBody>;
export type AssetImageUpdate = z.output<typeof assetImageUpdateBody>;
export type AssetImageLocaleInput = z.output<typeof localeInput>;

export const fileKeyParams = z.object({ file_key: fileKey });
export const fileHashParams = z.object({ file_hash: fileHash });

/** The Backoffice upload form: the file alone. */
export const assetUploadForm = z.strictObject({ file: fileField.describe('The image: JPEG, PNG, WebP, AVIF or GIF') });
export const assetUploadFields = assetUploadForm.omit({ file: true });

/** The Reader upload form: the file, and optionally a name, a credit and a plain-text caption. */
export const readerUploadForm = z.strictObject({
  file: fileField.describe('The image: JPEG, PNG, WebP, AVIF or GIF'),
  name: name.optional().describe("A label; the file's own name (without any path) when left out"),
  credit: z.string().trim().max(500).optional(),
  caption: z.string().trim().max(2000).optional().describe("Plain text, stored in the media's default language"),
});
export const readerUploadFields = readerUploadForm.omit({ file: true });

export const deliveryQuery = z.object({
  w: queryInt(1, 4096).optional().describe('Width in pixels, 1 to 4096 (never enlarged)'),
  h: queryInt(1, 4096).optional().describe('Height in pixels, 1 to 4096 (never enlarged)'),
  fit: z
    .enum(FITS)
    .optional()
    .describe("With w and h: cover (crop at the image's gravity, the default), contain (letterbox) or inside"),
  format: z.enum(OUTPUT_FORMATS).optional().describe("Output type; the original's by default"),
  q: queryInt(1, 100).optional().describe('Quality, 1 to 100 (JPEG, WebP, AVIF)'),
});
export type DeliveryQuery = z.output<typeof deliveryQuery>;
