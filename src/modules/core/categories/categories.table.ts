import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { deletedAt, idColumn, refColumn, timestamps } from '../../../db/columns.js';
import { mediaIdColumn } from '../tenancy/tenancy.table.js';

export const categories = pgTable(
  'categories',
  {
    id: idColumn(),
    mediaId: mediaIdColumn(),
    svgIcon: text('svg_icon'),
    isArchived: boolean('is_archived').notNull().default(false),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    // Backs the default listing order (newest first) for live rows.
    index('categories_media_page_idx')
      .on(t.mediaId, t.insertedAt.desc(), t.id.desc())
      .where(sql`${t.deletedAt} is null`),
  ],
);

/** The columns of a record's ordered category links (a content's, a profile's), beside the record's `refColumn`. */
export const categoryLinkColumns = () => ({
  id: idColumn(),
  categoryId: refColumn('category_id', () => categories.id),
  position: integer('position').notNull(),
});

export const categoryLocales = pgTable(
  'category_locales',
  {
    id: idColumn(),
    categoryId: refColumn('category_id', () => categories.id),
    locale: text('locale').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    // One live entry per language; deleted entries may pile up beside it.
    uniqueIndex('category_locales_live_uq')
      .on(t.categoryId, t.locale)
      .where(sql`${t.deletedAt} is null`),
    index('category_locales_category_idx').on(t.categoryId),
  ],
);

export type CategoryRow = typeof categories.$inferSelect;
export type CategoryLocaleRow = typeof categoryLocales.$inferSelect;
