import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { HOOKED, scopedStorage } from './scoped-storage.js';

const tick = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));

describe('scopedStorage', () => {
  it('gives a run its store across awaits and timers, and none outside it', async () => {
    const storage = scopedStorage<{ n: number }>();
    const seen: Array<number | undefined> = [];
    const store = { n: 1 };
    const result = await storage.run(store, async () => {
      seen.push(storage.getStore()?.n);
      await tick(1);
      seen.push(storage.getStore()?.n);
      await new Promise<void>((resolve) => setImmediate(() => (seen.push(storage.getStore()?.n), resolve())));
      return 'done';
    });
    expect(result).toBe('done');
    expect(seen).toEqual([1, 1, 1]);
    expect(storage.getStore()).toBeUndefined();
  });

  it('keeps a run’s store while another run ends before it (the last one out turns it off)', async () => {
    const storage = scopedStorage<string>();
    let releaseA!: () => void;
    const a = storage.run('a', async () => {
      await new Promise<void>((resolve) => (releaseA = resolve));
      return storage.getStore();
    });
    let releaseB!: () => void;
    const seenByB: Array<string | undefined> = [];
    const b = storage.run('b', async () => {
      seenByB.push(storage.getStore());
      await new Promise<void>((resolve) => (releaseB = resolve));
      seenByB.push(storage.getStore());
      await tick(1);
      seenByB.push(storage.getStore());
    });
    releaseA();
    expect(await a).toBe('a');
    // A has settled; B is still under way and must still see its own store.
    await tick(1);
    releaseB();
    await b;
    expect(seenByB).toEqual(['b', 'b', 'b']);
    expect(storage.getStore()).toBeUndefined();
    // A new run after both sees its store again.
    expect(await storage.run('c', async () => (await tick(1), storage.getStore()))).toBe('c');
  });

  it('counts a run out when it throws or rejects, and passes the error on', async () => {
    const storage = scopedStorage<number>();
    expect(() =>
      storage.run(1, () => {
        throw new Error('sync');
      }),
    ).toThrow('sync');
    await expect(storage.run(2, async () => Promise.reject(new Error('async')))).rejects.toThrow('async');
    expect(storage.run(3, () => storage.getStore())).toBe(3);
    expect(await storage.run(4, async () => (await tick(1), storage.getStore()))).toBe(4);
  });

  it('exit hides the store from the synchronous part of its work', async () => {
    const storage = scopedStorage<number>();
    await storage.run(5, async () => {
      expect(storage.exit(() => storage.getStore())).toBeUndefined();
      expect(storage.getStore()).toBe(5);
    });
  });

  // In a process of its own: any other AsyncLocalStorage that a test file of this worker ran
  // (oidc-provider's, for one) keeps the hooks on for the whole process.
  it('turns the promise hooks off once no run is under way (Node 20 and 22; Node 24 has none)', async () => {
    const module = fileURLToPath(new URL('./scoped-storage.ts', import.meta.url));
    const script = `
      import { executionAsyncResource } from 'node:async_hooks';
      import { scopedStorage } from ${JSON.stringify(module)};
      // Inside a promise's reaction, the execution resource is the promise only while a promise hook tracks it.
      const tracked = () => new Promise((r) => setImmediate(r)).then(() => Promise.resolve().then(() => executionAsyncResource() instanceof Promise));
      const storage = scopedStorage();
      const out = { before: await tracked() };
      // Deferreds order the runs: the second ends, the hooks are checked, and only then the first ends.
      let releaseFirst, releaseSecond;
      const firstHeld = new Promise((r) => (releaseFirst = r));
      const secondHeld = new Promise((r) => (releaseSecond = r));
      const first = storage.run(1, async () => { out.during = await tracked(); await firstHeld; });
      const second = storage.run(2, async () => { await secondHeld; });
      releaseSecond();
      await second;
      out.whileFirstRuns = await tracked();
      releaseFirst();
      await first;
      out.after = await tracked();
      await storage.run(3, async () => { out.again = await tracked(); });
      out.afterAgain = await tracked();
      console.log(JSON.stringify(out));
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { timeout: 20_000 });
    expect(JSON.parse(stdout)).toEqual({
      before: false,
      during: HOOKED,
      whileFirstRuns: HOOKED,
      after: false,
      again: HOOKED,
      afterAgain: false,
    });
  });
});
