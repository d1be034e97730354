import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

const failure = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
  throw new Error(`expected a ConfigError for ${JSON.stringify(env)}`);
};

describe('the storage and upload configuration', () => {
  it('defaults to the local directory, 20 MB uploads, 5 MB reader uploads and 10 reader uploads a minute', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      storageDir: './data/storage',
      s3: undefined,
      uploadLimit: 20 * 1024 * 1024,
      readerUploadLimit: 5 * 1024 * 1024,
      readerUploadRateLimit: 10,
    });
  });

  it('reads the S3 variables, with us-east-1 and virtual-hosted style unless told otherwise', () => {
    expect(loadConfig({ S3_BUCKET: 'media-files' }).s3).toEqual({
      bucket: 'media-files',
      endpoint: undefined,
      region: 'us-east-1',
      accessKeyId: undefined,
      secretAccessKey: undefined,
      forcePathStyle: false,
    });
    const config = loadConfig({
      S3_BUCKET: 'media-files',
      S3_ENDPOINT: 'http://minio:9000',
      S3_REGION: 'eu-central-1',
      S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'true',
      UPLOAD_LIMIT: '1048576',
      READER_UPLOAD_LIMIT: '262144',
      RATE_LIMIT_READER_UPLOADS: '3',
    });
    expect(config.s3).toEqual({
      bucket: 'media-files',
      endpoint: 'http://minio:9000',
      region: 'eu-central-1',
      accessKeyId: 'AKIAEXAMPLE',
      secretAccessKey: 'secret',
      forcePathStyle: true,
    });
    expect([config.uploadLimit, config.readerUploadLimit, config.readerUploadRateLimit]).toEqual([1048576, 262144, 3]);
  });

  it.each([
    [{ UPLOAD_LIMIT: '20MB' }, 'UPLOAD_LIMIT'],
    [{ UPLOAD_LIMIT: '0' }, 'UPLOAD_LIMIT'],
    [{ READER_UPLOAD_LIMIT: '-1' }, 'READER_UPLOAD_LIMIT'],
    [{ UPLOAD_LIMIT: String(2 * 1024 ** 3) }, 'UPLOAD_LIMIT'],
    [{ RATE_LIMIT_READER_UPLOADS: '0' }, 'RATE_LIMIT_READER_UPLOADS'],
    [{ S3_BUCKET: 'Not_A_Bucket' }, 'S3_BUCKET'],
    [{ S3_BUCKET: 'bk1', S3_ENDPOINT: 'minio:9000' }, 'S3_ENDPOINT'],
    [{ S3_BUCKET: 'bk1', S3_REGION: 'EU West' }, 'S3_REGION'],
    [{ S3_BUCKET: 'bk1', S3_FORCE_PATH_STYLE: 'yes' }, 'S3_FORCE_PATH_STYLE'],
    [{ S3_ENDPOINT: 'http://minio:9000' }, 'S3_ENDPOINT'],
    [{ S3_BUCKET: 'bk1', S3_ACCESS_KEY_ID: 'id-only' }, 'S3_ACCESS_KEY_ID'],
  ])('fails fast on %j with one line naming %s', (env, name) => {
    const message = failure(env);
    expect(message).toMatch(/^Invalid configuration: /);
    expect(message).not.toContain('\n');
    expect(message).toContain(name);
  });

  it('does not echo a secret access key', () => {
    expect(failure({ S3_BUCKET: 'bk1', S3_SECRET_ACCESS_KEY: 'hunter2-secret' })).not.toContain('hunter2-secret');
  });
});
