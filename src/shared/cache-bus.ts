import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

/** What a cache must offer the bus: LRUCache and Map both do. */
export interface Forgetful {
  delete(key: string): unknown;
  clear(): void;
}

export interface CacheBus {
  /**
   * Joins a cache to the bus under a name unique in the app. The function answered forgets a
   * key here at once and, through Redis, on every other instance moments later.
   */
  channel(name: string, cache: Forgetful): (key: string) => void;
  /** Resolves once this instance hears the others (at once without Redis). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** One Redis channel for every cache; each message is `<cache name>\n<key>`. */
export const CACHE_BUS_CHANNEL = 'mps:cache-invalidate';

/**
 * Invalidation of the caches that decide access (API keys, OAuth clients and providers,
 * signing keys, media, file lookups) across instances through Redis pub/sub. Without Redis it
 * only forgets locally: other instances then see a change when their entry's TTL runs out.
 * The subscriber has its own connection (a subscribed connection runs no other command); after
 * it reconnects, every joined cache is cleared, since messages sent meanwhile were lost.
 */
export function createCacheBus(options: { redis?: Redis | undefined; logger?: Logger | undefined } = {}): CacheBus {
  const { redis, logger } = options;
  const caches = new Map<string, Forgetful>();
  if (!redis) {
    return {
      channel(name, cache) {
        caches.set(name, cache);
        return (key) => void cache.delete(key);
      },
      ready: async () => {},
      close: async () => {},
    };
  }

  const subscriber = redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null, lazyConnect: false });
  subscriber.on('error', (err: Error) => logger?.warn({ err: { message: err.message } }, 'cache bus subscriber error'));
  let readyBefore = false;
  subscriber.on('ready', () => {
    if (readyBefore) for (const cache of caches.values()) cache.clear();
    readyBefore = true;
  });
  subscriber.on('message', (channel: string, message: string) => {
    if (channel !== CACHE_BUS_CHANNEL) return;
    const cut = message.indexOf('\n');
    if (cut < 0) return;
    caches.get(message.slice(0, cut))?.delete(message.slice(cut + 1));
  });
  const subscribed = subscriber.subscribe(CACHE_BUS_CHANNEL).catch((err: Error) => {
    logger?.warn({ err: { message: err.message } }, 'cache bus could not subscribe');
  });

  return {
    channel(name, cache) {
      caches.set(name, cache);
      return (key) => {
        cache.delete(key);
        redis.publish(CACHE_BUS_CHANNEL, `${name}\n${key}`).catch((err: Error) => {
          logger?.warn({ err: { message: err.message }, cache: name }, 'cache invalidation not published');
        });
      };
    },
    ready: async () => {
      await subscribed;
    },
    async close() {
      await subscribed;
      subscriber.disconnect();
    },
  };
}
