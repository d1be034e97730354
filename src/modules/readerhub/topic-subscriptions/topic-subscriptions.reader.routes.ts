import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createdOrFound, list } from '../../../shared/envelopes.js';
import { route } from '../../../shared/http/route.js';
import { dataOf, listOf, noContent, uuid } from '../../../shared/schemas.js';
import { readerhubTags } from '../readerhub.tags.js';
import { toTopicSubscription } from './topic-subscriptions.mappers.js';
import { topicSubscriptionSchema, topicSubscriptionsQuery } from './topic-subscriptions.schemas.js';
import type { TopicSubscriptionsService } from './topic-subscriptions.service.js';

const tag = readerhubTags.readerTopics;
const topicParams = z.object({ id: uuid.describe('The topic id') });

/** Following topics: subscribe and unsubscribe by topic, and the reader's list. */
export const topicSubscriptionsReaderRoutes: FastifyPluginAsyncZod<{ subscriptions: TopicSubscriptionsService }> = async (
  app,
  { subscriptions },
) => {
  route(app, {
    method: 'GET',
    url: '/accounts/me/topics',
    operationId: 'readerListTopicSubscriptions',
    serves: 'topic',
    primary: true,
    summary: 'Topics the reader follows',
    description: "The signed-in reader's topic subscriptions, most recent first, each with its topic.",
    tag,
    access: { scope: 'account:read', readerRequired: true },
    querystring: topicSubscriptionsQuery,
    response: { 200: listOf(topicSubscriptionSchema) },
    handler: async (ctx, { query }, reply) =>
      list(reply.request, await subscriptions.list(ctx, reply.request.readerAccount, query), toTopicSubscription),
  });

  route(app, {
    method: 'POST',
    url: '/topics/:id/subscription',
    operationId: 'readerSubscribeTopic',
    summary: 'Subscribe to a topic',
    description: 'Idempotent: a new subscription answers 201, an existing one 200 with that subscription.',
    tag,
    access: { scope: 'account:write', readerRequired: true },
    params: topicParams,
    response: { 200: dataOf(topicSubscriptionSchema), 201: dataOf(topicSubscriptionSchema) },
    handler: async (ctx, { params }, reply) =>
      createdOrFound(reply, await subscriptions.subscribe(ctx, reply.request.readerAccount, params.id), toTopicSubscription),
  });

  route(app, {
    method: 'DELETE',
    url: '/topics/:id/subscription',
    operationId: 'readerUnsubscribeTopic',
    summary: 'Unsubscribe from a topic',
    description: 'Answers 204 also when the reader did not follow the topic; an unknown topic is a 404.',
    tag,
    access: { scope: 'account:write', readerRequired: true },
    params: topicParams,
    response: { 204: noContent },
    handler: async (ctx, { params }, reply) => subscriptions.unsubscribe(ctx, reply.request.readerAccount, params.id),
  });
};
