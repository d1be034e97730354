import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { aggregate } from '../../../shared/aggregate.js';
import { type Paginator, newestFirst } from '../../../shared/paging.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { type TopicRow, topics } from '../../publisher/index.js';
import { readerhubErrors } from '../readerhub.errors.js';
import { type ReaderTopicSubscriptionRow, readerTopicSubscriptions as s } from './topic-subscriptions.table.js';

/** A subscription belongs to its reader; unsubscribing soft-deletes it. */
export const subscriptionAggregate = aggregate(s, {
  owner: s.readerId,
  conflict: readerhubErrors.topicSubscriptionConflict,
  parts: {},
});

const withTopic = {
  id: s.id,
  insertedAt: s.insertedAt,
  topic: { id: topics.id, key: topics.key, name: topics.name, description: topics.description, updatedAt: topics.updatedAt },
};
export interface SubscriptionWithTopic {
  id: string;
  insertedAt: Date;
  topic: Pick<TopicRow, 'id' | 'key' | 'name' | 'description'> & { updatedAt: Date | string };
}

const order = newestFirst<SubscriptionWithTopic>(s);

type Key = { readerId: string; topicId: string };

const keyIs = (key: Key) => and(eq(s.readerId, key.readerId), eq(s.topicId, key.topicId), subscriptionAggregate.filter());

export function createTopicSubscriptionsRepository(pager: Paginator) {
  return {
    /** The reader's live subscriptions with their live topics (a deleted topic is not listed; its restore brings it back), one query per page. */
    list: (db: Executor, readerId: string, query: PagingQuery) =>
      pager.page(
        {
          select: () => db.select(withTopic).from(s).innerJoin(topics, and(eq(topics.id, s.topicId), isNull(topics.deletedAt))),
          keyset: order,
          scope: `reader_topic_subscriptions:${readerId}`,
          where: and(eq(s.readerId, readerId), subscriptionAggregate.filter()),
        },
        query,
      ),

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
      const [row] = await db.select().from(s).where(keyIs(key));
      return row;
    },

    /** Soft-deletes the live subscription of the key, if there is one, in one statement. */
    async softDelete(db: Executor, key: Key): Promise<void> {
      await db.update(s).set({ deletedAt: sql`now()` }).where(keyIs(key));
    },
  };
}

export type TopicSubscriptionsRepository = ReturnType<typeof createTopicSubscriptionsRepository>;
