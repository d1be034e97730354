import type { Readable } from 'node:stream';
import type * as S3 from '@aws-sdk/client-s3';
import { type Storage, assertStorageKey } from './storage.js';

export interface S3Options {
  bucket: string;
  /** An S3-compatible endpoint (MinIO, R2, Ceph…); unset means AWS. */
  endpoint?: string | undefined;
  region: string;
  /** Both or neither; neither means the SDK's default chain (environment, instance role). */
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  /** Bucket in the path (`endpoint/bucket/key`), as most self-hosted stores need. */
  forcePathStyle: boolean;
}

const notFound = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
};

/** Objects in one bucket through the official AWS SDK; a PutObject is atomic by itself. */
export function s3Storage(options: S3Options): Storage {
  const connect = (s3: typeof S3) => {
    const client = new s3.S3Client({
      region: options.region,
      forcePathStyle: options.forcePathStyle,
      ...(options.endpoint && { endpoint: options.endpoint }),
      ...(options.accessKeyId &&
        options.secretAccessKey && { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }),
      // Checksums only where S3 requires them: several S3-compatible stores refuse the SDK's
      // newer default (a CRC trailer on every upload).
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    return { s3, client };
  };
  // The SDK is a large import: loaded on the first object, so that a start that stores nothing never pays for it.
  let sdk: Promise<ReturnType<typeof connect>> | undefined;
  const load = () => (sdk ??= import('@aws-sdk/client-s3').then(connect));
  const Bucket = options.bucket;

  const getObject = async (key: string) => {
    assertStorageKey(key);
    try {
      const { s3, client } = await load();
      return await client.send(new s3.GetObjectCommand({ Bucket, Key: key }));
    } catch (err) {
      if (notFound(err)) return undefined;
      throw err;
    }
  };

  return {
    kind: 's3',

    async put(key, bytes, contentType) {
      assertStorageKey(key);
      const { s3, client } = await load();
      await client.send(new s3.PutObjectCommand({ Bucket, Key: key, Body: bytes, ContentType: contentType, ContentLength: bytes.length }));
    },

    async get(key) {
      const object = await getObject(key);
      if (!object?.Body) return undefined;
      return Buffer.from(await object.Body.transformToByteArray());
    },

    async open(key) {
      const object = await getObject(key);
      if (!object?.Body) return undefined;
      return { stream: object.Body as Readable, size: object.ContentLength ?? 0 };
    },

    async delete(key) {
      assertStorageKey(key);
      const { s3, client } = await load();
      await client.send(new s3.DeleteObjectCommand({ Bucket, Key: key }));
    },

    close: async () => {
      if (sdk) (await sdk).client.destroy();
    },
  };
}
