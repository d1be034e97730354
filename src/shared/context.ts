import type { Db, Executor, Tx } from '../db/client.js';
import type { KeyPrincipal } from './permissions.js';
import type { ReaderPrincipal } from './scopes.js';

/**
 * A transaction a request (or a job) runs in: the executor, and the work to start once it has
 * committed (a queue's job for a row it wrote must not run before the row is visible).
 */
export interface TransactionScope {
  tx: Tx;
  afterCommit: Array<() => void>;
}

/**
 * If-Match on a write: the record the write addresses and how to tell whether its current
 * version is the one the client named. The write checks it once, holding the record's row lock.
 */
export interface Precondition {
  id: string;
  check: () => Promise<boolean>;
}

/**
 * What a Reader request's preview token lets it see (CONVENTIONS, "Revisions, corrections and
 * preview"): one content as it is now, whatever its status (`contentId`), or the whole media as it
 * will be at `asOf` (a time-travel token).
 */
export interface Preview {
  contentId: string | null;
  asOf: Date | null;
}

/** Who acts, for whom, on what: the first argument of every service method. */
export interface RequestContext {
  /** The tenant: the API key's media, the Reader's x-service-media-id, the Public path's media. */
  mediaId: string;
  /** The API key (Backoffice) or the bearer token's client or reader (Reader); null when anonymous or the service itself. */
  principal: KeyPrincipal | ReaderPrincipal | null;
  requestId: string;
  /**
   * What the work's statements run on: the request's transaction for a Backoffice write (the
   * write and its audit entry commit together), else the database.
   */
  db: Executor;
  /** The transaction `db` is, when it is one: `transaction(ctx, …)` joins it instead of opening another. */
  tx: TransactionScope | null;
  /** A conditional write's If-Match, checked under the addressed record's lock. */
  precondition?: Precondition | undefined;
  /** A Reader request's preview (x-preview-token); null or absent for every other request. */
  preview?: Preview | null;
}

/** A context for work the service does on its own behalf (start-up, jobs, tests). */
export const systemContext = (db: Db, mediaId: string, requestId = 'system'): RequestContext => ({ mediaId, principal: null, requestId, db, tx: null });

/**
 * Runs `work` in the context's transaction: the one it is in (a Backoffice write's), joined as a
 * part of it, or a new one. Joined, not nested as a savepoint: whatever `work` throws fails the
 * whole request, whose transaction rolls back, so a savepoint would undo nothing more.
 */
export async function transaction<T>(ctx: RequestContext, work: (tx: Executor, ctx: RequestContext) => Promise<T>): Promise<T> {
  if (ctx.tx) return work(ctx.tx.tx, ctx);
  let scope: TransactionScope | undefined;
  const result = await (ctx.db as Db).transaction(async (tx) => {
    const opened: TransactionScope = { tx: tx as unknown as Tx, afterCommit: [] };
    scope = opened;
    return work(opened.tx, { ...ctx, db: opened.tx, tx: opened });
  });
  for (const start of scope?.afterCommit ?? []) start();
  return result;
}

/**
 * Starts `start` once the context's transaction has committed (dropped if it rolls back), or now
 * when the context is in none.
 */
export function afterCommit(ctx: RequestContext, start: () => void): void {
  if (ctx.tx) ctx.tx.afterCommit.push(start);
  else start();
}
