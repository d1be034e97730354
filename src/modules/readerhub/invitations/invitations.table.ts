import { index, pgTable, text } from 'drizzle-orm/pg-core';
import { idColumn, timestamps, tstz } from '../../../db/columns.js';
import { mediaIdColumn } from '../../core/tenancy/tenancy.table.js';

/** An invitation for someone to become a reader, maybe with a product; valid until expires_at. */
export const readerInvitations = pgTable(
  'reader_invitations',
  {
    id: idColumn(),
    mediaId: mediaIdColumn(),
    email: text('email').notNull(),
    productKey: text('product_key'),
    expiresAt: tstz('expires_at').notNull(),
    ...timestamps(),
  },
  (t) => [index('reader_invitations_media_page_idx').on(t.mediaId, t.insertedAt.desc(), t.id.desc())],
);

export type ReaderInvitationRow = typeof readerInvitations.$inferSelect;
