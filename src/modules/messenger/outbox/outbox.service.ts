import type { Logger } from 'pino';
import type { Db, Executor } from '../../../db/client.js';
import type { RequestContext } from '../../../shared/context.js';
import type { MailTransport } from '../mailer/mail-transport.js';
import { messengerErrors } from '../messenger.errors.js';
import { messageIdOf } from './outbox.mappers.js';
import type { ClaimedMessage, OutboxRepository } from './outbox.repository.js';
import type { OutboxQuery } from './outbox.schemas.js';

export interface Personalise {
  /** A newsletter message's own footer and List-Unsubscribe headers, from its subscription. */
  (message: ClaimedMessage): { html: string; text: string; headers: Record<string, string> };
}

export interface OutboxOptions {
  /** The database the send run works on: a job's, in no request's transaction. */
  db: Db;
  repo: OutboxRepository;
  logger: Logger;
  /** Absent: no SMTP_URL, messages are kept as `not_sent`. */
  transport: MailTransport | undefined;
  /** The domain of Message-IDs (MAIL_FROM's). */
  domain: string;
  personalise: Personalise;
  /** How long a claim holds before another run may retry the message (MAIL_LEASE_SECONDS). */
  leaseSeconds: number;
  /** Messages sent at once. */
  concurrency?: number;
  maxAttempts?: number;
}

/**
 * The outbox: every message is a row, and its state is the truth of what went out. A send run
 * claims due rows (`for update skip locked`, with a lease), marks them `sending` in that claim,
 * sends each, and records the batch `sent` at once: a run stopped in between leaves its rows `sending`
 * until the lease lapses, and only those (at most one batch) are sent again, with the same
 * Message-ID. A row never goes back to `queued` by itself, so nothing is sent twice in any
 * other case, and nothing is lost.
 */
export function createOutboxService(options: OutboxOptions) {
  const { db, repo, transport, logger } = options;
  const concurrency = options.concurrency ?? 8;
  const maxAttempts = options.maxAttempts ?? 5;
  let stopping = false;
  let running: Promise<Date | undefined> | undefined;

  /** Sends one claimed message; answers true when it went out (recorded with its batch), else records why not. */
  const sendOne = async (message: ClaimedMessage): Promise<boolean> => {
    if (message.kind === 'newsletter' && message.subscription_status !== 'subscribed') {
      await repo.settle(db, message.id, message.attempts, { state: 'cancelled' });
      return false;
    }
    if (!transport) {
      await repo.settle(db, message.id, message.attempts, { state: 'not_sent' });
      return false;
    }
    const own = message.kind === 'newsletter' ? options.personalise(message) : undefined;
    try {
      await transport.send({
        to: message.recipients,
        subject: message.subject,
        html: own?.html ?? message.html,
        text: own?.text ?? message.text,
        messageId: messageIdOf(message.id, options.domain),
        headers: { ...message.headers, ...own?.headers },
      });
      return true;
    } catch (err) {
      const error = err instanceof Error ? err.message.slice(0, 500) : 'send failed';
      logger.warn({ outboxId: message.id, attempts: message.attempts, err: { message: error } }, 'mail send failed');
      if (message.attempts >= maxAttempts) await repo.settle(db, message.id, message.attempts, { state: 'failed' }, error);
      else await repo.settle(db, message.id, message.attempts, { state: 'queued', retryInSeconds: 30 * 2 ** (message.attempts - 1), error });
      return false;
    }
  };

  /** Sends until nothing is due; answers when the next row falls due. */
  const drain = async (): Promise<Date | undefined> => {
    while (!stopping) {
      const batch = await repo.claim(db, concurrency, options.leaseSeconds);
      if (batch.length === 0) break;
      const outcomes = await Promise.all(batch.map(sendOne));
      // The batch's sent messages in one statement: a stop before it leaves them `sending` under
      // their lease, like every claimed message, so the window stays one batch.
      await repo.settleSent(db, batch.filter((_, i) => outcomes[i]).map((m) => ({ id: m.id, attempts: m.attempts })));
    }
    return stopping ? undefined : repo.nextDue(db);
  };

  return {
    list: (ctx: RequestContext, query: OutboxQuery) => repo.list(ctx.db, ctx.mediaId, query),

    async get(ctx: RequestContext, id: string) {
      const row = await repo.find(ctx.db, ctx.mediaId, id);
      if (!row) throw messengerErrors.outboxMessageNotFound();
      return row;
    },

    /** Queues one message (a confirmation, a mailer message) in the caller's transaction. */
    enqueue: (executor: Executor, values: Parameters<OutboxRepository['insert']>[1]) => repo.insert(executor, values),

    hasPending: () => repo.hasPending(db),
    fanOut: repo.fanOut,
    countConfirmations: repo.countConfirmations,
    markDelivery: repo.markDelivery,
    countsByNewsletter: repo.countsByNewsletter,

    /** One send run; runs in one instance do not overlap (a second call joins the first). */
    run(): Promise<Date | undefined> {
      running ??= drain().finally(() => {
        running = undefined;
      });
      return running;
    },

    /** Stops claiming; the batch in flight is finished and recorded. */
    async stop(): Promise<void> {
      stopping = true;
      await running?.catch(() => undefined);
      transport?.close();
    },
  };
}

export type OutboxService = ReturnType<typeof createOutboxService>;
