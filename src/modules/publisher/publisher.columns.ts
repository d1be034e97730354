import { desc, sql } from 'drizzle-orm';
import { type AnyPgColumn, type PgColumn, type PgColumnBuilderBase, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { deletedAt, idColumn, timestamps } from '../../db/columns.js';
import { mediaIdColumn } from '../core/tenancy/tenancy.table.js';

/**
 * The columns and indexes every publisher record shares, written once: a media's record
 * (id, media_id, timestamps, soft delete) listed newest first, optionally unique by `key`
 * among the live ones; and its language entries (one live entry per locale).
 */
export const recordColumns = () => ({ id: idColumn(), mediaId: mediaIdColumn(), ...timestamps(), deletedAt: deletedAt() });

interface RecordCols {
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

/** An organization's records in the list's order (newest first, live rows): the Public lists under /community/v2/organizations/{id}. */
export const organizationPageIndex = (name: string, t: RecordCols & { organizationId: PgColumn }) =>
  index(`${name}_media_organization_page_idx`).on(t.mediaId, t.organizationId, desc(t.insertedAt), desc(t.id)).where(sql`${t.deletedAt} is null`);

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
