import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { type Paginator, newestFirst } from '../../../shared/paging.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { type TopicRow, topics } from '../../publisher/index.js';
import { type ReaderTopicSubscriptionRow, readerTopicSubscriptions as s } from './topic-subscriptions.table.js';

const withTopic = {
  id: s.id,
  insertedAt: s.insertedAt,
  topic: { id: topics.id, key: topics.key, name: topics.name, description: topics.description, updatedAt: topics.updatedAt },
};
export interface SubscriptionWithTopic {
  id: string;
  insertedAt: Date;
  topic: Pick<TopicRow, 'id' | 'key' | 'name' | 'description' | 'updatedAt'>;
}

const order = newestFirst<SubscriptionWithTopic>(s);

type Key = { readerId: string; topicId: string };

export function createTopicSubscriptionsRepository(pager: Paginator) {
  return {
    /** The reader's live subscriptions with their topics, one query per page. */
    async list(db: Executor, readerId: string, query: PagingQuery) {
      return pager.page(
        db.select(withTopic).from(s).innerJoin(topics, eq(topics.id, s.topicId)),
        order,
        `reader_topic_subscriptions:${readerId}`,
        query,
        and(eq(s.readerId, readerId), isNull(s.deletedAt)),
      );
    },

    /** The new subscription, or undefined when the reader follows the topic already. */
    async insertIfAbsent(db: Executor, key: Key): Promise<ReaderTopicSubscriptionRow | undefined> {
      const [row] = await db
        .insert(s)
        .values(key)
        // Infers the partial unique index reader_topic_subscriptions_live_uq.
        .onConflictDoNothing({ target: [s.readerId, s.topicId], where: sql`deleted_at is null` })
        .returning();
      return row;
    },

    async findLive(db: Executor, key: Key): Promise<ReaderTopicSubscriptionRow | undefined> {
      const [row] = await db
        .select()
        .from(s)
        .where(and(eq(s.readerId, key.readerId), eq(s.topicId, key.topicId), isNull(s.deletedAt)));
      return row;
    },

    async softDelete(db: Executor, key: Key): Promise<void> {
      await db
        .update(s)
        .set({ deletedAt: sql`now()` })
        .where(and(eq(s.readerId, key.readerId), eq(s.topicId, key.topicId), isNull(s.deletedAt)));
    },
  };
}

export type TopicSubscriptionsRepository = ReturnType<typeof createTopicSubscriptionsRepository>;
