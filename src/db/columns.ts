import { timestamp, uuid } from 'drizzle-orm/pg-core';
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

export { uuidv7 as newId };
