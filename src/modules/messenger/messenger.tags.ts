import type { Tag } from '../../shared/http/route.js';

/** The OpenAPI tags of the messenger module's routes, each described once. */
export const messengerTags = {
  mailingLists: {
    name: 'Messenger: Mailing lists',
    description: 'Mailing lists of the media: names per language, offered to readers or not, double opt-in or not.',
  },
  subscriptions: {
    name: 'Messenger: Subscriptions',
    description: "The addresses of a mailing list and their state; bulk import that never re-subscribes a suppressed address.",
  },
  newsletters: {
    name: 'Messenger: Newsletters',
    description: 'A published content sent to every subscribed address of a list, through the durable send queue.',
  },
  outbox: { name: 'Messenger: Outbox', description: 'Every message sent or waiting, with its delivery state.' },
  mailEvents: {
    name: 'Messenger: Mail events (deprecated)',
    description: "Delivery notifications of the e-mail provider (SES through SNS): bounces and complaints suppress addresses.",
  },
  readerNewsletter: {
    name: 'Reader: Newsletter',
    description: 'Public mailing lists, subscribing with double opt-in, confirming, unsubscribing in one click (RFC 8058).',
  },
  public: {
    name: 'Public: Messenger (deprecated)',
    description: 'Mailing lists and the state of a subscription, for legacy sites: use the Reader newsletter operations instead.',
  },
  readerMailer: { name: 'Reader: Mailer', description: "One message from one of the media's templates, to at most 10 recipients." },
} satisfies Record<string, Tag>;
