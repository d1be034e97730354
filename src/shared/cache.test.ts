import { describe, expect, it } from 'vitest';
import { lruCache } from './cache.js';

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
