import { sql } from 'drizzle-orm';
import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { deletedAt, idColumn, timestamps } from '../../../db/columns.js';
import { mediaIdColumn } from '../../core/tenancy/tenancy.table.js';

/** The categories ads are sold in; a name is unique among the media's live ones. */
export const adCategories = pgTable(
  'ad_categories',
  {
    id: idColumn(),
    mediaId: mediaIdColumn(),
    name: text('name').notNull(),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    uniqueIndex('ad_categories_media_name_uq')
      .on(t.mediaId, t.name)
      .where(sql`${t.deletedAt} is null`),
    index('ad_categories_media_page_idx')
      .on(t.mediaId, t.insertedAt.desc(), t.id.desc())
      .where(sql`${t.deletedAt} is null`),
  ],
);
