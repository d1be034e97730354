import { sql } from 'drizzle-orm';
import { newId } from '../../../db/columns.js';
import type { Db } from '../../../db/client.js';
import type { JobRunner } from '../../../db/job-queue.js';
import type { RequestContext } from '../../../shared/context.js';
import type { Paginator } from '../../../shared/paging.js';
import { recordService } from '../../../shared/record/index.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { coreErrors } from '../core.errors.js';
import { newWebhookSecret, sendWebhook, signWebhook, unsafeWebhookUrl } from './webhooks.delivery.js';
import { type WebhookEvent, subscribes } from './webhooks.events.js';
import { deliveryAggregate, webhookAggregate, webhooksRepository as repo } from './webhooks.repository.js';
import { webhookDeliveries, type webhooks } from './webhooks.table.js';

type NoParts = Record<never, never>;

export const WEBHOOK_QUEUE = 'core-webhooks';
export const WEBHOOK_PRUNE_QUEUE = 'core-webhooks-prune';
const DAY_MS = 24 * 3600 * 1000;
const RETRY_WINDOW_MS = 24 * 3600 * 1000;

export interface WebhooksOptions {
  /** WEBHOOK_ALLOW_PRIVATE: http and loopback or private targets accepted (development, tests). */
  allowPrivate: boolean;
  /** WEBHOOK_RETRY_BASE_MS: the wait before the first retry, doubled for each next one. */
  retryBaseMs: number;
  /** WEBHOOK_DELIVERY_RETENTION_DAYS: ended deliveries older than this are pruned daily. */
  deliveryRetentionDays: number;
}

export const DEFAULT_WEBHOOKS_OPTIONS: WebhooksOptions = { allowPrivate: false, retryBaseMs: 30_000, deliveryRetentionDays: 30 };

interface WebhookBody {
  url?: string | undefined;
  events?: string[] | undefined;
  active?: boolean | undefined;
  description?: string | null | undefined;
}

/**
 * The media's outgoing webhooks: the records (Backoffice CRUD, soft delete and restore), the
 * events a write emits (one delivery per subscribed webhook), and each delivery's tries on the
 * database job queue, signed as Standard Webhooks say, retried with exponential backoff for a day.
 */
