import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { one } from '../../shared/envelopes.js';
import { publicTwin, successorOf } from '../../shared/http/public.js';
import { route } from '../../shared/http/route.js';
import { dataOf, idParams, isoTimestamp, uuid } from '../../shared/schemas.js';
import { iso, isoOrNull } from '../../shared/time.js';
import { messengerTags } from './messenger.tags.js';
import type { SubscriptionRow } from './subscriptions/subscriptions.repository.js';
import { SUBSCRIPTION_STATUSES } from './subscriptions/subscriptions.schemas.js';
import type { SubscriptionsService } from './subscriptions/subscriptions.service.js';

/** What the Public interface tells of a subscription: its state, never the address or the reader. */
const publicSubscriptionSchema = z
  .object({
    id: uuid,
    mailing_list_id: uuid,
    status: z.enum(SUBSCRIPTION_STATUSES),
    confirmed_at: isoTimestamp.nullable(),
    updated_at: isoTimestamp,
  })
  .meta({ id: 'PublicSubscriptionStatus' });

const toPublicSubscription = (row: SubscriptionRow) => ({
  id: row.id,
  mailing_list_id: row.mailingListId,
  status: row.status as (typeof SUBSCRIPTION_STATUSES)[number],
  confirmed_at: isoOrNull(row.confirmedAt),
  updated_at: iso(row.updatedAt),
});

/** Messenger's deprecated Public routes under /api/public/messenger/v2: mailing lists and a subscription's state. */
export const messengerPublicRoutes: FastifyPluginAsyncZod<{ subscriptions: SubscriptionsService }> = async (app, { subscriptions }) => {
  const tag = messengerTags.public;
  publicTwin(app, {
    reader: 'readerListMailingLists',
    url: '/messenger/v2/medias/:media_id/mailing-lists',
    operationId: 'publicListMailingLists',
    media: 'path',
    tag,
  });

  route(app, {
    method: 'GET',
    url: '/messenger/v2/subscriptions/:id',
    operationId: 'publicGetSubscriptionStatus',
    serves: 'subscription',
    primary: true,
    summary: 'Subscription status',
    description:
      "Deprecated: use the Reader operation GET /api/media/v1/newsletter/subscriptions (a signed-in reader's own subscriptions). " +
      'The state of one subscription, for the confirmation pages of legacy sites: never its address.',
    tag,
    access: { anonymous: true },
    params: idParams,
    config: { successor: successorOf(app, 'readerListSubscriptions'), publicMedia: { param: 'id', of: subscriptions.mediaOf } },
    response: { 200: dataOf(publicSubscriptionSchema) },
    handler: async (ctx, { params }) => one(toPublicSubscription(await subscriptions.get(ctx, params.id))),
  });
};
