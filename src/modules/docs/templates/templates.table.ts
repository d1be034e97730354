import { sql } from 'drizzle-orm';
import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { deletedAt, idColumn, refColumn, timestamps } from '../../../db/columns.js';
import { mediaIdColumn } from '../../core/tenancy/tenancy.table.js';
import { contentTypes } from '../content-types/content-types.table.js';

/** A layout of a content type: which block kinds and metadata keys its contents may carry. */
export const templates = pgTable(
  'templates',
  {
    id: idColumn(),
    mediaId: mediaIdColumn(),
    contentTypeId: refColumn('content_type_id', () => contentTypes.id),
    key: text('key').notNull(),
    name: text('name').notNull(),
    blockKinds: text('block_kinds').array().notNull().default(sql`'{}'::text[]`),
    metadataKeys: text('metadata_keys').array().notNull().default(sql`'{}'::text[]`),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    uniqueIndex('templates_media_key_uq')
      .on(t.mediaId, t.key)
      .where(sql`${t.deletedAt} is null`),
    index('templates_media_page_idx')
      .on(t.mediaId, t.insertedAt.desc(), t.id.desc())
      .where(sql`${t.deletedAt} is null`),
  ],
);

export type TemplateRow = typeof templates.$inferSelect;
