import { and, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { type Paginator, oldestFirst } from '../../../shared/paging.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { uniqueOr } from '../../../shared/errors.js';
import { aggregate } from '../../../shared/aggregate.js';
import { publisherErrors } from '../publisher.errors.js';
import { type TopicRow, topics } from './topics.table.js';

/** Soft delete and restore of a topic (it has no parts), as every record does them. */
export const topicAggregate = aggregate(topics, { owner: topics.mediaId, conflict: publisherErrors.topicExists, parts: {} });

// Topics are a short editorial list: served in the order they were created, which is the
// order of topics_media_page_idx (media_id, inserted_at, id), so every page is an index scan.
const order = oldestFirst<TopicRow>(topics);

export function createTopicsRepository(pager: Paginator) {
  return {
    list: (db: Executor, mediaId: string, query: PagingQuery) =>
      pager.page(
        { select: db.select().from(topics), keyset: order, scope: `topics:${mediaId}`, where: and(eq(topics.mediaId, mediaId), isNull(topics.deletedAt)) },
        query,
      ),

    async find(db: Executor, mediaId: string, id: string): Promise<TopicRow | undefined> {
      const [row] = await db
        .select()
        .from(topics)
        .where(and(eq(topics.id, id), eq(topics.mediaId, mediaId), isNull(topics.deletedAt)));
      return row;
    },

    /** The new topic; a live topic with this key is a 409 topic_exists. */
    async insert(db: Executor, values: typeof topics.$inferInsert): Promise<TopicRow> {
      const [row] = await uniqueOr(db.insert(topics).values(values).returning(), publisherErrors.topicExists);
      return row!;
    },

    async update(db: Executor, id: string, values: Partial<Pick<TopicRow, 'key' | 'name' | 'description'>>): Promise<void> {
      await uniqueOr(
        db
          .update(topics)
          .set({ ...values, updatedAt: new Date() })
          .where(eq(topics.id, id)),
        publisherErrors.topicExists,
      );
    },
  };
}

export type TopicsRepository = ReturnType<typeof createTopicsRepository>;
