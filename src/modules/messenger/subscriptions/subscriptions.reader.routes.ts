import formbody from '@fastify/formbody';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { list, one } from '../../../shared/envelopes.js';
import { route } from '../../../shared/http/route.js';
import { dataOf, idParams, listOf, noContent, pagingQuery } from '../../../shared/schemas.js';
import { messengerTags } from '../messenger.tags.js';
import { toReaderSubscription } from './subscriptions.mappers.js';
import { readerSubscriptionSchema, subscribeAnswer, subscribeBody, tokenBody, tokenQuery } from './subscriptions.schemas.js';
import type { SubscriptionsService } from './subscriptions.service.js';

/** Subscribe requests a minute per IP (subscription bombing); the per-address limit is the service's. */
export const SUBSCRIBE_PER_IP = 20;

/** /api/media/v1/newsletter/subscriptions…: subscribe, confirm, the reader's own, one-click unsubscribe. */
export const subscriptionsReaderRoutes: FastifyPluginAsyncZod<{ subscriptions: SubscriptionsService }> = async (app, { subscriptions }) => {
  // RFC 8058: mail clients post `List-Unsubscribe=One-Click` form-encoded; only this plugin's routes read forms.
  await app.register(formbody, { bodyLimit: 1024 });
  const tag = messengerTags.readerNewsletter;

  route(app, {
    method: 'POST',
    url: '/newsletter/subscriptions',
    operationId: 'readerSubscribe',
    summary: 'Subscribe to a mailing list',
    description:
      "An anonymous form (a `media:read` application token) or a signed-in reader. A reader whose identity provider vouches for the address (email_verified) is subscribed at once; " +
      'otherwise a confirmation mail carries a signed link good for 48 hours and once. The answer never tells whether the address was on the list already. ' +
      `Rate limited per IP (${SUBSCRIBE_PER_IP} a minute) and per address (3 confirmation mails an hour).`,
    tag,
    access: { scope: 'media:read' },
    body: subscribeBody,
    response: { 202: dataOf(subscribeAnswer) },
    errors: [404],
    config: { rateLimit: { max: SUBSCRIBE_PER_IP, timeWindow: 60_000, keyGenerator: (req: { ip: string }) => `subscribe:${req.ip}` } },
    handler: async (ctx, { body }) => one(await subscriptions.subscribe(ctx, body)),
  });

  route(app, {
    method: 'POST',
    url: '/newsletter/subscriptions/confirm',
    operationId: 'readerConfirmSubscription',
    summary: 'Confirm a subscription (double opt-in)',
    description: 'The token of the confirmation mail; it confirms once, and only the latest one sent to the address. 400 invalid_token when forged, expired or used.',
    tag,
    access: { anonymous: true, mediaOptional: true },
    body: tokenBody,
    response: { 200: dataOf(readerSubscriptionSchema) },
    // The single-use token is its own idempotency key.
    idempotent: false,
    handler: async (ctx, { body }) => one(toReaderSubscription(await subscriptions.confirm(ctx, body.token))),
  });

  route(app, {
    method: 'POST',
    url: '/newsletter/unsubscribe',
    operationId: 'readerOneClickUnsubscribe',
    summary: 'One-click unsubscribe (RFC 8058)',
    description:
      "The List-Unsubscribe link of a newsletter: mail clients post `List-Unsubscribe=One-Click` to it. Needs no credentials but the signed token; idempotent.",
    tag,
    access: { anonymous: true, mediaOptional: true },
    querystring: tokenQuery,
    body: z.strictObject({ 'List-Unsubscribe': z.literal('One-Click').optional() }).nullish(),
    consumes: ['application/x-www-form-urlencoded', 'application/json'],
    response: { 200: dataOf(z.object({ status: z.literal('unsubscribed') }).meta({ id: 'UnsubscribeAnswer' })) },
    // Idempotent by nature, posted by mail clients that send no key.
    idempotent: false,
    handler: async (ctx, { query }) => {
      await subscriptions.unsubscribeByToken(ctx, query.token);
      return one({ status: 'unsubscribed' as const });
    },
  });

  route(app, {
    method: 'GET',
    url: '/newsletter/subscriptions',
    operationId: 'readerListSubscriptions',
    serves: 'subscription',
    primary: true,
    summary: "The signed-in reader's subscriptions",
    tag,
    access: { scope: 'account:read', readerRequired: true },
    querystring: pagingQuery,
    response: { 200: listOf(readerSubscriptionSchema) },
    handler: async (ctx, { query }, reply) => list(reply.request, await subscriptions.listForReader(ctx, query), toReaderSubscription),
  });

  route(app, {
    method: 'DELETE',
    url: '/newsletter/subscriptions',
    operationId: 'readerUnsubscribeAll',
    summary: "Unsubscribe the signed-in reader from every list",
    tag,
    access: { scope: 'account:write', readerRequired: true },
    response: { 204: noContent },
    handler: async (ctx) => subscriptions.unsubscribeAllForReader(ctx),
  });

  route(app, {
    method: 'DELETE',
    url: '/newsletter/subscriptions/:id',
    operationId: 'readerUnsubscribe',
    summary: "Unsubscribe the signed-in reader from one list",
    tag,
    access: { scope: 'account:write', readerRequired: true },
    params: idParams,
    response: { 204: noContent },
    handler: async (ctx, { params }) => subscriptions.unsubscribeForReader(ctx, params.id),
  });
};
