import { sql } from 'drizzle-orm';
import { check, index, pgTable, text } from 'drizzle-orm/pg-core';
import { idColumn, refColumn, timestamps, tstz } from '../../../db/columns.js';
import { mediaIdColumn } from '../../core/tenancy/tenancy.table.js';
import { readers } from '../accounts/accounts.table.js';

/** A reader's right to a product for a window of time; revoking keeps the row. */
export const readerEntitlements = pgTable(
  'reader_entitlements',
  {
    id: idColumn(),
    mediaId: mediaIdColumn(),
    readerId: refColumn('reader_id', () => readers.id),
    productKey: text('product_key').notNull(),
    startsAt: tstz('starts_at').notNull(),
    // Null: no end.
    endsAt: tstz('ends_at'),
    revokedAt: tstz('revoked_at'),
    ...timestamps(),
  },
  (t) => [
    check('reader_entitlements_window_ck', sql`${t.endsAt} is null or ${t.endsAt} > ${t.startsAt}`),
    index('reader_entitlements_media_page_idx').on(t.mediaId, t.insertedAt.desc(), t.id.desc()),
    index('reader_entitlements_reader_page_idx').on(t.readerId, t.insertedAt.desc(), t.id.desc()),
  ],
);

export type ReaderEntitlementRow = typeof readerEntitlements.$inferSelect;
