import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { RequestContext } from '../../../shared/context.js';
import { writeEffect } from '../../../shared/http/effects.js';
import { isUuid } from '../../../shared/ids.js';
import { routeOf } from '../../../shared/http/route-options.js';

/** An event as webhooks receive it in `data`, before it is addressed to each subscriber. */
export interface WebhookEvent {
  type: string;
  data: Record<string, unknown>;
  /** Sent only when this status of the media is a published one (`.published`: the write set it). */
  ifPublished?: string;
}

/** Whether a subscription (`category.created`, `category.*`, `*.deleted`, `*`, `purge`) takes an event type. */
export function subscribes(subscription: readonly string[], type: string): boolean {
  const [record, action] = type.split('.');
  return subscription.some((s) => {
    if (s === '*' || s === type) return true;
    const [r, a] = s.split('.');
    return action !== undefined && a !== undefined && (r === '*' || r === record) && (a === '*' || a === action);
  });
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** What a write's target holds now: the answer of its version source (shared/http/conditional.ts `declaredVersions`). */
interface Current {
  body: (req: FastifyRequest, reply: FastifyReply, ctx: RequestContext) => Promise<unknown>;
}

/** The status a write sets: the body's `status_id`, when it is a uuid. */
const statusSet = (req: FastifyRequest): string | undefined => {
  const status = (req.body as { status_id?: unknown } | undefined)?.status_id;
  return typeof status === 'string' && isUuid(status) ? status : undefined;
};

/**
 * The Backoffice's event hooks: `onSend` keeps a successful create's answer id, `onResponse`
 * (after the answer has left) emits the record's event and its purge. A replayed idempotent
 * answer emits nothing (the first one did); webhooks' own routes emit nothing. Emitting never
 * fails nor slows a request: its errors are logged. `around` (inside the write's transaction,
 * before its work) notes the status a record had before a write that sets one, so that
 * `.published` follows a change into a published status, not every save that repeats it.
 */
export function webhookEventHooks(emit: (mediaId: string, events: WebhookEvent[]) => Promise<void>, logger: FastifyBaseLogger, current: Current) {
  const answerIds = new WeakMap<FastifyRequest, string>();
  const statusBefore = new WeakMap<FastifyRequest, string | null>();
  const isWrite = (req: FastifyRequest, reply: FastifyReply) =>
    WRITES.has(req.method) &&
    reply.statusCode >= 200 &&
    reply.statusCode < 300 &&
    req.principal !== null &&
    routeOf(req).config.record?.webhooks !== false &&
    reply.getHeader('idempotent-replayed') === undefined;
  return {
    around: async (req: FastifyRequest, reply: FastifyReply, ctx: RequestContext, work: (ctx: RequestContext) => Promise<unknown>): Promise<unknown> => {
      if ((req.method === 'PATCH' || req.method === 'PUT') && statusSet(req)) {
        const before = (await current.body(req, reply, ctx)) as { data?: { status_id?: unknown } } | null;
        const status = before?.data?.status_id;
        statusBefore.set(req, typeof status === 'string' ? status : null);
      }
      return work(ctx);
    },
    onSend: async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      if (req.method === 'POST' && typeof payload === 'string' && isWrite(req, reply) && payload.startsWith('{"data":{')) {
        const id = /^\{"data":\{"id":"([0-9a-f-]{36})"/.exec(payload)?.[1];
        if (id) answerIds.set(req, id);
      }
      return payload;
    },
    onResponse: async (req: FastifyRequest, reply: FastifyReply) => {
      const declared = routeOf(req).config.record;
      if (!isWrite(req, reply) || !req.principal || !declared) return;
      const event = writeEffect(declared, {
        method: req.method,
        statusCode: reply.statusCode,
        params: (req.params ?? {}) as Record<string, string>,
        answerId: answerIds.get(req),
      });
      if (event.id === undefined) return;
      const data = { id: event.id, record: event.kind, operation_id: routeOf(req).config.operationId ?? null };
      // A write that sets a status (a content created in one or moved into one) publishes the
      // record when that status is a published one (the service checks which it is), unless the
      // record had that status already.
      const status = statusSet(req);
      const moved = status !== undefined && event.action !== 'deleted' && statusBefore.get(req) !== status;
      emit(req.principal.mediaId, [
        { type: `${event.kind}.${event.action}`, data },
        ...(moved ? [{ type: `${event.kind}.published`, data, ifPublished: status }] : []),
        // The record's key, and its collection's: a list holding it (or now missing it) is stale too.
        { type: 'purge', data: { surrogate_keys: [event.kind, `${event.kind}:${event.id}`] } },
      ]).catch((err: unknown) =>
        logger.warn({ err: { message: err instanceof Error ? err.message : String(err) }, reqId: req.id }, 'webhook events not queued'),
      );
    },
  };
}
