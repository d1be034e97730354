import { diskStorage } from './disk.js';
import { type S3Options, s3Storage } from './s3.js';
import type { Storage } from './storage.js';

export type { Storage } from './storage.js';
export type { S3Options } from './s3.js';
export { diskStorage, s3Storage };

export interface StorageOptions {
  /** STORAGE_DIR: used unless `s3` is set. */
  dir: string;
  s3?: S3Options | undefined;
}

/** The configured driver: S3 when a bucket is set, the local directory otherwise. */
export const createStorage = (options: StorageOptions): Storage => (options.s3 ? s3Storage(options.s3) : diskStorage(options.dir));