export function createWebhooksService(deps: { db: Db; pager: Paginator; jobs: JobRunner; options: WebhooksOptions }) {
  // The database, for the work no request holds: the deliveries' tries and prune (jobs), and `emit`
  // (once a write's answer has left, its transaction committed).
  const { db, pager, options } = deps;
  const records = recordService<typeof webhooks, NoParts>({ db, pager }, { agg: webhookAggregate, notFound: coreErrors.webhookNotFound, conflict: coreErrors.webhookConflict });

  const checkUrl = async (url: string | undefined) => {
    if (url === undefined) return;
    const reason = await unsafeWebhookUrl(url, options.allowPrivate);
    if (reason) throw coreErrors.unsafeWebhookUrl(reason);
  };

  /** One try of a delivery; a failure is retried after base × 2^(tries − 1) while the day lasts. */
  const attempt = async ({ deliveryId }: { deliveryId: string }): Promise<void> => {
    const delivery = await repo.forAttempt(db, deliveryId);
    if (!delivery || delivery.status !== 'pending') return;
    // A webhook deleted or switched off since the event takes no more tries.
    if (!delivery.enabled) return void (await repo.setStatus(db, deliveryId, 'failed'));
    const body = JSON.stringify(delivery.payload);
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'webhook-id': delivery.eventId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signWebhook(delivery.secret, delivery.eventId, timestamp, body),
    };
    const result = await sendWebhook(delivery.url, headers, body, { allowPrivate: options.allowPrivate });
    const tries = delivery.attemptCount + 1;
    const next = new Date(Date.now() + options.retryBaseMs * 2 ** (tries - 1));
    const retry = result.error !== null && next.getTime() <= delivery.retryUntil.getTime();
    const status = result.error === null ? 'succeeded' : retry ? 'pending' : 'failed';
    await repo.recordAttempt(db, deliveryId, { attempt: tries, ...result }, status);
    if (retry) await queue.send({ deliveryId }, { at: next });
  };

  // Each job is one try of one delivery; a try that fails schedules the next as a job of its own.
  const queue = deps.jobs.queue<{ deliveryId: string }>(WEBHOOK_QUEUE, {
    work: async (jobs) => void (await Promise.all(jobs.map(attempt))),
    hasPending: () => repo.hasPending(db),
    // pg-boss's own retries are for a try that threw (the database away), not for a receiver's failure.
    retry: { retryLimit: 3, retryDelay: 30, retryBackoff: true },
  });

  const cutoff = (now: Date) => new Date(now.getTime() - options.deliveryRetentionDays * DAY_MS);
  /** Deletes the deliveries that ended before the retention (with their tries); answers how many went. */
  const prune = (now = new Date()): Promise<number> => repo.pruneEnded(db, cutoff(now));
  // A daily prune; started with the app when some ended delivery is past the retention already.
  const pruning: { send: (data: object) => Promise<void> } = deps.jobs.queue<object>(WEBHOOK_PRUNE_QUEUE, {
    work: async () => void (await prune()),
    hasPending: () => repo.hasEnded(db, cutoff(new Date())),
    onStart: () => pruning.send({}),
    cron: '23 3 * * *',
    retry: { retryLimit: 3, retryDelay: 60 },
  });

  return {
    prune,
    list: records.list,
    get: records.get,
    remove: records.remove,
    restore: records.restore,

    /** The new webhook and its secret, which is shown in this answer only. */
    async create(ctx: RequestContext, body: WebhookBody) {
      await checkUrl(body.url);
      const secret = newWebhookSecret();
      const row = await records.create(ctx, { ...body, secret });
      return { row, secret };
    },

    async update(ctx: RequestContext, id: string, patch: WebhookBody) {
      await checkUrl(patch.url);
      return records.update(ctx, id, patch);
    },

    /** A webhook's deliveries, newest first, each with its tries. */
    async deliveries(ctx: RequestContext, webhookId: string, query: PagingQuery) {
      await records.get(ctx, webhookId);
      return deliveryAggregate.page(pager, ctx.db, ctx.mediaId, query, {
        filter: { name: 'webhook', where: sql`${webhookDeliveries.webhookId} = ${sql.placeholder('webhook')}`, params: { webhook: webhookId } },
      });
    },

    /** Sends a delivery again now (same event id and payload), retried for another day when it fails. */
    async redeliver(ctx: RequestContext, webhookId: string, deliveryId: string) {
      await records.get(ctx, webhookId);
      const [reopened] = await repo.reopen(ctx.db, ctx.mediaId, webhookId, deliveryId, new Date(Date.now() + RETRY_WINDOW_MS));
      if (!reopened) throw coreErrors.webhookDeliveryNotFound();
      await queue.send({ deliveryId }, { ctx });
      const row = await deliveryAggregate.find(ctx.db, deliveryId, ctx.mediaId);
      return row!;
    },

    /** Queues the events for the media's active webhooks subscribed to them: one delivery, one job each. */
    async emit(mediaId: string, events: WebhookEvent[]): Promise<void> {
      const subscribers = await repo.subscribers(db, mediaId);
      if (subscribers.length === 0) return;
      const candidates = events.flatMap((e) => (e.ifPublished && subscribers.some((w) => subscribes(w.events, e.type)) ? [e.ifPublished] : []));
      const published = await repo.publishedStatuses(db, mediaId, candidates);
      const now = new Date();
      const rows = events.flatMap((event) => {
        if (event.ifPublished && !published.has(event.ifPublished)) return [];
        const eventId = newId();
        const payload = { type: event.type, timestamp: now.toISOString(), data: event.data };
        return subscribers
          .filter((w) => subscribes(w.events, event.type))
          .map((w) => ({ mediaId, webhookId: w.id, eventId, eventType: event.type, payload, retryUntil: new Date(now.getTime() + RETRY_WINDOW_MS) }));
      });
      const inserted = await repo.insertDeliveries(db, rows);
      for (const { id } of inserted) await queue.send({ deliveryId: id });
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
