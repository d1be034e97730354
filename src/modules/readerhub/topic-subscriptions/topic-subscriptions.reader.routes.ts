import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { list, one } from '../../../shared/envelopes.js';
import { dataOf, errorResponses, listOf, noContent, uuid } from '../../../shared/schemas.js';
import { toTopicSubscription } from './topic-subscriptions.mappers.js';
import { topicSubscriptionSchema, topicSubscriptionsQuery } from './topic-subscriptions.schemas.js';
import type { TopicSubscriptionsService } from './topic-subscriptions.service.js';

const tags = ['Reader: Topics'];
const topicParams = z.object({ id: uuid.describe('The topic id') });

/** Following topics: subscribe and unsubscribe by topic, and the reader's list. */
export const topicSubscriptionsReaderRoutes: FastifyPluginAsyncZod<{ subscriptions: TopicSubscriptionsService }> = async (
  app,
  { subscriptions },
) => {
  app.get('/accounts/me/topics', {
    config: { scope: 'account:read', readerRequired: true },
    schema: {
      tags,
      summary: 'Topics the reader follows',
      description: 'The signed-in reader\'s topic subscriptions, most recent first, each with its topic.',
      querystring: topicSubscriptionsQuery,
      response: { 200: listOf(topicSubscriptionSchema), ...errorResponses(400, 401, 403, 404, 429) },
    },
    handler: async (req) => list(req, await subscriptions.list(req.readerAccount, req.query), toTopicSubscription),
  });

  app.post('/topics/:id/subscription', {
    config: { scope: 'account:write', readerRequired: true },
    schema: {
      tags,
      summary: 'Subscribe to a topic',
      description: 'Idempotent: a new subscription answers 201, an existing one 200 with that subscription.',
      params: topicParams,
      response: {
        200: dataOf(topicSubscriptionSchema),
        201: dataOf(topicSubscriptionSchema),
        ...errorResponses(400, 401, 403, 404, 429),
      },
    },
    handler: async (req, reply) => {
      const { row, created } = await subscriptions.subscribe(req.readerAccount, req.params.id);
      return reply.status(created ? 201 : 200).send(one(toTopicSubscription(row)));
    },
  });

  app.delete('/topics/:id/subscription', {
    config: { scope: 'account:write', readerRequired: true },
    schema: {
      tags,
      summary: 'Unsubscribe from a topic',
      description: 'Answers 204 also when the reader did not follow the topic; an unknown topic is a 404.',
      params: topicParams,
      response: { 204: noContent, ...errorResponses(400, 401, 403, 404, 429) },
    },
    handler: async (req, reply) => {
      await subscriptions.unsubscribe(req.readerAccount, req.params.id);
      return reply.status(204).send();
    },
  });
};
