import { sql } from 'drizzle-orm';
import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { deletedAt, timestamps } from '../../../db/columns.js';
import { keyedRecordColumns } from '../../core/tenancy/tenancy.table.js';

/** A kind of content (article, live blog, recipe): templates belong to one. */
export const contentTypes = pgTable(
  'content_types',
  {
    ...keyedRecordColumns(),
    description: text('description'),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    // A deleted type frees its key; restoring it while another holds the key is a 409.
    uniqueIndex('content_types_media_key_uq')
      .on(t.mediaId, t.key)
      .where(sql`${t.deletedAt} is null`),
    index('content_types_media_page_idx')
      .on(t.mediaId, t.insertedAt.desc(), t.id.desc())
      .where(sql`${t.deletedAt} is null`),
  ],
);

export type ContentTypeRow = typeof contentTypes.$inferSelect;
