import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { one } from '../../../shared/envelopes.js';
import { backofficeResource } from '../../../shared/http/resource.js';
import { route } from '../../../shared/http/route.js';
import { dataOf, idParams } from '../../../shared/schemas.js';
import { messengerTags } from '../messenger.tags.js';
import { toSubscription } from './subscriptions.mappers.js';
import { bulkBody, bulkResultSchema, subscriptionSchema, subscriptionsQuery } from './subscriptions.schemas.js';
import type { SubscriptionsService } from './subscriptions.service.js';

/** /messenger/v2/mailing-lists/{id}/subscriptions: the list's addresses, and their bulk import. */
export const subscriptionsBackofficeRoutes: FastifyPluginAsyncZod<{ subscriptions: SubscriptionsService }> = async (app, { subscriptions }) => {
  const tag = messengerTags.subscriptions;
  const resource = backofficeResource(app, {
    path: '/subscriptions',
    kind: 'subscription',
    names: { one: 'Subscription', many: 'Subscriptions' },
    tag,
    item: subscriptionSchema,
    map: toSubscription,
    read: 'messenger:read',
    write: 'messenger:write',
  });

  resource.listUnder(
    {
      url: '/mailing-lists/:id/subscriptions',
      operationId: 'listMailingListSubscriptions',
      summary: 'Subscriptions of a mailing list',
      description: 'Newest first; `status` keeps those in one state.',
      querystring: subscriptionsQuery,
    },
    subscriptions.listByList,
  );

  route(app, {
    method: 'POST',
    url: '/mailing-lists/:id/subscriptions/bulk',
    operationId: 'bulkMailingListSubscriptions',
    record: { kind: 'mailing_list' },
    summary: 'Import subscriptions (upsert, up to 1,000)',
    description:
      'Creates new addresses and updates known ones (status, locale); `status` is `subscribed` by default: the editor vouches for the consent of imported addresses. ' +
      'An address that unsubscribed, bounced or complained is never re-subscribed. Invalid and repeated addresses are refused, each with its reason; the rest is written in one transaction.',
    tag,
    access: { permission: 'messenger:write' },
    params: idParams,
    body: bulkBody,
    response: { 200: dataOf(bulkResultSchema) },
    handler: async (ctx, { params, body }) => one(await subscriptions.bulk(ctx, params.id, body)),
  });
};
