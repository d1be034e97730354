import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { aggregate, part } from '../../../shared/aggregate.js';
import { coreErrors } from '../core.errors.js';
import { statuses } from '../tenancy/tenancy.table.js';
import { webhookAttempts, webhookDeliveries, webhooks } from './webhooks.table.js';

/** A webhook as every read serves it: its secret is not among the columns read. */
export const webhookAggregate = aggregate(webhooks, {
  owner: webhooks.mediaId,
  conflict: coreErrors.webhookConflict,
  columns: ['id', 'mediaId', 'url', 'events', 'active', 'description', 'insertedAt', 'updatedAt', 'deletedAt'],
  parts: {},
});

/** A delivery with its attempts in order (its payload stays in the table). */
export const deliveryAggregate = aggregate(webhookDeliveries, {
  owner: webhookDeliveries.mediaId,
  conflict: coreErrors.webhookConflict,
  columns: ['id', 'mediaId', 'webhookId', 'eventId', 'eventType', 'status', 'insertedAt', 'updatedAt'],
  parts: {
    attempts: part(webhookAttempts, {
      parent: webhookAttempts.deliveryId,
      match: 'id',
      position: 'attempt',
      columns: ['attempt', 'statusCode', 'error', 'durationMs', 'attemptedAt'],
    }),
  },
});

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export const webhooksRepository = {
  /** The media's live, active webhooks with what they subscribe to. */
  subscribers: (db: Executor, mediaId: string) =>
    db
      .select({ id: webhooks.id, events: webhooks.events })
      .from(webhooks)
      .where(and(eq(webhooks.mediaId, mediaId), isNull(webhooks.deletedAt), eq(webhooks.active, true))),

  /** The published ones among the media's statuses `ids`. */
  async publishedStatuses(db: Executor, mediaId: string, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await db
      .select({ id: statuses.id })
      .from(statuses)
      .where(and(eq(statuses.mediaId, mediaId), eq(statuses.isPublished, true), inArray(statuses.id, ids)));
    return new Set(rows.map((r) => r.id));
  },

  insertDeliveries: (db: Executor, rows: Array<typeof webhookDeliveries.$inferInsert>) =>
    rows.length === 0 ? Promise.resolve([]) : db.insert(webhookDeliveries).values(rows).returning({ id: webhookDeliveries.id }),

  /** A delivery with what its next try needs: the target, the secret, whether the webhook still takes events. */
  async forAttempt(db: Executor, deliveryId: string) {
    const [row] = await db
      .select({
        id: webhookDeliveries.id,
        eventId: webhookDeliveries.eventId,
        payload: webhookDeliveries.payload,
        status: webhookDeliveries.status,
        attemptCount: webhookDeliveries.attemptCount,
        retryUntil: webhookDeliveries.retryUntil,
        url: webhooks.url,
        secret: webhooks.secret,
        enabled: sql<boolean>`${webhooks.active} and ${webhooks.deletedAt} is null`,
      })
      .from(webhookDeliveries)
      .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
      .where(eq(webhookDeliveries.id, deliveryId));
    return row;
  },

  /** Logs one try and moves the delivery to its new state, together. */
  recordAttempt: (
    db: Executor,
    deliveryId: string,
    attempt: { attempt: number; statusCode: number | null; error: string | null; durationMs: number },
    status: DeliveryStatus,
  ) =>
    db.transaction(async (tx) => {
      await tx.insert(webhookAttempts).values({ deliveryId, ...attempt });
      await tx
        .update(webhookDeliveries)
        .set({ status, attemptCount: attempt.attempt, updatedAt: new Date() })
        .where(eq(webhookDeliveries.id, deliveryId));
    }),

  setStatus: (db: Executor, deliveryId: string, status: DeliveryStatus) =>
    db.update(webhookDeliveries).set({ status, updatedAt: new Date() }).where(eq(webhookDeliveries.id, deliveryId)),

  /** A redelivery: pending again, retried for another day. */
  reopen: (db: Executor, mediaId: string, webhookId: string, deliveryId: string, retryUntil: Date) =>
    db
      .update(webhookDeliveries)
      .set({ status: 'pending', retryUntil, updatedAt: new Date() })
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.webhookId, webhookId), eq(webhookDeliveries.mediaId, mediaId)))
      .returning({ id: webhookDeliveries.id }),

  /** Deletes the deliveries that ended (succeeded or failed) before `cutoff`, their tries first. */
  pruneEnded: (db: Executor, cutoff: Date): Promise<number> =>
    db.transaction(async (tx) => {
      const ended = sql`select ${webhookDeliveries.id} from ${webhookDeliveries} where ${webhookDeliveries.status} <> 'pending' and ${webhookDeliveries.insertedAt} < ${cutoff.toISOString()}::timestamptz`;
      await tx.delete(webhookAttempts).where(sql`${webhookAttempts.deliveryId} in (${ended})`);
      const gone = await tx.delete(webhookDeliveries).where(sql`${webhookDeliveries.id} in (${ended})`).returning({ id: webhookDeliveries.id });
      return gone.length;
    }),

  /** Whether some ended delivery is older than `cutoff`: the prune then runs when the app starts. */
  async hasEnded(db: Executor, cutoff: Date): Promise<boolean> {
    const [row] = await db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(sql`${webhookDeliveries.status} <> 'pending' and ${webhookDeliveries.insertedAt} < ${cutoff.toISOString()}::timestamptz`)
      .limit(1);
    return row !== undefined;
  },

  /** Whether deliveries wait for a try (left by a stopped instance): the queue then starts with the app. */
  async hasPending(db: Executor): Promise<boolean> {
    const [row] = await db.select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(eq(webhookDeliveries.status, 'pending')).limit(1);
    return row !== undefined;
  },
};
