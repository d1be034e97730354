import { describe, expect, it } from 'vitest';
import { LoadingCache, lruCache } from './cache.js';

describe('lruCache', () => {
  it('holds at most its entries, evicting the least recently used', () => {
    const cache = lruCache<string, number>({ entries: 3 });
    for (const [i, key] of ['a', 'b', 'c'].entries()) cache.set(key, i);
    expect(cache.get('a')).toBe(0); // a is now the most recent
    cache.set('d', 3);
    expect([...cache.keys()]).toEqual(['d', 'a', 'c']);
    expect(cache.has('b')).toBe(false);
    for (let i = 0; i < 100; i++) cache.set(`k${i}`, i);
    expect(cache.size).toBe(3);
  });

  it('reads the clock (and sets the timer that forgets the reading) at most once per 100 ms, not on every get', async () => {
    let reads = 0;
    const cache = lruCache<string, string>({ entries: 10, ttl: 60_000, perf: { now: () => (reads++, performance.now()) } });
    cache.set('key', 'value');
    const before = reads;
    for (let i = 0; i < 10; i++) {
      expect(cache.get('key')).toBe('value');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    // lru-cache's default resolution (1 ms) read it on each of these gets, 5 ms apart.
    expect(reads - before).toBeLessThanOrEqual(2);
  });

  it('forgets an entry after its ttl', () => {
    let now = 1_000;
    const cache = lruCache<string, string>({ entries: 10, ttl: 50, ttlResolution: 0, perf: { now: () => now } });
    cache.set('key', 'value');
    now += 49;
    expect(cache.get('key')).toBe('value');
    now += 2;
    expect(cache.get('key')).toBeUndefined();
  });
});

describe('LoadingCache', () => {
  /** A load whose answers the test settles by hand, counting the loads started. */
  const manualLoad = () => {
    const started: Array<{ key: string; resolve: (v: string | undefined) => void; reject: (e: Error) => void }> = [];
    const load = (key: string) => new Promise<string | undefined>((resolve, reject) => started.push({ key, resolve, reject }));
    return { started, load };
  };

  it('shares one load between the misses of a key that arrive together, then answers hits synchronously', async () => {
    const { started, load } = manualLoad();
    const cache = new LoadingCache<string, string>({ entries: 10, ttl: 1_000, load });
    const waiting = Array.from({ length: 50 }, () => cache.get('k'));
    const other = cache.get('other');
    expect(started.map((s) => s.key)).toEqual(['k', 'other']);
    started[0]!.resolve('value');
    expect(await Promise.all(waiting)).toEqual(Array(50).fill('value'));
    expect(cache.get('k')).toBe('value');
    started[1]!.resolve('v2');
    expect(await other).toBe('v2');
    expect(started).toHaveLength(2);
  });

  it('loads again once the entry has expired', async () => {
    let now = 1_000;
    let loads = 0;
    const cache = new LoadingCache<string, string>({ entries: 10, ttl: 50, load: async (k) => `${k}${++loads}`, perf: { now: () => now } });
    expect(await cache.get('k')).toBe('k1');
    now += 49;
    expect(cache.get('k')).toBe('k1');
    now += 2;
    expect(await cache.get('k')).toBe('k2');
  });

  it('keeps neither an undefined answer nor a failure, and tells every waiter of the failure', async () => {
    const { started, load } = manualLoad();
    const cache = new LoadingCache<string, string>({ entries: 10, ttl: 1_000, load });
    const first = cache.get('none');
    started[0]!.resolve(undefined);
    expect(await first).toBeUndefined();
    const again = cache.get('none');
    expect(started).toHaveLength(2);
    started[1]!.resolve('found');
    expect(await again).toBe('found');

    const a = cache.get('broken');
    const b = cache.get('broken');
    started[2]!.reject(new Error('database down'));
    await expect(a).rejects.toThrow('database down');
    await expect(b).rejects.toThrow('database down');
    const retry = cache.get('broken');
    expect(started).toHaveLength(4);
    started[3]!.resolve('back');
    expect(await retry).toBe('back');
  });

  it('stores nothing a load read before its key was forgotten, so a revocation is not undone', async () => {
    const { started, load } = manualLoad();
    const cache = new LoadingCache<string, string>({ entries: 10, ttl: 1_000, load });
    const before = cache.get('key');
    cache.delete('key');
    const after = cache.get('key');
    expect(started).toHaveLength(2);
    started[1]!.resolve('revoked');
    expect(await after).toBe('revoked');
    // The older load answers last: its waiters get what it read, the cache keeps the newer answer.
    started[0]!.resolve('read before the revocation');
    expect(await before).toBe('read before the revocation');
    expect(cache.get('key')).toBe('revoked');

    const pending = cache.get('cleared');
    cache.clear();
    started[2]!.resolve('stale');
    expect(await pending).toBe('stale');
    expect(cache.get('cleared')).toBeInstanceOf(Promise);
  });

  it('gives each value the time to live ttlOf names', async () => {
    let now = 1_000;
    const cache = new LoadingCache<string, string>({ entries: 10, ttl: 1_000, ttlOf: (v) => (v === 'miss' ? 10 : 1_000), load: async (k) => (k === 'a' ? 'miss' : 'hit'), perf: { now: () => now } });
    await cache.get('a');
    await cache.get('b');
    now += 11;
    expect(cache.get('a')).toBeInstanceOf(Promise);
    expect(cache.get('b')).toBe('hit');
  });
});
