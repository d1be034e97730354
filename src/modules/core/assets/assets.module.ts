import { availableParallelism } from 'node:os';
import type { Logger } from 'pino';
import type { Db } from '../../../db/client.js';
import type { CacheBus } from '../../../shared/cache-bus.js';
import { createLimiter } from '../../../shared/limiter.js';
import type { Paginator } from '../../../shared/paging.js';
import { coreErrors } from '../core.errors.js';
import type { TenancyService } from '../tenancy/tenancy.service.js';
import { createAssetDelivery } from './assets.delivery.js';
import { createAssetsRepository } from './assets.repository.js';
import { type UploadLimits, createAssetsService } from './assets.service.js';
import { type StorageOptions, createStorage } from './storage/index.js';

export interface AssetsOptions {
  storage: StorageOptions;
  uploads: UploadLimits;
  /** PUBLIC_BASE_URL: the origin of delivery URLs. */
  publicBaseUrl?: string | undefined;
}

/** The defaults of the configuration (STORAGE_DIR, UPLOAD_LIMIT, READER_UPLOAD_LIMIT, RATE_LIMIT_READER_UPLOADS). */
export const DEFAULT_ASSETS_OPTIONS: AssetsOptions = {
  storage: { dir: './data/storage' },
  uploads: { upload: 20 * 1024 * 1024, readerUpload: 5 * 1024 * 1024, readerPerMinute: 10 },
};

// Decoding and resizing use every core through libvips' own threads: more at once would only
// queue inside it, holding each image's memory meanwhile.
const RENDER_CONCURRENCY = Math.max(2, availableParallelism());
const RENDER_QUEUE = 64;

/** Storage, the upload and image-record service, and delivery: wired once. */
export function createAssetServices(deps: { db: Db; pager: Paginator; logger: Logger; tenancy: TenancyService; options: AssetsOptions; cacheBus?: CacheBus }) {
  const { db, pager, logger, tenancy, options } = deps;
  const repo = createAssetsRepository(pager);
  const storage = createStorage(options.storage);
  const limiter = createLimiter({ concurrency: RENDER_CONCURRENCY, queue: RENDER_QUEUE, busy: coreErrors.transformsBusy });
  const delivery = createAssetDelivery({ db, repo, storage, limiter, logger, publicBaseUrl: options.publicBaseUrl, ...(deps.cacheBus && { cacheBus: deps.cacheBus }) });
  const assets = createAssetsService({ repo, storage, limiter, delivery, tenancy, uploads: options.uploads });
  return { assets, delivery, storage };
}
