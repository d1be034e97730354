import type { LocaleFallback } from '../../shared/http/reader.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.js';
import type { RequestContext } from '../../shared/context.js';
import type { Paginator } from '../../shared/paging.js';
import { recordBackofficeRoutes } from '../../shared/record/index.js';
import { mailEventsBackofficeRoutes } from './mail-events/mail-events.backoffice.routes.js';
import { createMailEventsService } from './mail-events/mail-events.service.js';
import { type MailTransport, smtpTransport } from './mailer/mail-transport.js';
import { messengerPublicRoutes as publicRoutes } from './messenger.public.routes.js';
import { mailerReaderRoutes } from './mailer/mailer.reader.routes.js';
import { createMailerService } from './mailer/mailer.service.js';
import { mailingListsReaderRoutes } from './mailing-lists/mailing-lists.reader.routes.js';
import { createMailingListsService, mailingListRecord } from './mailing-lists/mailing-lists.record.js';
import { esc, mailLinks } from './messenger.render.js';
import { createTokenSigner } from './messenger.tokens.js';
import { newslettersBackofficeRoutes } from './newsletters/newsletters.backoffice.routes.js';
import { createNewslettersRepository } from './newsletters/newsletters.repository.js';
import { type PublishedContent, createNewslettersService } from './newsletters/newsletters.service.js';
import { outboxBackofficeRoutes } from './outbox/outbox.backoffice.routes.js';
import { outboxMappers } from './outbox/outbox.mappers.js';
import { createOutboxRepository } from './outbox/outbox.repository.js';
import { createOutboxService } from './outbox/outbox.service.js';
import type { JobRunner } from '../../db/job-queue.js';
import { createSendQueue } from './queue/send-queue.js';
import { subscriptionsBackofficeRoutes } from './subscriptions/subscriptions.backoffice.routes.js';
import { subscriptionsReaderRoutes } from './subscriptions/subscriptions.reader.routes.js';
import { createSubscriptionsRepository } from './subscriptions/subscriptions.repository.js';
import { createSubscriptionsService } from './subscriptions/subscriptions.service.js';

export type { MailTransport } from './mailer/mail-transport.js';

export interface MessengerOptions {
  db: Db;
  /** The key of the unsubscribe and confirmation links' tokens, the same on every instance. */
  tokenKey: Buffer;
  pager: Paginator;
  logger: Logger;
  /** The app's job runner: the send queue is one of its queues. */
  jobs: JobRunner;
  core: {
    /** 400 when a locale is not one of the media's. */
    assertLocales: (ctx: RequestContext, entries: Array<{ locale: string }>) => Promise<void>;
    fallbackOf: (ctx: RequestContext) => Promise<LocaleFallback>;
  };
  /** docs' rendering of a published content. */
  publishedContent: (ctx: RequestContext, id: string, locale: string | undefined, fallback: LocaleFallback) => Promise<PublishedContent>;
  /** SMTP_URL; unset: messages are rendered and kept as `not_sent`. */
  smtpUrl?: string | undefined;
  /** MAIL_FROM: the sender of every message. */
  mailFrom: string;
  /** The origin of links in mails (PUBLIC_BASE_URL). */
  publicBaseUrl: string;
  /** MAIL_LEASE_SECONDS: how long a message being sent is held before another run may retry it. */
  leaseSeconds: number;
  /** A transport of the caller's (tests, bench) instead of SMTP_URL's. */
  transport?: MailTransport;
}

/** The address part of `Name <a@b>` or `a@b`, and its domain (for Message-IDs). */
const domainOf = (from: string) => (/<([^>]+)>/.exec(from)?.[1] ?? from).split('@').at(-1)!.trim() || 'localhost';

