import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Db } from '../../../db/client.js';

/** The queue of send runs; its jobs are kicks: each run drains the outbox (the outbox rows are the truth). */
export const SEND_QUEUE = 'messenger-outbox';

interface PgliteLike {
  query: (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;
  exec: (text: string) => Promise<Array<{ rows: unknown[] }>>;
}
interface PoolLike {
  query: (text: string, values?: unknown[]) => Promise<{ rows: unknown[] } | Array<{ rows: unknown[] }>>;
}

/**
 * pg-boss's `db` adapter over the application's own database, so that the queue lives in the
 * same database on PostgreSQL (the app's pool) and on embedded PGlite (its one connection,
 * whose queries PGlite runs one after another). pg-boss sends its schema migrations as one
 * text of several statements without parameters: PGlite runs those with `exec`.
 */
export function bossDb(db: Db): PgBoss.Db {
  const client = (db as unknown as { $client: PgliteLike | PoolLike }).$client;
  if ('exec' in client) {
    return {
      async executeSql(text, values) {
        if (values && values.length > 0) return { rows: (await client.query(text, values)).rows };
        const results = await client.exec(text);
        return { rows: results.at(-1)?.rows ?? [] };
      },
    };
  }
  return {
    async executeSql(text, values) {
      const result = await client.query(text, values);
      // Several statements in one text answer one result each; pg-boss reads the last.
      return { rows: Array.isArray(result) ? (result.at(-1)?.rows ?? []) : result.rows };
    },
  };
}

export interface SendQueueOptions {
  db: Db;
  logger: Logger;
  /** One send run: drains what is due; answers when the next row falls due (a retry, a lapsed lease), if any. */
  run: () => Promise<Date | undefined>;
  /** Whether messages wait to be sent (checked when the app is ready). */
  hasPending: () => Promise<boolean>;
}

/**
 * The durable send queue (pg-boss in the `pgboss` schema of the app's database): a kick is a
 * job; a worker in every instance runs the outbox's send run for it. Its lifecycle is the app's:
 * on ready it starts when messages wait (left by a stopped or crashed instance), otherwise with
 * the first message this instance queues, so that an instance (or a test) that sends nothing
 * runs no pollers; on close the run in flight finishes its batch, nothing new is claimed, and
 * pg-boss's timers and pollers end.
 */
export function createSendQueue(options: SendQueueOptions) {
  let boss: PgBoss | undefined;
  let starting: Promise<void> | undefined;
  let stopped = false;

  const send = async (at?: Date) => {
    if (!boss || stopped) return;
    await boss.send(SEND_QUEUE, {}, { retryLimit: 5, retryDelay: 5, retryBackoff: true, ...(at && { startAfter: at }) });
  };

  const start = (): Promise<void> => {
    starting ??= (async () => {
      const instance = new PgBoss({
        db: bossDb(options.db),
        schema: 'pgboss',
        // The send run itself retries messages; the queue only has to keep kicks durable.
        archiveCompletedAfterSeconds: 3600,
        deleteAfterDays: 2,
      });
      instance.on('error', (err: Error) => options.logger.warn({ err: { message: err.message } }, 'send queue error'));
      await instance.start();
      await instance.createQueue(SEND_QUEUE);
      boss = instance;
      // A batch of kicks is one run: kicks sent while a run is busy coalesce into the next.
      await instance.work(SEND_QUEUE, { batchSize: 20, pollingIntervalSeconds: 1 }, async () => {
        const next = await options.run();
        if (next) await send(next);
      });
      // Work left by a stopped or crashed instance (queued rows, lapsed leases) starts now.
      await send();
    })();
    return starting;
  };

  return {
    get started() {
      return boss !== undefined && !stopped;
    },

    /** The app's onReady: starts the queue when messages wait. */
    async ready(): Promise<void> {
      if (!stopped && (await options.hasPending())) await start();
    },

    /** Asks for a send run now (after a commit that queued messages), starting the queue if need be. */
    async kick(): Promise<void> {
      if (stopped) return;
      await start();
      await send();
    },

    async stop(): Promise<void> {
      if (stopped) return;
      stopped = true;
      await starting?.catch(() => undefined);
      await boss?.stop({ graceful: true, wait: true, timeout: 10_000, close: false });
    },
  };
}

export type SendQueue = ReturnType<typeof createSendQueue>;
