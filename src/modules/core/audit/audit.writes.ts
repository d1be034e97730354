import type { FastifyReply, FastifyRequest } from 'fastify';
import { type RequestContext, transaction } from '../../../shared/context.js';
import { writeEffect } from '../../../shared/http/effects.js';
import type { AuditService } from './audit.service.js';
import { routeOf } from '../../../shared/http/route-options.js';
import type { RevisionsService } from '../revisions/revisions.service.js';

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
 * The Backoffice's writes (route config `around`): the handler's work in one transaction, which
 * it gets in its context, and, when it succeeds, its audit entry and, for a record that keeps
 * revisions (its declared `revises`), the record's next revision, both last in the same
 * transaction; a handler that throws rolls all back. The record, its id and the action are the
 * route's declared `record` (shared/http/effects.ts), as its webhook event's are.
 */
export function auditedWrites(audit: AuditService, revisions: RevisionsService) {
  return (req: FastifyRequest, reply: FastifyReply, ctx: RequestContext, work: (ctx: RequestContext) => Promise<unknown>): Promise<unknown> =>
    transaction(ctx, async (tx, txCtx) => {
      const { config } = routeOf(req);
      const declared = config.record;
      const params = (req.params ?? {}) as Record<string, string>;
      const revises = declared?.revises;
      // A delete's revision holds the record as it was, marked deleted: read before it goes.
      const before =
        revises && !revises.part && req.method === 'DELETE' ? await revisions.before(txCtx, revises.source, params[declared.param ?? 'id']!) : undefined;
      const result = await work(txCtx);
      const status = reply.statusCode;
      if (!req.principal || status < 200 || status >= 300) return result;
      if (!declared) throw new Error(`${config.operationId}: a Backoffice write declares no record`);
      const answerId = (result as { data?: { id?: unknown } } | undefined)?.data?.id;
      const effect = writeEffect(declared, {
        method: req.method,
        statusCode: status,
        params,
        answerId: typeof answerId === 'string' ? answerId : undefined,
      });
      const operationId = config.operationId ?? `${req.method} ${routeOf(req).url}`;
      await audit.record(tx, {
        mediaId: req.principal.mediaId,
        keyId: req.principal.keyId,
        operationId,
        action: effect.action,
        recordKind: effect.kind,
        recordId: effect.id ?? null,
        fields: fieldsOf(req.body),
      });
      if (revises && effect.id) {
        const recordId = revises.part ? await revises.source.rows.rootOf(tx, revises.part, effect.id) : effect.id;
        const note = req.headers['x-revision-note'];
        if (recordId) {
          await revisions.record(txCtx, {
            source: revises.source,
            recordId,
            action: revises.action ?? (revises.part || effect.action === 'corrected' ? 'updated' : effect.action),
            keyId: req.principal.keyId,
            operationId,
            note: typeof note === 'string' && note !== '' ? note : null,
            before,
          });
        }
      }
      return result;
    });
}
