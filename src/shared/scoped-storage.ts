import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Whether this runtime's AsyncLocalStorage is built on async hooks (Node 20 and 22): there, an
 * instance that has run once keeps a promise hook on every promise and an init hook on every
 * async resource of the process until it is disabled, whether anything reads it or not (so every
 * later read pays for them once a single write has run). Node 24's (AsyncContextFrame)
 * costs nothing while idle and has no `_enable`.
 */
export const HOOKED = typeof (AsyncLocalStorage.prototype as unknown as { _enable?: unknown })._enable === 'function';

/**
 * An AsyncLocalStorage whose hooks are on only while one of its runs is under way: each `run`
 * counts itself in until what it returns settles, and the last one out disables the instance. A
 * store is seen by the work of its run, as before; work that outlives its run (a timer it left)
 * sees none once no run is under way, so a store whose end matters says so itself (`open`).
 * A request pays the hooks only while a run is under way: a write's transaction, a precondition,
 * or, with a replica configured (DATABASE_READ_URL), a Reader or Public read's own read scope.
 */
export function scopedStorage<T>() {
  const storage = new AsyncLocalStorage<T>();
  let running = 0;
  const leave = () => {
    running -= 1;
    if (running === 0 && HOOKED) storage.disable();
  };
  return {
    getStore: (): T | undefined => storage.getStore(),
    /** `work` with `store` as the store of everything it starts, until what it returns settles. */
    run<R>(store: T, work: () => R): R {
      running += 1;
      let result: R;
      try {
        result = storage.run(store, work);
      } catch (error) {
        leave();
        throw error;
      }
      if (result instanceof Promise) return result.finally(leave) as R;
      leave();
      return result;
    },
    /** `work` with no store (its synchronous part; what it starts then inherits none). */
    exit: <R>(work: () => R): R => storage.exit(work),
  };
}
