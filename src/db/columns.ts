import { type AnyPgColumn, integer, text, timestamp, uuid } from 'drizzle-orm/pg-core';
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
