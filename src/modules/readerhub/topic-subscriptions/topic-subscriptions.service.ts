import type { Db } from '../../../db/client.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import type { TopicsService } from '../../publisher/index.js';
import type { ReaderRow } from '../accounts/accounts.table.js';
import type { SubscriptionWithTopic, TopicSubscriptionsRepository } from './topic-subscriptions.repository.js';

export function createTopicSubscriptionsService(deps: { db: Db; repo: TopicSubscriptionsRepository; topics: TopicsService }) {
  const { db, repo, topics } = deps;
  return {
    list: (reader: ReaderRow, query: PagingQuery) => repo.list(db, reader.id, query),

    /** Follows a topic of the reader's media; following it again answers the same subscription. */
    async subscribe(reader: ReaderRow, topicId: string): Promise<{ row: SubscriptionWithTopic; created: boolean }> {
      const topic = await topics.get(reader.mediaId, topicId);
      const key = { readerId: reader.id, topicId: topic.id };
      // A concurrent unsubscribe can slip between the two statements; then the insert is tried again.
      for (let attempt = 0; attempt < 3; attempt++) {
        const inserted = await repo.insertIfAbsent(db, key);
        if (inserted) return { row: { id: inserted.id, insertedAt: inserted.insertedAt, topic }, created: true };
        const existing = await repo.findLive(db, key);
        if (existing) return { row: { id: existing.id, insertedAt: existing.insertedAt, topic }, created: false };
      }
      throw new Error('subscription kept changing under concurrent writes');
    },

    /** Stops following; idempotent for a topic of the media, 404 for an unknown topic. */
    async unsubscribe(reader: ReaderRow, topicId: string): Promise<void> {
      const topic = await topics.get(reader.mediaId, topicId);
      await repo.softDelete(db, { readerId: reader.id, topicId: topic.id });
    },
  };
}

export type TopicSubscriptionsService = ReturnType<typeof createTopicSubscriptionsService>;
