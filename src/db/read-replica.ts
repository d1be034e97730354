import type pg from 'pg';
import { scopedStorage } from '../shared/scoped-storage.js';

/**
 * DATABASE_READ_URL: the published reads of the Reader and Public trees go to a replica.
 *
 * The scope is the handler of a read the Reader or Public tree marks `replica` (a GET that does
 * not declare `primary`: a reader's own state and what decides access stay on the primary), bound
 * in src/app.ts; inside it, a plain `select` the pool is asked to run
 * outside a transaction goes to the read pool. Everything else stays on the primary: writes,
 * transactions (a `pool.connect()`), statements that lock or advance a sequence, the auth hooks
 * that run before the handler (API keys, tokens: a revocation must be seen at once), and every
 * Backoffice, Operator and delivery request. Routing happens per query, not per statement
 * object, so a prepared statement built in one scope is run on the right pool in another.
 */
const scope = scopedStorage<true>();

export const inReadScope = <T>(work: () => T): T => scope.run(true, work);

export const isReadScope = (): boolean => scope.getStore() === true;

// A select that changes or locks something is the primary's.
const READ = /^\s*select\b/i;
const NOT_READ = /\bfor\s+(update|share|no\s+key\s+update|key\s+share)\b|\bnextval\s*\(|\bpg_advisory|\bset_config\s*\(/i;

const sqlOf = (query: unknown): string | undefined =>
  typeof query === 'string' ? query : typeof (query as { text?: unknown })?.text === 'string' ? (query as { text: string }).text : undefined;

/** Whether `query` (pg's text or query config) may run on the replica in the current scope. */
export function goesToReplica(query: unknown): boolean {
  if (!isReadScope()) return false;
  const text = sqlOf(query);
  return text !== undefined && READ.test(text) && !NOT_READ.test(text);
}

/**
 * Sends `primary.query` calls that may go to the replica to `replica` instead. The primary stays
 * a pg.Pool (Drizzle checks), and its `connect()` (transactions) is untouched.
 */
export function routeReads(primary: pg.Pool, replica: pg.Pool): void {
  const own = primary.query.bind(primary) as (...args: unknown[]) => unknown;
  const read = replica.query.bind(replica) as (...args: unknown[]) => unknown;
  (primary as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) =>
    goesToReplica(args[0]) ? read(...args) : own(...args);
}
