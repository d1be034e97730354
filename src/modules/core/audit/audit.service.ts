import { lt, sql } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { Db, Executor } from '../../../db/client.js';
import type { JobRunner } from '../../../db/job-queue.js';
import { aggregate } from '../../../shared/aggregate.js';
import { errors } from '../../../shared/errors.js';
import { type FilterPart, namedFilter } from '../../../shared/filters.js';
import type { RequestContext } from '../../../shared/context.js';
import type { Paginator } from '../../../shared/paging.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { apiKeys } from '../api-keys/api-keys.table.js';
import { auditLog } from './audit.table.js';

export const AUDIT_PRUNE_QUEUE = 'audit-prune';
const DAY_MS = 86_400_000;

const entries = aggregate(auditLog, {
  owner: auditLog.mediaId,
  // Entries are never written through the aggregate.
  conflict: () => errors.conflict('audit_conflict', 'audit entries are not written here'),
  columns: ['id', 'mediaId', 'insertedAt', 'keyId', 'keyName', 'operationId', 'action', 'recordKind', 'recordId', 'fields'],
  parts: {},
});

export interface AuditEntry {
  mediaId: string;
  keyId: string;
  operationId: string;
  action: string;
  recordKind: string;
  recordId: string | null;
  fields: string[];
}

export interface AuditQuery extends PagingQuery {
  record_kind?: string | undefined;
  record_id?: string | undefined;
  key_id?: string | undefined;
  operation_id?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
}

/**
 * The audit log: written by the Backoffice's writes (audit.writes.ts), read by admins, pruned by
 * age. The prune is a job of its own, on the database (`deps.db`), outside any request.
 */
export function createAuditService(deps: { db: Db; pager: Paginator; jobs: JobRunner; retentionDays: number }) {
  const { db, pager } = deps;
  const cutoff = (now: Date) => new Date(now.getTime() - deps.retentionDays * DAY_MS);
  const service = {
    /** Inserts one entry on `executor` (the write's transaction), the key's name read in the same statement. */
    async record(executor: Executor, entry: AuditEntry): Promise<void> {
      await executor.execute(sql`
        insert into ${auditLog} (id, media_id, key_id, key_name, operation_id, action, record_kind, record_id, fields)
        select ${uuidv7()}::uuid, ${entry.mediaId}, ${entry.keyId}, coalesce((select ${apiKeys.name} from ${apiKeys} where ${apiKeys.id} = ${entry.keyId}), ''),
               ${entry.operationId}, ${entry.action}, ${entry.recordKind}, ${entry.recordId}, ${JSON.stringify(entry.fields)}::jsonb`);
    },

    /** The media's entries, newest first, narrowed by record, key, operation and time. */
    page(ctx: RequestContext, query: AuditQuery) {
      const parts: FilterPart[] = [];
      if (query.record_kind) parts.push(['k', sql`${auditLog.recordKind} = ${sql.placeholder('f_k')}`, query.record_kind]);
      if (query.record_id) parts.push(['r', sql`${auditLog.recordId} = ${sql.placeholder('f_r')}`, query.record_id]);
      if (query.key_id) parts.push(['p', sql`${auditLog.keyId} = ${sql.placeholder('f_p')}::uuid`, query.key_id]);
      if (query.operation_id) parts.push(['o', sql`${auditLog.operationId} = ${sql.placeholder('f_o')}`, query.operation_id]);
      if (query.from) parts.push(['f', sql`${auditLog.insertedAt} >= ${sql.placeholder('f_f')}::timestamptz`, query.from.toISOString()]);
      if (query.to) parts.push(['t', sql`${auditLog.insertedAt} < ${sql.placeholder('f_t')}::timestamptz`, query.to.toISOString()]);
      const filter = namedFilter(parts);
      return entries.page(pager, ctx.db, ctx.mediaId, query, filter ? { filter } : {});
    },

    /** Deletes the entries older than the retention (AUDIT_RETENTION_DAYS); answers how many went. */
    async prune(now = new Date()): Promise<number> {
      const gone = await db.delete(auditLog).where(lt(auditLog.insertedAt, cutoff(now))).returning({ id: auditLog.id });
      return gone.length;
    },

    /** Whether some entry is past the retention: the runner then starts with the app and prunes. */
    async hasExpired(now = new Date()): Promise<boolean> {
      const [row] = await db.select({ id: auditLog.id }).from(auditLog).where(lt(auditLog.insertedAt, cutoff(now))).limit(1);
      return row !== undefined;
    },

  };
  // A daily prune on the app's job runner; started with the app when entries have expired already.
  const queue: { send: (data: object) => Promise<void> } = deps.jobs.queue<object>(AUDIT_PRUNE_QUEUE, {
    work: async () => void (await service.prune()),
    hasPending: () => service.hasExpired(),
    onStart: () => queue.send({}),
    cron: '17 3 * * *',
    retry: { retryLimit: 3, retryDelay: 60 },
  });
  return service;
}

export type AuditService = ReturnType<typeof createAuditService>;
