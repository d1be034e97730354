import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Db } from './client.js';
import type { RequestContext } from '../shared/context.js';

interface PgliteLike {
  query: (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;
  exec: (text: string) => Promise<Array<{ rows: unknown[] }>>;
}
interface PoolLike {
  query: (text: string, values?: unknown[]) => Promise<{ rows: unknown[] } | Array<{ rows: unknown[] }>>;
}

/** Keeps `work` in `set` until it settles (what a stop must wait for); answers `work` itself. */
function track<T>(set: Set<Promise<T>>, work: Promise<T>): Promise<T> {
  set.add(work);
  const done = () => void set.delete(work);
  work.then(done, done);
  return work;
}

/**
 * pg-boss's `db` adapter over the application's own database, so that the queue lives in the
 * same database on PostgreSQL (the app's pool) and on embedded PGlite (its one connection,
 * whose queries PGlite runs one after another). pg-boss sends its schema migrations as one
 * text of several statements without parameters: PGlite runs those with `exec`. `settled`
 * waits for the statements in flight: pg-boss marks a finished job complete or failed without
 * awaiting it, so its stop can resolve with that statement still running.
 */
export function bossDb(db: Db): PgBoss.Db & { settled: () => Promise<void>; readonly idle: boolean } {
  const client = (db as unknown as { $client: PgliteLike | PoolLike }).$client;
  const run =
    'exec' in client
      ? async (text: string, values?: unknown[]) => {
          if (values && values.length > 0) return { rows: (await client.query(text, values)).rows };
          const results = await client.exec(text);
          return { rows: results.at(-1)?.rows ?? [] };
        }
      : async (text: string, values?: unknown[]) => {
          const result = await client.query(text, values);
          // Several statements in one text answer one result each; pg-boss reads the last.
          return { rows: Array.isArray(result) ? (result.at(-1)?.rows ?? []) : result.rows };
        };
  const inFlight = new Set<Promise<{ rows: unknown[] }>>();
  return {
    executeSql: (text, values) => track(inFlight, run(text, values)),
    async settled() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    get idle() {
      return inFlight.size === 0;
    },
  };
}

/** One queue of the runner: its work, how it retries and batches, and whether work waits for it. */
export interface QueueDef<T extends object> {
  /** A batch of jobs' data; a throw lets pg-boss retry those jobs (a crash, the database away). */
  work: (jobs: T[]) => Promise<void>;
  /** Whether work waits (left by a stopped or crashed instance): checked when the app is ready. */
  hasPending: () => Promise<boolean>;
  batchSize?: number;
  pollingIntervalSeconds?: number;
  retry?: Pick<PgBoss.SendOptions, 'retryLimit' | 'retryDelay' | 'retryBackoff'>;
  /** Runs once the runner has started (a kick for work left behind). */
  onStart?: () => Promise<void>;
  /** A cron expression (UTC): pg-boss then queues a job on that schedule while the runner runs. */
  cron?: string;
}

/**
 * The app's one pg-boss (the `pgboss` schema of its own database), shared by every module's
 * queue: started on ready when some queue has work waiting, else with the first job sent (an
 * instance or a test that queues nothing runs no pollers); stopped before the database closes,
 * the jobs in flight finished, nothing new claimed.
 */
export function createJobRunner(deps: { db: Db; logger: Logger }) {
  const defs = new Map<string, QueueDef<object>>();
  const workers = new Map<string, string>();
  let boss: PgBoss | undefined;
  const adapter = bossDb(deps.db);
  let starting: Promise<void> | undefined;
  let stopped = false;
  /** Sends under way: stop waits for them, so that none reaches the database after it closed. */
  const sending = new Set<Promise<void>>();
  /** Batches being worked: pg-boss may still hand one over that it fetched as it stopped. */
  const working = new Set<Promise<void>>();

  const start = (): Promise<void> => {
    starting ??= (async () => {
      // Loaded here, with the runner's start: an instance whose queues stay empty never loads it.
      const { default: Boss } = await import('pg-boss');
      const instance = new Boss({ db: adapter, schema: 'pgboss', archiveCompletedAfterSeconds: 3600, deleteAfterDays: 2 });
      instance.on('error', (err: Error) => deps.logger.warn({ err: { message: err.message } }, 'job queue error'));
      await instance.start();
      boss = instance;
      for (const [name, def] of defs) {
        await instance.createQueue(name);
        const options = { batchSize: def.batchSize ?? 10, pollingIntervalSeconds: def.pollingIntervalSeconds ?? 0.5 };
        // A batch handed over once the runner stops fails (pg-boss retries it at the next start).
        const work = (jobs: Array<{ data: object }>) =>
          stopped ? Promise.reject(new Error('the job runner is stopping')) : track(working, def.work(jobs.map((job) => job.data)));
        workers.set(name, await instance.work<object>(name, options, work));
        if (def.cron) await instance.schedule(name, def.cron, {}, { tz: 'UTC' });
      }
      for (const def of defs.values()) await def.onStart?.();
    })();
    return starting;
  };

  return {
    get started() {
      return boss !== undefined && !stopped;
    },

    /** Declares a queue (before the app is ready); its `send` queues one job, at `at` or now. */
    queue<T extends object>(name: string, def: QueueDef<T>) {
      defs.set(name, def as unknown as QueueDef<object>);
      // A job asked for once the runner stops is not queued: its row waits (hasPending) for the next start.
      const sendNow = (data: T, at?: Date): Promise<void> => {
        if (stopped) return Promise.resolve();
        const sent = (async () => {
          if (!boss) await start();
          await boss!.send(name, data, { ...def.retry, ...(at && { startAfter: at }) });
          const worker = workers.get(name);
          if (!at && worker) boss!.notifyWorker(worker);
        })();
        return track(sending, sent);
      };
      return {
        /**
         * Queues one job, at `at` or now. Given the context of a transaction (`ctx.tx`), the job is
         * queued once it commits, and not at all when it rolls back: a job for a row the
         * transaction wrote must not run before the row is visible.
         */
        async send(data: T, options: { at?: Date | undefined; ctx?: RequestContext } = {}): Promise<void> {
          const queued = () =>
            sendNow(data, options.at).catch((err: unknown) =>
              deps.logger.warn({ err: { message: err instanceof Error ? err.message : String(err) }, queue: name }, 'job not queued'),
            );
          if (options.ctx?.tx) return void options.ctx.tx.afterCommit.push(() => void queued());
          await sendNow(data, options.at);
        },
      };
    },

    /** The app's onReady: starts when some queue has work waiting. */
    async ready(): Promise<void> {
      for (const def of defs.values()) {
        if (stopped) return;
        if (await def.hasPending()) return start();
      }
    },

    async stop(): Promise<void> {
      if (stopped) return;
      stopped = true;
      await starting?.catch(() => undefined);
      await Promise.allSettled([...sending]);
      await boss?.stop({ graceful: true, wait: true, timeout: 10_000, close: false });
      // What pg-boss still does after its stop resolved (a batch fetched as it stopped, the complete
      // or fail it sends without awaiting) finishes before the database may close.
      do {
        await Promise.allSettled([...working]);
        await adapter.settled();
        await new Promise((resolve) => setImmediate(resolve));
      } while (working.size > 0 || !adapter.idle);
    },
  };
}

export type JobRunner = ReturnType<typeof createJobRunner>;
