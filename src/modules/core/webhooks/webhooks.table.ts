import { desc, sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { deletedAt, idColumn, refColumn, timestamps, tstz } from '../../../db/columns.js';
import { mediaIdColumn } from '../tenancy/tenancy.table.js';

/**
 * An endpoint of the media that receives its events. The signing secret is kept as it was
 * shown (`whsec_…`): HMAC needs the key itself, so a hash would not do; it is never read by
 * the record's reads nor logged, and only the create answer carries it.
 */
export const webhooks = pgTable(
  'webhooks',
  {
    id: idColumn(),
    mediaId: mediaIdColumn(),
    url: text('url').notNull(),
    events: jsonb('events').$type<string[]>().notNull(),
    active: boolean('active').notNull().default(true),
    description: text('description'),
    secret: text('secret').notNull(),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [index('webhooks_media_page_idx').on(t.mediaId, desc(t.insertedAt), desc(t.id)).where(sql`${t.deletedAt} is null`)],
);

/** One event sent to one webhook: its payload as first built, its state, and its attempts. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: idColumn(),
    mediaId: mediaIdColumn(),
    webhookId: refColumn('webhook_id', () => webhooks.id),
    eventId: uuid('event_id').notNull(),
    eventType: text('event_type').notNull(),
    payload: jsonb('payload').notNull(),
    /** pending (an attempt is due), succeeded, failed (retries ran out). */
    status: text('status').notNull().default('pending'),
    attemptCount: integer('attempt_count').notNull().default(0),
    /** Failed tries are retried until then: a day after the event or after a redelivery. */
    retryUntil: tstz('retry_until').notNull(),
    ...timestamps(),
  },
  (t) => [
    index('webhook_deliveries_webhook_page_idx').on(t.mediaId, t.webhookId, desc(t.insertedAt), desc(t.id)),
    // Deliveries are kept after they end: start-up's "does any wait?" reads only the pending ones.
    index('webhook_deliveries_pending_idx').on(t.id).where(sql`${t.status} = 'pending'`),
    // The daily prune finds the ended ones by age.
    index('webhook_deliveries_ended_idx').on(t.insertedAt).where(sql`${t.status} <> 'pending'`),
  ],
);

/** Each try of a delivery: the answer's status code or the error, and how long it took. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: idColumn(),
    deliveryId: refColumn('delivery_id', () => webhookDeliveries.id),
    attempt: integer('attempt').notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
    attemptedAt: tstz('attempted_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('webhook_attempts_delivery_attempt_uq').on(t.deliveryId, t.attempt)],
);
