/**
 * Bounded concurrency for CPU- or memory-heavy work (image decoding and resizing): at most
 * `concurrency` tasks run at once, up to `queue` more wait their turn in order, and past that
 * `busy()` is thrown at once instead of letting the backlog, and the memory it holds, grow.
 */
export interface Limiter {
  run<T>(task: () => Promise<T>): Promise<T>;
  readonly running: number;
  readonly waiting: number;
}

export function createLimiter(options: { concurrency: number; queue: number; busy: () => Error }): Limiter {
  const concurrency = Math.max(1, Math.floor(options.concurrency));
  let running = 0;
  const waiting: Array<() => void> = [];

  return {
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (running < concurrency) {
        running++;
      } else {
        if (waiting.length >= options.queue) throw options.busy();
        // A finishing task hands its slot over directly, so `running` stays counted.
        await new Promise<void>((resolve) => waiting.push(resolve));
      }
      try {
        return await task();
      } finally {
        const next = waiting.shift();
        if (next) next();
        else running--;
      }
    },
    get running() {
      return running;
    },
    get waiting() {
      return waiting.length;
    },
  };
}
