import type { Readable } from 'node:stream';

/**
 * Where files live: a local directory or an S3-compatible bucket. Keys are made by the
 * service only (`originals/<media>/<hash>`); every driver refuses any other shape, so no
 * request path and no client file name can reach the file system or the bucket.
 */
export interface Storage {
  readonly kind: 'disk' | 's3';
  /** Stores the bytes under the key, whole or not at all (readers never see a partial file). */
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The bytes under the key; undefined when there are none. */
  get(key: string): Promise<Buffer | undefined>;
  /** The bytes as a stream with their length, for large files; undefined when there are none. */
  open(key: string): Promise<{ stream: Readable; size: number } | undefined>;
  delete(key: string): Promise<void>;
  close(): Promise<void>;
}

// Lowercase segments of letters and digits joined by single '.', '_' or '-', separated by '/':
// no '..', no empty or dot segment, no leading slash, no backslash.
const KEY = /^[a-z0-9]+(?:[._-][a-z0-9]+)*(?:\/[a-z0-9]+(?:[._-][a-z0-9]+)*)*$/;

export class InvalidStorageKeyError extends Error {}

export function assertStorageKey(key: string): void {
  if (key.length > 512 || !KEY.test(key)) throw new InvalidStorageKeyError(`not a storage key: ${JSON.stringify(key.slice(0, 80))}`);
}
