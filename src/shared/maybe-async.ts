import type { FastifyRequest, onRequestHookHandler } from 'fastify';

/**
 * A value now or later. Auth answers from caches on almost every request: a hit is answered
 * at once, and only a miss (the database, a provider) makes a promise. Every async layer on the
 * way cost a promise and its microtask turns per request.
 */
export type MaybePromise<T> = T | Promise<T>;

/** `next(value)`: at once when the value is there, else once it comes. */
export const andThen = <T, U>(value: MaybePromise<T>, next: (value: T) => MaybePromise<U>): MaybePromise<U> =>
  value instanceof Promise ? value.then(next) : next(value);

/**
 * An onRequest hook from a check that answers at once or later: Fastify goes on at once when
 * the check did (a callback hook, no promise), and an error of either kind is the request's.
 */
export function checkHook(check: (req: FastifyRequest) => MaybePromise<void>): onRequestHookHandler {
  return (req, _reply, done) => {
    let pending: MaybePromise<void>;
    try {
      pending = check(req);
    } catch (err) {
      return done(err as Error);
    }
    if (pending instanceof Promise) pending.then(() => done(), done);
    else done();
  };
}
