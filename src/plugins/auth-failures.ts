import type { Redis } from 'ioredis';
import { AppError } from '../shared/errors.js';
import { lruCache } from '../shared/cache.js';
import { type MaybePromise, andThen } from '../shared/maybe-async.js';

const WINDOW_MS = 60_000;
/** With Redis: how long an address seen under the limit is not asked about again. */
const CLEAN_FOR_MS = 1_000;
const KEY_PREFIX = 'mps-af-';

const refused = (retryAfterMs = WINDOW_MS) =>
  new AppError(429, 'rate_limited', 'too many failed authentications from this address; retry in a minute', undefined, {
    'retry-after': String(Math.max(1, Math.ceil(retryAfterMs / 1000))),
  });

/** The replies of a MULTI, or an error when Redis refused the transaction or one command. */
async function replies(multi: ReturnType<Redis['multi']>): Promise<unknown[]> {
  const results = await multi.exec();
  if (!results) throw new Error('redis transaction aborted');
  return results.map(([err, value]) => {
    if (err) throw err;
    return value;
  });
}

/**
 * Failed authentications per IP and minute. The rate limits count per key or token, so
 * requests that carry no valid one would otherwise never be limited: guessing keys, or
 * making the service ask an identity provider about garbage tokens.
 *
 * With Redis the count is shared by every instance, like the rate limits: a failure is one
 * round trip (INCR), and a check asks Redis at most once a second per address (an address
 * that failed is asked about again at once). Without Redis, or while it is unreachable, the
 * count is this process's own.
 */
export function createAuthFailureThrottle(max: number, redis?: Redis) {
  const failures = lruCache<string, number>({ entries: 100_000, ttl: WINDOW_MS });
  /** Addresses over the limit, until their window ends (ms since epoch). */
  const blocked = lruCache<string, number>({ entries: 100_000, ttl: WINDOW_MS });
  /** Addresses Redis found under the limit a moment ago. */
  const clean = lruCache<string, true>({ entries: 100_000, ttl: CLEAN_FOR_MS });

  const failLocally = (ip: string) => {
    failures.set(ip, (failures.get(ip) ?? 0) + 1, { noUpdateTTL: failures.has(ip) });
  };
  const block = (ip: string, count: number, ttlMs: number) => {
    if (count >= max) blocked.set(ip, Date.now() + ttlMs, { ttl: ttlMs });
  };

  const checkShared = async (ip: string, client: Redis) => {
    let count: number;
    let ttl: number;
    try {
      const [value, pttl] = await replies(client.multi().get(KEY_PREFIX + ip).pttl(KEY_PREFIX + ip));
      [count, ttl] = [Number(value ?? 0), Number(pttl)];
    } catch {
      // Redis down: this process's own count decides (the rate limits skip Redis errors too).
      if ((failures.get(ip) ?? 0) >= max) throw refused();
      return;
    }
    block(ip, count, ttl > 0 ? ttl : WINDOW_MS);
    const until = blocked.get(ip);
    if (until !== undefined) throw refused(until - Date.now());
    clean.set(ip, true);
  };

  /** Refuses an IP that failed too often in the last minute, before any work is done. */
  const check = (ip: string): void | Promise<void> => {
    const until = blocked.get(ip);
    if (until !== undefined) throw refused(until - Date.now());
    if (!redis) {
      if ((failures.get(ip) ?? 0) >= max) throw refused();
      return;
    }
    if (clean.has(ip)) return;
    return checkShared(ip, redis);
  };

  const fail = async (ip: string): Promise<void> => {
    failLocally(ip);
    if (!redis) return;
    clean.delete(ip);
    const key = KEY_PREFIX + ip;
    try {
      // The window starts at the first failure, as in the local count.
      const [, count, ttl] = await replies(redis.multi().set(key, 0, 'PX', WINDOW_MS, 'NX').incr(key).pttl(key));
      block(ip, Number(count), Number(ttl) > 0 ? Number(ttl) : WINDOW_MS);
    } catch {
      // Counted locally above.
    }
  };

  /** A refused credential (a 401) counts against the address; anything else passes through. */
  const refusedBy = async (ip: string, err: unknown): Promise<never> => {
    if (err instanceof AppError && err.statusCode === 401) await fail(ip);
    throw err;
  };
  /** `verify(arg)`, synchronous when it is (a cached credential: no promise per request). */
  const verified = <A, T>(ip: string, verify: (arg: A) => MaybePromise<T>, arg: A): MaybePromise<T> => {
    let result: MaybePromise<T>;
    try {
      result = verify(arg);
    } catch (err) {
      return refusedBy(ip, err);
    }
    return result instanceof Promise ? result.catch((err: unknown) => refusedBy(ip, err)) : result;
  };

  return {
    check,
    fail,
    /**
     * A credential check under the throttle: an address that failed too often is refused before
     * any work, and a refused credential (a 401) counts against it. `verify` is made once per
     * hook, not per request, and gets `arg` (the request).
     */
    guard<A, T>(ip: string, verify: (arg: A) => MaybePromise<T>, arg: A): MaybePromise<T> {
      return andThen(check(ip), () => verified(ip, verify, arg));
    },
  };
}

export type AuthFailureThrottle = ReturnType<typeof createAuthFailureThrottle>;
