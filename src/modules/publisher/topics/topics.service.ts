import type { Db } from '../../../db/client.js';
import { errors } from '../../../shared/errors.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import type { TopicsRepository } from './topics.repository.js';
import type { TopicCreate } from './topics.schemas.js';

const notFound = () => errors.notFound('topic');

export function createTopicsService(deps: { db: Db; repo: TopicsRepository }) {
  const { db, repo } = deps;
  return {
    list: (mediaId: string, query: PagingQuery) => repo.list(db, mediaId, query),

    async get(mediaId: string, id: string) {
      const row = await repo.find(db, mediaId, id);
      if (!row) throw notFound();
      return row;
    },

    async create(mediaId: string, input: TopicCreate) {
      const row = await repo.insert(db, {
        mediaId,
        key: input.key,
        name: input.name,
        description: input.description ?? null,
      });
      if (!row) throw errors.conflict('topic_exists', 'a topic with this key already exists');
      return row;
    },
  };
}

export type TopicsService = ReturnType<typeof createTopicsService>;
