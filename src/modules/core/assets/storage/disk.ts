import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { InvalidStorageKeyError, type Storage, assertStorageKey } from './storage.js';

const missing = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * Files under one directory (STORAGE_DIR), created on the first write. A write goes to a
 * temporary file beside the target, is flushed to disk, then renamed over it: a crash leaves
 * the old file or the new one, never half of one.
 */
export function diskStorage(dir: string): Storage {
  const root = resolve(dir);
  const pathOf = (key: string) => {
    assertStorageKey(key);
    const path = join(root, ...key.split('/'));
    // Belt and braces: the key pattern already rules out leaving the root.
    if (!path.startsWith(root + sep)) throw new InvalidStorageKeyError(`key leaves the storage directory: ${key}`);
    return path;
  };

  return {
    kind: 'disk',

    async put(key, bytes) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      const temporary = `${path}.${randomBytes(8).toString('hex')}.tmp`;
      try {
        const handle = await open(temporary, 'wx');
        try {
          await handle.writeFile(bytes);
          await handle.sync();
        } finally {
          await handle.close();
        }
        await rename(temporary, path);
      } catch (err) {
        await unlink(temporary).catch(() => {});
        throw err;
      }
    },

    async get(key) {
      try {
        return await readFile(pathOf(key));
      } catch (err) {
        if (missing(err)) return undefined;
        throw err;
      }
    },

    async open(key) {
      let handle;
      try {
        handle = await open(pathOf(key), 'r');
      } catch (err) {
        if (missing(err)) return undefined;
        throw err;
      }
      try {
        const { size } = await handle.stat();
        return { stream: handle.createReadStream(), size };
      } catch (err) {
        await handle.close();
        throw err;
      }
    },

    async delete(key) {
      await unlink(pathOf(key)).catch((err: unknown) => {
        if (!missing(err)) throw err;
      });
    },

    close: async () => {},
  };
}
