import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { list } from '../../../shared/envelopes.js';
import { errorResponses, listOf, pagingQuery } from '../../../shared/schemas.js';
import { toReaderTopic } from './topics.mappers.js';
import { readerTopicSchema } from './topics.schemas.js';
import type { TopicsService } from './topics.service.js';

/** /api/media/v1/topics: what readers can follow. Following is the readerhub's business. */
export const topicsReaderRoutes: FastifyPluginAsyncZod<{ topics: TopicsService }> = async (app, { topics }) => {
  app.get('/topics', {
    config: { scope: 'media:read' },
    schema: {
      tags: ['Reader: Topics'],
      summary: 'List topics',
      description: 'Topics of the media in the order they were created; subscribe with POST /topics/{id}/subscription.',
      querystring: pagingQuery,
      response: { 200: listOf(readerTopicSchema), ...errorResponses(400, 401, 403, 404, 429) },
    },
    handler: async (req) => list(req, await topics.list(req.mediaId, req.query), toReaderTopic),
  });
};
