import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, refColumn, timestamps, tstz } from '../../../db/columns.js';
import { mediaIdColumn } from '../../core/tenancy/tenancy.table.js';
import { readers } from '../accounts/accounts.table.js';

/** A reader's device for push notifications, known by its push token. */
export const readerDevices = pgTable(
  'reader_devices',
  {
    id: idColumn(),
    mediaId: mediaIdColumn(),
    readerId: refColumn('reader_id', () => readers.id),
    // Kept as sent: the push service needs the token itself, so it cannot be hashed.
    token: text('token').notNull(),
    platform: text('platform').notNull(),
    name: text('name'),
    lastRegisteredAt: tstz('last_registered_at').notNull().defaultNow(),
    ...timestamps(),
  },
  (t) => [
    // One row per push token and media: registering it again (maybe for another reader
    // who signed in on the same device) updates that row.
    uniqueIndex('reader_devices_media_token_uq').on(t.mediaId, t.token),
    index('reader_devices_reader_idx').on(t.readerId),
  ],
);

export type ReaderDeviceRow = typeof readerDevices.$inferSelect;
