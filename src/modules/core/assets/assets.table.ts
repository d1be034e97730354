import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { deletedAt, idColumn, refColumn, timestamps, tstz } from '../../../db/columns.js';
import { mediaIdColumn } from '../tenancy/tenancy.table.js';

/** A stored file: one per media and content hash, never changed or deleted by the API. */
export const assets = pgTable(
  'assets',
  {
    id: idColumn(),
    mediaId: mediaIdColumn(),
    fileKey: text('file_key').notNull(),
    fileHash: text('file_hash').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    insertedAt: tstz('inserted_at').notNull().defaultNow(),
  },
  (t) => [
    // The same bytes uploaded again find this row (dedup by hash).
    uniqueIndex('assets_media_hash_uq').on(t.mediaId, t.fileHash),
    uniqueIndex('assets_file_key_uq').on(t.fileKey),
  ],
);

/** An image record over a stored file: name, crop gravity and captions per language. */
export const assetImages = pgTable(
  'asset_images',
  {
    id: idColumn(),
    mediaId: mediaIdColumn(),
    assetId: refColumn('asset_id', () => assets.id),
    // Copies of the file's key and hash (both immutable), so reads need no join.
    fileKey: text('file_key').notNull(),
    fileHash: text('file_hash').notNull(),
    name: text('name').notNull(),
    gravity: text('gravity').notNull().default('center'),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    index('asset_images_media_page_idx')
      .on(t.mediaId, t.insertedAt.desc(), t.id.desc())
      .where(sql`${t.deletedAt} is null`),
    // By key (and delivery) and by hash: the newest live record of a file.
    index('asset_images_media_key_idx')
      .on(t.mediaId, t.fileKey, t.insertedAt.desc(), t.id.desc())
      .where(sql`${t.deletedAt} is null`),
    index('asset_images_media_hash_idx')
      .on(t.mediaId, t.fileHash, t.insertedAt.desc(), t.id.desc())
      .where(sql`${t.deletedAt} is null`),
    index('asset_images_asset_idx').on(t.assetId),
  ],
);

export const assetImageLocales = pgTable(
  'asset_image_locales',
  {
    id: idColumn(),
    imageId: refColumn('image_id', () => assetImages.id),
    locale: text('locale').notNull(),
    credit: text('credit'),
    captionHtml: text('caption_html'),
    // Derived from caption_html (alt text, search); not on the wire of spec 2.9.
    captionText: text('caption_text'),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    uniqueIndex('asset_image_locales_live_uq')
      .on(t.imageId, t.locale)
      .where(sql`${t.deletedAt} is null`),
    index('asset_image_locales_image_idx').on(t.imageId),
  ],
);

export type AssetRow = typeof assets.$inferSelect;
