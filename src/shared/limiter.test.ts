import { describe, expect, it } from 'vitest';
import { createLimiter } from './limiter.js';

class Busy extends Error {}

/** A task that runs until its release() is called. */
function gate() {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  return { release, task: () => done };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('createLimiter', () => {
  it('runs at most `concurrency` tasks at once and starts the waiting ones in order', async () => {
    const limiter = createLimiter({ concurrency: 2, queue: 10, busy: () => new Busy() });
    const gates = [gate(), gate(), gate(), gate()];
    const started: number[] = [];
    const runs = gates.map((g, i) =>
      limiter.run(async () => {
        started.push(i);
        await g.task();
        return i;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    expect([limiter.running, limiter.waiting]).toEqual([2, 2]);

    gates[1]!.release();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    expect([limiter.running, limiter.waiting]).toEqual([2, 1]);

    for (const g of gates) g.release();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
    expect([limiter.running, limiter.waiting]).toEqual([0, 0]);
  });

  it('throws busy() at once when the queue is full, and frees the slot of a task that failed', async () => {
    const limiter = createLimiter({ concurrency: 1, queue: 1, busy: () => new Busy('busy') });
    const first = gate();
    const running = limiter.run(first.task);
    const queued = limiter.run(async () => 'queued');
    await expect(limiter.run(async () => 'refused')).rejects.toBeInstanceOf(Busy);
    first.release();
    await running;
    expect(await queued).toBe('queued');

    await expect(limiter.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(limiter.running).toBe(0);
    expect(await limiter.run(async () => 'after')).toBe('after');
  });
});
