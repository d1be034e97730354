import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, refColumn, timestamps, tstz } from '../../../db/columns.js';
import { mediaIdColumn } from '../../core/tenancy/tenancy.table.js';
import { mailingLists } from '../mailing-lists/mailing-lists.table.js';

/** An address on a mailing list: pending (waiting for its confirmation), subscribed, unsubscribed, bounced or complained. */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: idColumn(),
    mediaId: mediaIdColumn(),
    mailingListId: refColumn('mailing_list_id', () => mailingLists.id),
    /** Normalised: trimmed, lower case. */
    email: text('email').notNull(),
    locale: text('locale'),
    status: text('status').notNull(),
    /** The reader's token subject (`<provider id>:<sub>`) when a signed-in reader subscribed. */
    readerId: text('reader_id'),
    /** The id of the one confirmation token still good (single use): cleared when used. */
    confirmJti: text('confirm_jti'),
    confirmedAt: tstz('confirmed_at'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('subscriptions_list_email_uq').on(t.mailingListId, t.email),
    index('subscriptions_list_page_idx').on(t.mailingListId, t.insertedAt.desc(), t.id.desc()),
    index('subscriptions_list_status_page_idx').on(t.mailingListId, t.status, t.insertedAt.desc(), t.id.desc()),
    index('subscriptions_media_email_idx').on(t.mediaId, t.email),
    index('subscriptions_media_reader_idx').on(t.mediaId, t.readerId),
  ],
);
