import { sql } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { Db } from '../../../db/client.js';
import type { JobRunner } from '../../../db/job-queue.js';
import { rowsOf } from '../../../db/rows.js';
import { aggregate } from '../../../shared/aggregate.js';
import type { RequestContext } from '../../../shared/context.js';
import { errors } from '../../../shared/errors.js';
import { jsonDiff } from '../../../shared/json-diff.js';
import { type Paginator, keyset } from '../../../shared/paging.js';
import type { RevisionAction, RevisionRows, RevisionSource } from '../../../shared/revisions.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { apiKeys } from '../api-keys/api-keys.table.js';
import { revisions } from './revisions.table.js';

export const REVISION_PRUNE_QUEUE = 'revision-prune';
const DAY_MS = 86_400_000;

const list = aggregate(revisions, {
  owner: revisions.mediaId,
  // Revisions are never written through the aggregate.
  conflict: () => errors.conflict('revision_conflict', 'revisions are not written here'),
  columns: ['id', 'number', 'action', 'insertedAt', 'keyId', 'keyName', 'operationId', 'note'],
  parts: {},
});

type Listed = Awaited<ReturnType<typeof list.find>> & object;

/** Newest first: a record's revisions by number. */
const byNumber = keyset<Listed>([{ expr: revisions.number, type: 'integer', dir: 'desc', of: (r) => r.number }], revisions.id);

export const revisionNotFound = () => errors.notFound('revision_not_found', 'revision not found');

export interface RevisionWrite {
  source: RevisionSource;
  recordId: string;
  action: RevisionAction;
  keyId: string | null;
  operationId: string;
  note: string | null;
  /** A delete's record as it was before the delete (its revision holds it, marked deleted). */
  before?: Record<string, unknown> | undefined;
}

interface Stored {
  id: string;
  number: number;
  action: string;
  inserted_at: string;
  key_id: string | null;
  key_name: string;
  operation_id: string;
  note: string | null;
  record: Record<string, unknown>;
  rows: RevisionRows | null;
}

/** One revision on the wire, without its snapshot. */
const toWire = (r: Listed | Stored) =>
  'insertedAt' in r
    ? { id: r.id, number: r.number, action: r.action as RevisionAction, inserted_at: r.insertedAt, key_id: r.keyId, key_name: r.keyName, operation_id: r.operationId, note: r.note }
    : { id: r.id, number: r.number, action: r.action as RevisionAction, inserted_at: r.inserted_at, key_id: r.key_id, key_name: r.key_name, operation_id: r.operation_id, note: r.note };

/**
 * Revisions of the records whose kinds keep them (CONVENTIONS, "Revisions"): written by the
 * Backoffice's write path (audit.writes.ts) in the write's transaction, listed, read, diffed and
 * reverted through each kind's `RevisionSource`, pruned by age (REVISION_RETENTION_DAYS) but never
 * a record's latest.
 */
