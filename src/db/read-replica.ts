import type pg from 'pg';
import { scopedStorage } from '../shared/scoped-storage.js';

/**
 * DATABASE_READ_URL: the published reads of the Reader and Public trees go to a replica.
 *
 * The scope is the handler of a GET or HEAD route of those trees (`inReadScope`, bound where
 * the routes are declared, src/app.ts); inside it, a plain `select` the pool is asked to run
 * outside a transaction goes to the read pool. Everything else stays on the primary: writes,
 * transactions (a `pool.connect()`), statements that lock or advance a sequence, the auth hooks
 * that run before the handler (API keys, tokens: a revocation must be seen at once), and every
 * Backoffice, Operator and delivery request. Routing happens per query, not per statement
 * object, so a prepared statement built in one scope is run on the right pool in another.
 */
const scope = scopedStorage<true>();

/** The trees whose reads may go to the replica. */
const READ_TREES = ['/api/media/v1/', '/api/public/'];
/**
 * What a reader just wrote and reads back (their account, subscriptions, devices, a vote's
 * results) and what decides access (OAuth, JWKS) stays on the primary: a replica behind by a
 * moment must not answer a reader with what they had before.
 */
const OWN_STATE = /\/(accounts|oauth|jwks|token|newsletter|subscriptions|devices|invitations)(\/|$)|\/(registration|subscription|results)(\/|$)/;

/** Whether a route's handler runs in the read scope: GET or HEAD of a published read of the Reader or Public tree. */
export function isReplicaRoute(method: string | string[], url: string): boolean {
  const methods = [method].flat();
  return (
    methods.every((m) => m === 'GET' || m === 'HEAD') &&
    READ_TREES.some((tree) => url.startsWith(tree)) &&
    !OWN_STATE.test(url)
  );
}

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
