import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { deletedAt, idColumn, refColumn, timestamps } from '../../../db/columns.js';
import { readers } from '../accounts/accounts.table.js';

export const FAVORITE_KINDS = ['content', 'profile'] as const;

/**
 * A record a reader marked as favorite, kept as kind + uuid without a foreign key (two
 * kinds, two tables). A content is checked to be one the reader may see when it is added;
 * community profiles have no module yet and are not checked.
 */
export const readerFavorites = pgTable(
  'reader_favorites',
  {
    id: idColumn(),
    readerId: refColumn('reader_id', () => readers.id),
    kind: text('kind').notNull(),
    recordId: uuid('record_id').notNull(),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    check('reader_favorites_kind_ck', sql`${t.kind} in ('content', 'profile')`),
    // A record is a favorite once; removed ones stay behind as history.
    uniqueIndex('reader_favorites_live_uq')
      .on(t.readerId, t.kind, t.recordId)
      .where(sql`${t.deletedAt} is null`),
    index('reader_favorites_reader_page_idx')
      .on(t.readerId, t.insertedAt.desc(), t.id.desc())
      .where(sql`${t.deletedAt} is null`),
  ],
);

export type ReaderFavoriteRow = typeof readerFavorites.$inferSelect;