export function createRevisionsService(deps: { db: Db; pager: Paginator; jobs: JobRunner; retentionDays?: number | undefined }) {
  const { db, pager } = deps;

  /** A stored revision of the media's record, with its snapshot and rows; 404 (the record's own when it is not the media's). */
  const stored = async (ctx: RequestContext, source: RevisionSource, recordId: string, number: number): Promise<Stored> => {
    const [row] = rowsOf<Stored>(
      await ctx.db.execute(sql`
        select id, number, action, to_char(inserted_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as inserted_at,
               key_id, key_name, operation_id, note, record, rows
        from ${revisions}
        where media_id = ${ctx.mediaId} and record_kind = ${source.kind} and record_id = ${recordId} and number = ${number}`),
    );
    if (row) return row;
    if (!(await source.rows.exists(ctx.db, recordId, ctx.mediaId))) throw source.notFound();
    throw revisionNotFound();
  };

  /** Older than the retention, and not the record's latest. */
  const expired = (now: Date) => sql`r.inserted_at < ${new Date(now.getTime() - (deps.retentionDays ?? 0) * DAY_MS).toISOString()}::timestamptz
    and r.number < (select max(l.number) from ${revisions} l where l.record_kind = r.record_kind and l.record_id = r.record_id)`;

  const service = {
    /** The record as a delete's revision will hold it: read before the delete (undefined when there is none). */
    async before(ctx: RequestContext, source: RevisionSource, recordId: string) {
      return source.load(ctx, recordId).catch(() => undefined);
    },

    /**
     * Adds the record's next revision in the write's transaction (`ctx.db`): its root row locked,
     * so that concurrent writes number theirs one after the other.
     */
    async record(ctx: RequestContext, write: RevisionWrite): Promise<void> {
      const { source, recordId } = write;
      const locked = await source.rows.lock(ctx.db, recordId, ctx.mediaId);
      if (!locked) return;
      const deleted = write.action === 'deleted';
      const record = deleted
        ? { ...(write.before ?? { id: recordId }), ...(locked.deletedAt && { deleted_at: locked.deletedAt }) }
        : await source.load(ctx, recordId);
      await ctx.db.execute(sql`
        insert into ${revisions} (id, media_id, record_kind, record_id, number, action, key_id, key_name, operation_id, note, record, rows)
        select ${uuidv7()}::uuid, ${ctx.mediaId}, ${source.kind}, ${recordId},
               coalesce((select max(number) from ${revisions} where record_kind = ${source.kind} and record_id = ${recordId}), 0) + 1,
               ${write.action}, ${write.keyId}, coalesce((select ${apiKeys.name} from ${apiKeys} where ${apiKeys.id} = ${write.keyId}), ''),
               ${write.operationId}, ${write.note}, ${JSON.stringify(record)}::json,
               ${deleted ? sql`null` : sql`${source.rows.snapshot(recordId)}::jsonb`}`);
    },

    /** The record's revisions, newest first, without snapshots; 404 when the media has no such record. */
    async page(ctx: RequestContext, source: RevisionSource, recordId: string, query: PagingQuery) {
      if (!(await source.rows.exists(ctx.db, recordId, ctx.mediaId))) throw source.notFound();
      const page = await list.page(pager, ctx.db, ctx.mediaId, query, {
        order: byNumber,
        orderName: 'number',
        filter: {
          name: 'record',
          where: sql`${revisions.recordKind} = ${sql.placeholder('f_k')} and ${revisions.recordId} = ${sql.placeholder('f_r')}::uuid`,
          params: { f_k: source.kind, f_r: recordId },
        },
      });
      return page;
    },

    toWire,

    /** One revision with its snapshot (`record`). */
    async get(ctx: RequestContext, source: RevisionSource, recordId: string, number: number) {
      const row = await stored(ctx, source, recordId, number);
      return { ...toWire(row), record: row.record };
    },

    /**
     * The changes from revision `number` to `to` (a number or the record as it is now); without
     * `to`, from the revision before `number` (none for the first: every field added) to `number`.
     */
    async diff(ctx: RequestContext, source: RevisionSource, recordId: string, number: number, to: number | 'current' | undefined) {
      const at = await stored(ctx, source, recordId, number);
      if (to === undefined) {
        const from = number > 1 ? await stored(ctx, source, recordId, number - 1).catch(() => undefined) : undefined;
        return { from: from ? from.number : null, to: number, changes: jsonDiff(from?.record ?? {}, at.record, source.keys) };
      }
      const target = to === 'current' ? await source.load(ctx, recordId) : (await stored(ctx, source, recordId, to)).record;
      return { from: number, to, changes: jsonDiff(at.record, target, source.keys) };
    },

    /**
     * Makes revision `number` current again, in the write's transaction (its own revision, `reverted`,
     * is written by the write path): the record's tree written back exactly. A delete's revision is
     * not one to revert to (409): restore the record, or revert to the revision before it.
     */
    async revert(ctx: RequestContext, source: RevisionSource, recordId: string, number: number) {
      if (!(await source.rows.lock(ctx.db, recordId, ctx.mediaId))) throw source.notFound();
      const row = await stored(ctx, source, recordId, number);
      if (!row.rows) throw errors.conflict('revision_not_revertible', 'this revision is a delete; restore the record or revert to an earlier revision');
      await source.rows.revert(ctx.db, recordId, row.rows);
      return source.load(ctx, recordId);
    },

    /** Deletes the revisions older than the retention, never a record's latest; answers how many went. */
    async prune(now = new Date()): Promise<number> {
      if (!deps.retentionDays) return 0;
      return rowsOf(await db.execute(sql`delete from ${revisions} r where ${expired(now)} returning r.id`)).length;
    },

    /** Whether some revision is past the retention: the runner then starts with the app and prunes. */
    async hasExpired(now = new Date()): Promise<boolean> {
      if (!deps.retentionDays) return false;
      return rowsOf(await db.execute(sql`select 1 from ${revisions} r where ${expired(now)} limit 1`)).length > 0;
    },
  };
  // A daily prune on the app's job runner, only when a retention is set (unset: every revision is kept).
  if (deps.retentionDays) {
    const queue: { send: (data: object) => Promise<void> } = deps.jobs.queue<object>(REVISION_PRUNE_QUEUE, {
      work: async () => void (await service.prune()),
      hasPending: () => service.hasExpired(),
      onStart: () => queue.send({}),
      cron: '37 3 * * *',
      retry: { retryLimit: 3, retryDelay: 60 },
    });
  }
  return service;
}

export type RevisionsService = ReturnType<typeof createRevisionsService>;