export async function createMessengerServices(options: MessengerOptions) {
  const { db, pager, logger } = options;
  const tokens = createTokenSigner(options.tokenKey);
  const links = mailLinks(options.publicBaseUrl);
  const domain = domainOf(options.mailFrom);
  const transport = options.transport ?? (options.smtpUrl ? smtpTransport(options.smtpUrl, options.mailFrom) : undefined);

  // Filled once the subscriptions service exists: a newsletter's copy carries its subscription's unsubscribe link.
  let unsubscribeToken: (subscriptionId: string) => string = () => '';
  const outbox = createOutboxService({
    db,
    repo: createOutboxRepository(pager),
    logger,
    transport,
    domain,
    leaseSeconds: options.leaseSeconds,
    personalise: (message) => {
      const url = links.unsubscribe(unsubscribeToken(message.subscription_id!));
      const footer = `<hr><p style="font-size:12px;color:#666">You receive this as ${esc(message.recipients[0]!)}. <a href="${esc(url)}">Unsubscribe</a></p>`;
      return {
        html: message.html.replace('</body>', `${footer}</body>`),
        text: `${message.text}\n\n--\nUnsubscribe: ${url}\n`,
        headers: { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
      };
    },
  });
  const queue = createSendQueue({ jobs: options.jobs, run: outbox.run, hasPending: outbox.hasPending });
  // The messages are committed before the kick: a kick that fails (the queue cannot start now) is
  // logged, and the next kick or start-up sends them.
  const kick = (ctx: RequestContext) => queue.kick(ctx).catch((err: unknown) => logger.warn({ err: { message: err instanceof Error ? err.message : String(err) } }, 'send queue kick failed'));

  const mailingLists = createMailingListsService({ db, pager, assertLocales: options.core.assertLocales, live: {} });
  const subscriptions = createSubscriptionsService({ db, repo: createSubscriptionsRepository(pager), mailingLists, outbox, tokens, links, kick });
  unsubscribeToken = subscriptions.unsubscribeToken;
  const content = { publishedContent: options.publishedContent, fallbackOf: options.core.fallbackOf };
  const newsletters = createNewslettersService({ repo: createNewslettersRepository(pager), mailingLists, outbox, kick, ...content });

  return {
    mailingLists,
    subscriptions,
    newsletters,
    outbox,
    mailer: createMailerService({ outbox, kick, ...content }),
    mailEvents: createMailEventsService({ outbox, subscriptions }),
    mappers: outboxMappers(domain),
    tokens,
    queue,
    /** Stops claiming and finishes the batch in flight (the app's onClose, before the job runner stops). */
    stop: () => outbox.stop(),
  };
}

export type MessengerServices = Awaited<ReturnType<typeof createMessengerServices>>;

/** Every /messenger/v2 Backoffice route; `sunset`: when the deprecated mail events webhook stops answering (PUBLIC_API_SUNSET). */
export const messengerBackofficeRoutes: FastifyPluginAsyncZod<{ messenger: MessengerServices; sunset: Date }> = async (app, { messenger, sunset }) => {
  recordBackofficeRoutes(app, mailingListRecord, messenger.mailingLists);
  await app.register(subscriptionsBackofficeRoutes, { subscriptions: messenger.subscriptions });
  await app.register(newslettersBackofficeRoutes, { newsletters: messenger.newsletters });
  await app.register(outboxBackofficeRoutes, { outbox: messenger.outbox, mappers: messenger.mappers });
  await app.register(mailEventsBackofficeRoutes, { mailEvents: messenger.mailEvents, sunset });
};

/** Messenger's deprecated Public routes under /api/public. */
export const messengerPublicRoutes: FastifyPluginAsyncZod<{ messenger: MessengerServices }> = async (app, { messenger }) => {
  await app.register(publicRoutes, { subscriptions: messenger.subscriptions });
};

/** Messenger's Reader routes under /api/media/v1: newsletter and mailer. */
export const messengerReaderRoutes: FastifyPluginAsyncZod<{ messenger: MessengerServices }> = async (app, { messenger }) => {
  await app.register(mailingListsReaderRoutes, { mailingLists: messenger.mailingLists });
  await app.register(subscriptionsReaderRoutes, { subscriptions: messenger.subscriptions });
  await app.register(mailerReaderRoutes, { mailer: messenger.mailer, mappers: messenger.mappers });
};
