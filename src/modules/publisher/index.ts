import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.js';
import type { Paginator } from '../../shared/paging.js';
import { topicsBackofficeRoutes } from './topics/topics.backoffice.routes.js';
import { topicsReaderRoutes } from './topics/topics.reader.routes.js';
import { createTopicsRepository } from './topics/topics.repository.js';
import { createTopicsService } from './topics/topics.service.js';

export { topics } from './topics/topics.table.js';
export type { TopicRow } from './topics/topics.table.js';
export type { TopicsService } from './topics/topics.service.js';
export { toReaderTopic } from './topics/topics.mappers.js';
export { readerTopicSchema } from './topics/topics.schemas.js';
export { publisherTags } from './publisher.tags.js';

export function createPublisherServices(deps: { db: Db; pager: Paginator }) {
  const { db, pager } = deps;
  return {
    topics: createTopicsService({ db, repo: createTopicsRepository(pager) }),
  };
}

export type PublisherServices = ReturnType<typeof createPublisherServices>;

/** Publisher records with a Backoffice under /core/v2 (CONVENTIONS: referenced records). */
export const publisherBackofficeRoutes: FastifyPluginAsyncZod<{ publisher: PublisherServices }> = async (app, { publisher }) => {
  await app.register(topicsBackofficeRoutes, { topics: publisher.topics });
};

/** Publisher's Reader routes under /api/media/v1. */
export const publisherReaderRoutes: FastifyPluginAsyncZod<{ publisher: PublisherServices }> = async (app, { publisher }) => {
  await app.register(topicsReaderRoutes, { topics: publisher.topics });
};
