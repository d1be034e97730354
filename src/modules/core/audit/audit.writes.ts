import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../../db/client.js';
import { inRequestTransaction } from '../../../db/request-transaction.js';
import { kindOf } from '../../../shared/http/surrogate.js';
import { recordEventOf } from '../webhooks/webhooks.events.js';
import type { AuditService } from './audit.service.js';
import { routeOf } from '../../../shared/http/route-options.js';

/** Field names that name a credential: left out of an entry even as names. */
const SECRET = /secret|password|passphrase|credential|private_key|api_key|key_hash|(^|_)token$/i;

/** The names of the fields a body set (an array's elements' too), never their values. */
export function fieldsOf(body: unknown): string[] {
  const names = new Set<string>();
  for (const item of Array.isArray(body) ? body : [body]) {
    if (item && typeof item === 'object' && !Buffer.isBuffer(item)) for (const name of Object.keys(item)) if (!SECRET.test(name)) names.add(name);
  }
  return [...names].sort();
}

/**
 * The Backoffice's writes (route config `around`): the handler's work in one transaction that
 * every service call joins, and, when it succeeds, its audit entry inserted last in the same
 * transaction; a handler that throws rolls both back. The kind, id and action of the record are
 * derived from the route as its webhook event is.
 */
export function auditedWrites(db: Db, audit: AuditService) {
  return (req: FastifyRequest, reply: FastifyReply, work: () => Promise<unknown>): Promise<unknown> =>
    inRequestTransaction(db, async () => {
      const result = await work();
      const status = reply.statusCode;
      if (!req.principal || status < 200 || status >= 300) return result;
      const url = routeOf(req).url ?? '';
      const operationId = routeOf(req).config.operationId ?? `${req.method} ${url}`;
      const answerId = (result as { data?: { id?: unknown } } | undefined)?.data?.id;
      const event = recordEventOf({
        method: req.method,
        url,
        operationId,
        statusCode: status,
        params: (req.params ?? {}) as Record<string, string>,
        answerId: typeof answerId === 'string' ? answerId : undefined,
      });
      const statics = url.split('/').filter((s) => s && !s.startsWith(':')).slice(2);
      await audit.record(db, {
        mediaId: req.principal.mediaId,
        keyId: req.principal.keyId,
        operationId,
        action: event?.action ?? (req.method === 'DELETE' ? 'deleted' : 'updated'),
        recordKind: event?.kind ?? kindOf(statics.at(-1) ?? ''),
        recordId: event?.id ?? null,
        fields: fieldsOf(req.body),
      });
      return result;
    });
}
