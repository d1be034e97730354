import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { idColumn, timestamps, tstz } from '../../../db/columns.js';
import { mediaIdColumn } from '../../core/tenancy/tenancy.table.js';
import { newsletters } from '../newsletters/newsletters.table.js';
import { subscriptions } from '../subscriptions/subscriptions.table.js';

/**
 * One message to one address, and its delivery state: queued → sending → sent (→ delivered,
 * bounced, complained), failed after its attempts, or not_sent when no transport is configured.
 * A newsletter's messages are one row per (newsletter, subscription), whose unique key makes the
 * fan-out idempotent; their body is the newsletter's, personalised when sent.
 */
export const outboxMessages = pgTable(
  'outbox_messages',
  {
    id: idColumn(),
    mediaId: mediaIdColumn(),
    kind: text('kind').notNull(),
    newsletterId: uuid('newsletter_id').references(() => newsletters.id),
    subscriptionId: uuid('subscription_id').references(() => subscriptions.id),
    recipients: text('recipients').array().notNull(),
    subject: text('subject'),
    html: text('html'),
    text: text('text'),
    headers: jsonb('headers').$type<Record<string, string>>(),
    state: text('state').notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    /** When the current claim on a `sending` row lapses and another worker may retry it. */
    leaseUntil: tstz('lease_until'),
    nextAttemptAt: tstz('next_attempt_at').notNull().defaultNow(),
    sentAt: tstz('sent_at'),
    deliveredAt: tstz('delivered_at'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('outbox_newsletter_subscription_uq').on(t.newsletterId, t.subscriptionId),
    index('outbox_media_page_idx').on(t.mediaId, t.insertedAt.desc(), t.id.desc()),
    // The worker's claim: queued rows due, and sending rows whose lease lapsed.
    index('outbox_due_idx').on(t.nextAttemptAt, t.id).where(sql`state = 'queued'`),
    index('outbox_leased_idx').on(t.leaseUntil).where(sql`state = 'sending'`),
    index('outbox_newsletter_state_idx').on(t.newsletterId, t.state),
  ],
);
