import { index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { tstz } from '../db/columns.js';

/**
 * Idempotency keys (issue 17, Stripe and the IETF `Idempotency-Key` draft): one row per key a
 * caller sent on an idempotent route, claimed before the handler runs (the claim holds across
 * instances) and completed with the answer to replay. Scoped to the media and the caller; kept
 * 24 hours (`expires_at`), after which the key may be used again and the row is pruned.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    /** The request's media; '' for a route without one (a media-optional Reader route). */
    mediaId: text('media_id').notNull(),
    /** `key:<api key id>`, `sub:<token subject>` or `ip:<address>` for an anonymous caller. */
    caller: text('caller').notNull(),
    key: text('key').notNull(),
    /** SHA-256 of the method, the path and the canonical body: another request with the key is a 422. */
    fingerprint: text('fingerprint').notNull(),
    /** Null while the first request runs (a second one is a 409), then the status to replay. */
    status: integer('status'),
    headers: jsonb('headers').$type<Record<string, string>>(),
    body: text('body'),
    createdAt: tstz('created_at').notNull().defaultNow(),
    expiresAt: tstz('expires_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.mediaId, t.caller, t.key] }), index('idempotency_keys_expires_at').on(t.expiresAt)],
);
