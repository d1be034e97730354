import { desc, sql } from 'drizzle-orm';
import { type AnyPgColumn, type PgColumn, type PgColumnBuilderBase, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { uuidv7 } from 'uuidv7';

// Millisecond precision: the wire carries milliseconds, and keyset cursors built from a
// timestamp must compare equal to the stored value, so the database keeps no more.
export const tstz = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: 'date' });

/** UUIDv7 primary key: new rows land at the end of the index. */
export const idColumn = () => uuid('id').primaryKey().$defaultFn(() => uuidv7());

export const timestamps = () => ({
  insertedAt: tstz('inserted_at').notNull().defaultNow(),
  updatedAt: tstz('updated_at')
    .notNull()
    .defaultNow()
    .$onUpdateFn(() => new Date()),
});

export const deletedAt = () => tstz('deleted_at');

/** A required reference to another table's row: the uuid column and its foreign key. */
export const refColumn = (name: string, target: () => AnyPgColumn) => uuid(name).notNull().references(target);

/**
 * The columns of every metadata table, spread beside the owner's `refColumn`: the one metadata
 * shape, ordered key/value entries, one per key (its unique index leads with the owner).
 */
export const metadataColumns = () => ({
  id: idColumn(),
  position: integer('position').notNull(),
  key: text('key').notNull(),
  value: text('value').notNull(),
});

export { uuidv7 as newId };

/** What a media's record table has for its list's index: see `recordIndexes`. */
export interface RecordCols {
  mediaId: PgColumn;
  insertedAt: PgColumn;
  id: PgColumn;
  deletedAt: PgColumn;
  key?: PgColumn;
}

/** The Backoffice list's index (newest first, live rows) and, for a keyed record, its live key's uniqueness. */
export const recordIndexes = (name: string, t: RecordCols) => [
  index(`${name}_media_page_idx`).on(t.mediaId, desc(t.insertedAt), desc(t.id)).where(sql`${t.deletedAt} is null`),
  ...(t.key ? [uniqueIndex(`${name}_media_key_uq`).on(t.mediaId, t.key).where(sql`${t.deletedAt} is null`)] : []),
];


/** A record's language entries: the record (`recordId`, column `<parent>_id`), `locale` (one live entry each), its own columns. */
export function localesTable<C extends Record<string, PgColumnBuilderBase>>(
  name: string,
  parentColumn: string,
  parentId: () => AnyPgColumn,
  columns: C,
) {
  return pgTable(
    name,
    {
      id: idColumn(),
      recordId: uuid(parentColumn)
        .notNull()
        .references(parentId),
      locale: text('locale').notNull(),
      ...columns,
      ...timestamps(),
      deletedAt: deletedAt(),
    },
    (t) => [uniqueIndex(`${name}_live_uq`).on(t.recordId, t.locale).where(sql`${t.deletedAt} is null`)],
  );
}
