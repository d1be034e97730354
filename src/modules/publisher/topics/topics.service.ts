import type { Db } from '../../../db/client.js';
import type { RequestContext } from '../../../shared/http/route.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { publisherErrors } from '../publisher.errors.js';
import type { TopicsRepository } from './topics.repository.js';
import type { TopicCreate } from './topics.schemas.js';

export function createTopicsService(deps: { db: Db; repo: TopicsRepository }) {
  const { db, repo } = deps;
  return {
    list: (ctx: RequestContext, query: PagingQuery) => repo.list(db, ctx.mediaId, query),

    async get(ctx: RequestContext, id: string) {
      const row = await repo.find(db, ctx.mediaId, id);
      if (!row) throw publisherErrors.topicNotFound();
      return row;
    },

    async create(ctx: RequestContext, input: TopicCreate) {
      const row = await repo.insert(db, {
        mediaId: ctx.mediaId,
        key: input.key,
        name: input.name,
        description: input.description ?? null,
      });
      if (!row) throw publisherErrors.topicExists();
      return row;
    },
  };
}

export type TopicsService = ReturnType<typeof createTopicsService>;
