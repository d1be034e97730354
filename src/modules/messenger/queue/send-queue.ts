import type { JobRunner } from '../../../db/job-queue.js';
import type { RequestContext } from '../../../shared/context.js';

/** The queue of send runs; its jobs are kicks: each run drains the outbox (the outbox rows are the truth). */
export const SEND_QUEUE = 'messenger-outbox';

export interface SendQueueOptions {
  /** The app's job runner (one pg-boss for every module). */
  jobs: JobRunner;
  /** One send run: drains what is due; answers when the next row falls due (a retry, a lapsed lease), if any. */
  run: () => Promise<Date | undefined>;
  /** Whether messages wait to be sent (checked when the app is ready). */
  hasPending: () => Promise<boolean>;
}

/**
 * The durable send queue, a queue of the app's job runner: a kick is a job; a worker in every
 * instance runs the outbox's send run for it. The runner starts on ready when messages wait
 * (left by a stopped or crashed instance), otherwise with the first kick, so that an instance
 * (or a test) that sends nothing runs no pollers; it stops with the app.
 */
export function createSendQueue(options: SendQueueOptions) {
  const queue: ReturnType<JobRunner['queue']> = options.jobs.queue<object>(SEND_QUEUE, {
    // A batch of kicks is one run: kicks sent while a run is busy coalesce into the next.
    batchSize: 20,
    pollingIntervalSeconds: 1,
    // The send run itself retries messages; the queue only has to keep kicks durable.
    retry: { retryLimit: 5, retryDelay: 5, retryBackoff: true },
    hasPending: options.hasPending,
    work: async () => {
      const next = await options.run();
      if (next) await queue.send({}, { at: next });
    },
    // Work left by a stopped or crashed instance (queued rows, lapsed leases) starts now.
    onStart: () => queue.send({}),
  });

  return {
    get started() {
      return options.jobs.started;
    },

    /**
     * Asks for a send run, starting the runner if need be: once the context's transaction (which
     * queued messages) has committed, or now when it is in none.
     */
    kick: (ctx: RequestContext): Promise<void> => queue.send({}, { ctx }),
  };
}

export type SendQueue = ReturnType<typeof createSendQueue>;
