import { LRUCache } from 'lru-cache';

/**
 * An in-process LRU cache of at most `entries` entries (with a `ttl` when given) that allocates as
 * it fills. lru-cache's own `max` preallocates its arrays up front: a 100,000-entry cache cost 12 ms
 * and megabytes at every app build, before it held a single entry. Bounded by `maxSize` with each
 * entry counting one, it grows with use and evicts the least recently used past the bound.
 */
export function lruCache<K extends NonNullable<unknown>, V extends NonNullable<unknown>>(
  options: { entries: number } & Omit<LRUCache.Options<K, V, unknown>, 'max' | 'maxSize' | 'sizeCalculation'>,
): LRUCache<K, V> {
  const { entries, ...rest } = options;
  return new LRUCache<K, V>({ ...rest, maxSize: entries, sizeCalculation: () => 1 });
}
