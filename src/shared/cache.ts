import { LRUCache } from 'lru-cache';

/**
 * How precisely an entry's age is known: lru-cache reads the clock once per this many ms and
 * sets a timer to forget the reading. Its default (1 ms) made a timer on almost every request
 * for each cache the request read; entries may now outlive their ttl by up to 100 ms.
 */
const TTL_RESOLUTION_MS = 100;

/**
 * An in-process LRU cache of at most `entries` entries (with a `ttl` when given) that allocates as
 * it fills. lru-cache's own `max` preallocates its arrays up front: a large cache paid for its whole
 * capacity at every app build (each test file's too), before it held a single entry. Bounded by `maxSize` with each
 * entry counting one, it grows with use and evicts the least recently used past the bound.
 */
export function lruCache<K extends NonNullable<unknown>, V extends NonNullable<unknown>>(
  options: { entries: number } & Omit<LRUCache.Options<K, V, unknown>, 'max' | 'maxSize' | 'sizeCalculation'>,
): LRUCache<K, V> {
  const { entries, ...rest } = options;
  return new LRUCache<K, V>({ ttlResolution: TTL_RESOLUTION_MS, ...rest, maxSize: entries, sizeCalculation: () => 1 });
}

export interface LoadingCacheOptions<K, V> {
  entries: number;
  /** How long a loaded value is trusted, in ms. */
  ttl: number;
  /** What a miss reads (the database, a provider); undefined is an answer that is not kept. */
  load: (key: K) => Promise<V | undefined>;
  /** A value's own time to live, when not `ttl` (a miss remembered for less time than a hit). */
  ttlOf?: (value: V) => number;
  /** For tests: lru-cache's clock. */
  perf?: { now: () => number };
}

/**
 * A cache that loads what it misses, one load per key at a time. When an entry expires under
 * load, the requests that miss it together wait for one load instead of each sending its own
 * query: the by-id bench (50 connections) saw 35 API-key selects each time that key's entry ran
 * out. A hit answers the value itself, not a promise of it.
 *
 * Forgetting a key (a revocation, through the cache bus) also forgets a load under way: what it
 * read may predate the change, so it answers its own waiters but stores nothing, and the next
 * miss loads again.
 */
export class LoadingCache<K extends NonNullable<unknown>, V extends NonNullable<unknown>> {
  private readonly values: LRUCache<K, V>;
  private readonly loading = new Map<K, Promise<V | undefined>>();
  private readonly load: (key: K) => Promise<V | undefined>;
  private readonly ttlOf: ((value: V) => number) | undefined;

  constructor(options: LoadingCacheOptions<K, V>) {
    this.values = lruCache<K, V>({ entries: options.entries, ttl: options.ttl, ...(options.perf && { perf: options.perf, ttlResolution: 0 }) });
    this.load = options.load;
    this.ttlOf = options.ttlOf;
  }

  /** The cached value, without loading it. */
  peek(key: K): V | undefined {
    return this.values.get(key);
  }

  /** The cached value, else the one load of it under way (started here if none is). */
  get(key: K): V | Promise<V | undefined> {
    const hit = this.values.get(key);
    if (hit !== undefined) return hit;
    return this.loading.get(key) ?? this.start(key);
  }

  private start(key: K): Promise<V | undefined> {
    const pending: Promise<V | undefined> = this.load(key).then(
      (value) => {
        // Forgotten meanwhile (or cleared): answer the waiters, keep nothing.
        if (this.loading.get(key) !== pending) return value;
        this.loading.delete(key);
        if (value !== undefined) this.values.set(key, value, this.ttlOf && { ttl: this.ttlOf(value) });
        return value;
      },
      (err: unknown) => {
        if (this.loading.get(key) === pending) this.loading.delete(key);
        throw err;
      },
    );
    this.loading.set(key, pending);
    return pending;
  }

  delete(key: K): void {
    this.values.delete(key);
    this.loading.delete(key);
  }

  clear(): void {
    this.values.clear();
    this.loading.clear();
  }
}
