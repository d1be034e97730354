import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { list } from '../../../shared/envelopes.js';
import { route } from '../../../shared/http/route.js';
import { listOf, pagingQuery } from '../../../shared/schemas.js';
import { publisherTags } from '../publisher.tags.js';
import { toReaderTopic } from './topics.mappers.js';
import { readerTopicSchema } from './topics.schemas.js';
import type { TopicsService } from './topics.service.js';

/** /api/media/v1/topics: what readers can follow. Following is the readerhub's business. */
export const topicsReaderRoutes: FastifyPluginAsyncZod<{ topics: TopicsService }> = async (app, { topics }) => {
  route(app, {
    method: 'GET',
    url: '/topics',
    operationId: 'readerListTopics',
    serves: 'topic',
    summary: 'List topics',
    description: 'Topics of the media in the order they were created; subscribe with POST /topics/{id}/subscription.',
    tag: publisherTags.readerTopics,
    access: { scope: 'media:read' },
    querystring: pagingQuery,
    response: { 200: listOf(readerTopicSchema) },
    handler: async (ctx, { query }, reply) => list(reply.request, await topics.list(ctx, query), toReaderTopic),
  });
};
