import { type RequestContext, transaction } from '../../../shared/context.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { publisherErrors } from '../publisher.errors.js';
import { type TopicsRepository, topicAggregate } from './topics.repository.js';
import type { TopicCreate, TopicUpdate } from './topics.schemas.js';

export function createTopicsService(deps: { repo: TopicsRepository }) {
  const { repo } = deps;
  return {
    list: (ctx: RequestContext, query: PagingQuery) => repo.list(ctx.db, ctx.mediaId, query),

    async get(ctx: RequestContext, id: string) {
      const row = await repo.find(ctx.db, ctx.mediaId, id);
      if (!row) throw publisherErrors.topicNotFound();
      return row;
    },

    create: (ctx: RequestContext, input: TopicCreate) =>
      repo.insert(ctx.db, { mediaId: ctx.mediaId, key: input.key, name: input.name, description: input.description ?? null }),

    /** Fields left out keep their value. */
    update: (ctx: RequestContext, id: string, patch: TopicUpdate) =>
      transaction(ctx, async (tx) => {
        if (!(await topicAggregate.lock(tx, id, ctx.mediaId))) throw publisherErrors.topicNotFound();
        await repo.update(tx, id, patch);
        return (await repo.find(tx, ctx.mediaId, id))!;
      }),

    async remove(ctx: RequestContext, id: string): Promise<void> {
      if (!(await transaction(ctx, (tx) => topicAggregate.softDelete(tx, id, ctx.mediaId)))) throw publisherErrors.topicNotFound();
    },

    restore: (ctx: RequestContext, id: string) =>
      transaction(ctx, async (tx) => {
        if ((await topicAggregate.restore(tx, id, ctx.mediaId)) === 'not_found') throw publisherErrors.topicNotFound();
        return (await repo.find(tx, ctx.mediaId, id))!;
      }),
  };
}

export type TopicsService = ReturnType<typeof createTopicsService>;
