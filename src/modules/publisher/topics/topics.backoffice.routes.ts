import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { list, one } from '../../../shared/envelopes.js';
import { dataOf, errorResponses, idParams, listOf, pagingQuery } from '../../../shared/schemas.js';
import { toBackofficeTopic } from './topics.mappers.js';
import { topicCreateBody, topicSchema } from './topics.schemas.js';
import type { TopicsService } from './topics.service.js';

const tags = ['Core: Topics'];

/** /core/v2/topics: the minimal Backoffice for topics, so that clients can discover their ids. */
export const topicsBackofficeRoutes: FastifyPluginAsyncZod<{ topics: TopicsService }> = async (app, { topics }) => {
  app.get('/topics', {
    config: { permission: 'core:read' },
    schema: {
      tags,
      summary: 'List topics',
      description: 'Topics of the key\'s media in the order they were created.',
      querystring: pagingQuery,
      response: { 200: listOf(topicSchema), ...errorResponses(400, 401, 403, 429) },
    },
    handler: async (req) => list(req, await topics.list(req.principal.mediaId, req.query), toBackofficeTopic),
  });

  app.post('/topics', {
    config: { permission: 'core:write' },
    schema: {
      tags,
      summary: 'Create a topic',
      description: '`key` is unique within the media: a second topic with the same key is a 409 topic_exists.',
      body: topicCreateBody,
      response: { 201: dataOf(topicSchema), ...errorResponses(400, 401, 403, 409, 413, 415, 429) },
    },
    handler: async (req, reply) => {
      const row = await topics.create(req.principal.mediaId, req.body);
      return reply.status(201).send(one(toBackofficeTopic(row)));
    },
  });

  app.get('/topics/:id', {
    config: { permission: 'core:read' },
    schema: {
      tags,
      summary: 'Topic by id',
      params: idParams,
      response: { 200: dataOf(topicSchema), ...errorResponses(400, 401, 403, 404, 429) },
    },
    handler: async (req) => one(toBackofficeTopic(await topics.get(req.principal.mediaId, req.params.id))),
  });
};
