import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { type Paginator, oldestFirst } from '../../../shared/paging.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { type TopicRow, topics } from './topics.table.js';

// Topics are a short editorial list: served in the order they were created, which is the
// order of topics_media_page_idx (media_id, inserted_at, id), so every page is an index scan.
const order = oldestFirst<TopicRow>(topics);

export function createTopicsRepository(pager: Paginator) {
  return {
    list: (db: Executor, mediaId: string, query: PagingQuery) =>
      pager.page(
        { select: db.select().from(topics), keyset: order, scope: `topics:${mediaId}`, where: eq(topics.mediaId, mediaId) },
        query,
      ),

    async find(db: Executor, mediaId: string, id: string): Promise<TopicRow | undefined> {
      const [row] = await db
        .select()
        .from(topics)
        .where(and(eq(topics.id, id), eq(topics.mediaId, mediaId)));
      return row;
    },

    /** The new topic, or undefined when the media already has one with this key. */
    async insert(db: Executor, values: typeof topics.$inferInsert): Promise<TopicRow | undefined> {
      const [row] = await db
        .insert(topics)
        .values(values)
        .onConflictDoNothing({ target: [topics.mediaId, topics.key] })
        .returning();
      return row;
    },
  };
}

export type TopicsRepository = ReturnType<typeof createTopicsRepository>;
