import { LRUCache } from 'lru-cache';
import { AppError } from '../shared/errors.js';

const WINDOW_MS = 60_000;

/**
 * Failed authentications per IP and minute. The rate limits count per key or token, so
 * requests that carry no valid one would otherwise never be limited: guessing keys, or
 * making the service ask an identity provider about garbage tokens. Counted in this
 * process only (a shared store would cost a round trip on every refusal).
 */
export function createAuthFailureThrottle(max: number) {
  const failures = new LRUCache<string, number>({ max: 100_000, ttl: WINDOW_MS });
  return {
    /** Refuses an IP that failed too often in the last minute, before any work is done. */
    check(ip: string): void {
      if ((failures.get(ip) ?? 0) >= max) {
        throw new AppError(429, 'rate_limited', 'too many failed authentications from this address; retry in a minute', undefined, {
          'retry-after': String(WINDOW_MS / 1000),
        });
      }
    },
    fail(ip: string): void {
      failures.set(ip, (failures.get(ip) ?? 0) + 1, { noUpdateTTL: failures.has(ip) });
    },
  };
}

export type AuthFailureThrottle = ReturnType<typeof createAuthFailureThrottle>;
