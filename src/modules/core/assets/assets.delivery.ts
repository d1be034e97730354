import { createHash } from 'node:crypto';
import { type CacheBus, createCacheBus } from '../../../shared/cache-bus.js';
import type { Logger } from 'pino';
import type { Db } from '../../../db/client.js';
import type { Limiter } from '../../../shared/limiter.js';
import { coreErrors } from '../core.errors.js';
import { CONTENT_TYPES, type OutputFormat, type Transform, render } from './assets.images.js';
import type { AssetsRepository, DeliverableFile } from './assets.repository.js';
import { type DeliveryQuery, parseFileKey } from './assets.schemas.js';
import type { Storage } from './storage/index.js';
import { LoadingCache } from '../../../shared/cache.js';

/** Where an uploaded file's bytes are stored: by media and content hash, never by a name. */
export const originalKey = (file: { mediaId: string; fileHash: string }) => `originals/${file.mediaId}/${file.fileHash}`;

const FORMAT_OF: Record<string, OutputFormat> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/gif': 'gif',
};

/** What one delivery answers: the stored original, or a variant made once and kept in storage. */
export interface DeliveryPlan {
  /** The storage key of the bytes to serve. */
  key: string;
  contentType: string;
  etag: string;
  /** Set for a variant: how to make it from the original. */
  transform?: Transform;
}

// How long a lookup is trusted. This instance forgets a file at once when one of its image
// records changes; other instances through the cache bus (REDIS_URL), else within this time.
const LOOKUP_TTL_MS = 10_000;
const MISS_TTL_MS = 2_000;

const etagOf = (key: string) => `"${createHash('sha256').update(key).digest('base64url').slice(0, 27)}"`;

export function createAssetDelivery(deps: { db: Db; repo: AssetsRepository; storage: Storage; limiter: Limiter; logger: Logger; publicBaseUrl?: string | undefined; cacheBus?: CacheBus }) {
  const { db, repo, storage, limiter, logger } = deps;
  // An unknown key is remembered too (false), for less time than a known one.
  const lookups = new LoadingCache<string, DeliverableFile | false>({
    entries: 10_000,
    ttl: LOOKUP_TTL_MS,
    ttlOf: (file) => (file ? LOOKUP_TTL_MS : MISS_TTL_MS),
    load: async (fileKey) => {
      const parsed = parseFileKey(fileKey);
      return (parsed && (await repo.deliverable(db, parsed.mediaId, fileKey))) || false;
    },
  });
  const forgetLookup = (deps.cacheBus ?? createCacheBus()).channel('asset-files', lookups);
  // One render per variant however many requests ask for it at once.
  const rendering = new Map<string, Promise<Buffer>>();

  const renderVariant = async (file: DeliverableFile, plan: DeliveryPlan & { transform: Transform }): Promise<Buffer> => {
    // The original is read inside the limiter too: a queue of renders holds no image in memory.
    const bytes = await limiter.run(async () => {
      const original = await storage.get(originalKey(file));
      if (!original) throw new Error(`the original of ${plan.key} is missing from storage`);
      return render(original, plan.transform, file.gravity);
    });
    try {
      await storage.put(plan.key, bytes, plan.contentType);
    } catch (err) {
      // The answer is still good; the next request renders it again.
      logger.warn({ err: { message: (err as Error).message }, key: plan.key }, 'could not store an image variant');
    }
    return bytes;
  };

  return {
    /** The public URL of a file: what visuals point at. */
    urlOf: (fileKey: string, query = '') => `${deps.publicBaseUrl ?? ''}/assets/${fileKey}${query ? `?${query}` : ''}`,

    /** Drops what this instance knows of a file, after one of its image records changed. */
    forget(fileKey: string): void {
      forgetLookup(fileKey);
    },

    /** The file behind a key while a live image record uses it; 404 otherwise. */
    async resolve(fileKey: string): Promise<DeliverableFile> {
      const file = await lookups.get(fileKey);
      if (!file) throw coreErrors.assetImageNotFound();
      return file;
    },

    /**
     * The answer's key, type and ETag. Asked for nothing it can change, it is the original;
     * otherwise a variant whose key spells out the normalised parameters (and the gravity,
     * when it crops), so equal requests share one stored rendition.
     */
    plan(file: DeliverableFile, query: DeliveryQuery): DeliveryPlan {
      const original = FORMAT_OF[file.contentType]!;
      const format = query.format ?? original;
      const { w, h } = query;
      const q = format === 'jpeg' || format === 'webp' || format === 'avif' ? query.q : undefined;
      if (w === undefined && h === undefined && format === original && q === undefined) {
        const key = originalKey(file);
        return { key, contentType: file.contentType, etag: etagOf(key) };
      }
      const fit = w !== undefined && h !== undefined ? (query.fit ?? 'cover') : 'inside';
      const anchor = fit === 'cover' ? file.gravity : 'any';
      const key = `variants/${file.mediaId}/${file.fileHash}/${w ?? 0}x${h ?? 0}-${fit}-${anchor}-q${q ?? 0}.${format}`;
      return { key, contentType: CONTENT_TYPES[format], etag: etagOf(key), transform: { w, h, fit, format, q } };
    },

    /** The original's bytes as a stream. */
    async original(file: DeliverableFile) {
      const opened = await storage.open(originalKey(file));
      if (!opened) throw new Error(`the original ${originalKey(file)} is missing from storage`);
      return opened;
    },

    /**
     * A variant's bytes: from storage when made before, else rendered under the concurrency
     * limit, stored, and answered. `admit` runs first for a request that makes one (the
     * transform rate limit); requests that join a render under way or hit storage skip it.
     */
    async variant(file: DeliverableFile, plan: DeliveryPlan & { transform: Transform }, admit: () => Promise<unknown>): Promise<Buffer> {
      const stored = await storage.get(plan.key);
      if (stored) return stored;
      if (!rendering.has(plan.key)) await admit();
      let pending = rendering.get(plan.key);
      if (!pending) {
        pending = renderVariant(file, plan).finally(() => rendering.delete(plan.key));
        rendering.set(plan.key, pending);
      }
      return pending;
    },

    /** Renders in progress or waiting (for tests and metrics). */
    get load() {
      return { running: limiter.running, waiting: limiter.waiting };
    },
  };
}

export type AssetDelivery = ReturnType<typeof createAssetDelivery>;
