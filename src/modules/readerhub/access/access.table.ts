import { integer, pgTable, primaryKey, uuid } from 'drizzle-orm/pg-core';
import { tstz } from '../../../db/columns.js';
import { mediaIdColumn } from '../../core/tenancy/tenancy.table.js';
import { readers } from '../accounts/accounts.table.js';

/**
 * The meter: the subscriber contents a reader opened through it, one row per content per period
 * (periods of the media's `meter_period_days`, counted from 1970-01-01 UTC). Kept in the database,
 * not in memory: every instance counts the same opens, and a restart forgets none.
 */
export const readerMeterOpens = pgTable(
  'reader_meter_opens',
  {
    mediaId: mediaIdColumn(),
    readerId: uuid('reader_id')
      .notNull()
      .references(() => readers.id),
    period: integer('period').notNull(),
    contentId: uuid('content_id').notNull(),
    insertedAt: tstz('inserted_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'reader_meter_opens_pk', columns: [t.readerId, t.period, t.contentId] })],
);
