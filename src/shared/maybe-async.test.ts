import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { andThen, checkHook } from './maybe-async.js';

/** Runs a hook as Fastify would, recording what it passed to done and whether it did so at once. */
function runHook(hook: ReturnType<typeof checkHook>) {
  const calls: Array<Error | undefined> = [];
  let settle!: () => void;
  const settled = new Promise<void>((resolve) => (settle = resolve));
  (hook as unknown as (req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => void)({} as FastifyRequest, {} as FastifyReply, (err?: Error) => {
    calls.push(err);
    settle();
  });
  const atOnce = [...calls];
  return { atOnce, settled: settled.then(() => calls) };
}

describe('andThen', () => {
  it('goes on at once with a value, and after a promise with what it resolves to', async () => {
    expect(andThen(2, (n) => n * 3)).toBe(6);
    const later = andThen(Promise.resolve(2), (n) => n * 3);
    expect(later).toBeInstanceOf(Promise);
    expect(await later).toBe(6);
  });

  it('lets a throw of the next step be a throw now, or a rejection later', async () => {
    expect(() => andThen(1, () => { throw new Error('now'); })).toThrow('now');
    await expect(andThen(Promise.resolve(1), () => { throw new Error('later'); })).rejects.toThrow('later');
  });
});

describe('checkHook', () => {
  it('calls done synchronously, without an error, when the check answered at once', async () => {
    const run = runHook(checkHook(() => undefined));
    expect(run.atOnce).toEqual([undefined]);
    expect(await run.settled).toEqual([undefined]);
  });

  it("hands a synchronous throw to done as the request's error", () => {
    const run = runHook(checkHook(() => { throw new Error('refused'); }));
    expect(run.atOnce).toHaveLength(1);
    expect(run.atOnce[0]?.message).toBe('refused');
  });

  it('waits for a promise, then calls done once: without an error, or with the rejection', async () => {
    const ok = runHook(checkHook(() => Promise.resolve()));
    expect(ok.atOnce).toEqual([]);
    expect(await ok.settled).toEqual([undefined]);

    const failed = runHook(checkHook(() => Promise.reject(new Error('database down'))));
    expect(failed.atOnce).toEqual([]);
    const calls = await failed.settled;
    expect(calls).toHaveLength(1);
    expect(calls[0]?.message).toBe('database down');
  });
});
