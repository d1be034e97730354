import type { RequestContext } from '../../../shared/context.js';
import { insertOrFind } from '../../../shared/idempotent.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import type { TopicsService } from '../../publisher/index.js';
import type { ReaderRow } from '../accounts/accounts.table.js';
import type { SubscriptionWithTopic, TopicSubscriptionsRepository } from './topic-subscriptions.repository.js';

export function createTopicSubscriptionsService(deps: { repo: TopicSubscriptionsRepository; topics: TopicsService }) {
  const { repo, topics } = deps;
  return {
    list: (ctx: RequestContext, reader: ReaderRow, query: PagingQuery) => repo.list(ctx.db, reader.id, query),

    /** Follows a topic of the reader's media; following it again answers the same subscription. */
    async subscribe(ctx: RequestContext, reader: ReaderRow, topicId: string): Promise<{ row: SubscriptionWithTopic; created: boolean }> {
      const topic = await topics.get(ctx, topicId);
      const key = { readerId: reader.id, topicId: topic.id };
      const { row, created } = await insertOrFind(
        () => repo.insertIfAbsent(ctx.db, key),
        () => repo.findLive(ctx.db, key),
      );
      return { row: { id: row.id, insertedAt: row.insertedAt, topic }, created };
    },

    /** Stops following; idempotent for a topic of the media, 404 for an unknown topic. */
    async unsubscribe(ctx: RequestContext, reader: ReaderRow, topicId: string): Promise<void> {
      const topic = await topics.get(ctx, topicId);
      await repo.softDelete(ctx.db, { readerId: reader.id, topicId: topic.id });
    },
  };
}

export type TopicSubscriptionsService = ReturnType<typeof createTopicSubscriptionsService>;
