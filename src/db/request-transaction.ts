import { scopedStorage } from '../shared/scoped-storage.js';
import type { TransactionScope } from '../shared/context.js';
import type { Db, Tx } from './client.js';

/** A request's transaction while its handler runs; closed (`open` false) once the handler is done. */
interface Store extends TransactionScope {
  tx: Tx;
  open: boolean;
  /** Work to start once the transaction has committed (a queue's job for a row it wrote). */
  afterCommit: Array<() => void>;
  /** What `transaction(work)` on the handle is while this one is open: `work` on it. */
  joinTransaction: (work: (tx: Tx) => Promise<unknown>) => Promise<unknown>;
}

const storage = scopedStorage<Store>();
const bases = new WeakMap<object, Db>();

/**
 * The database handle every service holds: the plain database, except inside a request
 * transaction (`inRequestTransaction`), where every call goes to that transaction and a
 * `transaction(work)` runs `work` in it, as a part of it. Not as a savepoint: whatever `work`
 * throws fails the request and rolls its whole transaction back (no caller catches a failed
 * transaction and goes on with the request's), so a savepoint undid nothing the request's rollback
 * does not, and cost two more statements (`SAVEPOINT`, `RELEASE`), a round trip each, on every
 * write. Work a handler leaves running after its transaction has ended finds the store
 * closed and falls back to the plain database.
 */
export function transactional(base: Db): Db {
  // While the modules move to their context's executor (ctx.db), MPS_NO_AMBIENT_TX=1 runs without
  // this handle, so that a service still relying on it shows (its writes leave the transaction).
  if (process.env.MPS_NO_AMBIENT_TX === '1') return base;
  const proxy = new Proxy(base, {
    get(target, prop) {
      // The driver's client (pg-boss's adapter, health checks) is the connection's, never a transaction's.
      if (prop === '$client') return Reflect.get(target, prop);
      const store = storage.getStore();
      if (prop === 'transaction' && store?.open) return store.joinTransaction;
      const on: object = store?.open ? store.tx : target;
      const value: unknown = Reflect.get(on, prop, on);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(on) : value;
    },
  });
  bases.set(proxy, base);
  return proxy;
}

/**
 * What statements built on `executor` run on now: the request's transaction or the plain
 * database behind a `transactional` handle; any other executor (a transaction a service
 * opened) as it is. Caches of prepared statements key on it, so that none outlives its transaction.
 */
export function executorOf<T extends object>(executor: T): T {
  const base = bases.get(executor);
  if (!base) return executor;
  const store = storage.getStore();
  return (store?.open ? store.tx : base) as unknown as T;
}

/**
 * Runs `work` in one database transaction that every call on the `transactional` handle joins:
 * committed when it resolves, rolled back when it throws. Inside an open one, `work` just joins it.
 */
export async function inRequestTransaction<T>(db: Db, work: (scope: TransactionScope) => Promise<T>): Promise<T> {
  const open = storage.getStore();
  if (open?.open) return work(open);
  const base = bases.get(db) ?? db;
  let store: Store | undefined;
  try {
    const result = await base.transaction(async (tx) => {
      const joined = tx as unknown as Tx;
      const opened: Store = { tx: joined, open: true, afterCommit: [], joinTransaction: (part) => part(joined) };
      store = opened;
      try {
        return await storage.run(opened, () => work(opened));
      } finally {
        opened.open = false;
      }
    });
    for (const start of (store as Store | undefined)?.afterCommit ?? []) start();
    return result;
  } finally {
    if (store) store.open = false;
  }
}

/**
 * Makes `scope`, a transaction opened through the request context (`transaction(ctx, …)`), the
 * request transaction of the `transactional` handle while `work` runs, for the services that still
 * reach it through that handle instead of `ctx.db`; work it defers runs with the scope's own.
 */
export async function asRequestTransaction<T>(scope: TransactionScope, work: () => Promise<T>): Promise<T> {
  const store: Store = { tx: scope.tx, open: true, afterCommit: scope.afterCommit, joinTransaction: (part) => part(scope.tx) };
  try {
    return await storage.run(store, work);
  } finally {
    store.open = false;
  }
}

/**
 * Defers `start` until the request transaction around the caller commits (dropped when it rolls
 * back): false when there is none open, and the caller starts it now. A job queued for a row the
 * transaction wrote must not run before the row is visible (nor, on PGlite's one connection,
 * wait for the transaction that waits for it).
 */
export function afterCommit(start: () => void): boolean {
  const store = storage.getStore();
  if (!store?.open) return false;
  store.afterCommit.push(start);
  return true;
}
