import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { type Paginator, newestFirst } from '../../../shared/paging.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { newsletters } from './newsletters.table.js';

export type NewsletterRow = typeof newsletters.$inferSelect;
const order = newestFirst<NewsletterRow>(newsletters);

export function createNewslettersRepository(pager: Paginator) {
  return {
    listByList: (db: Executor, mediaId: string, listId: string, query: PagingQuery) =>
      pager.page(
        {
          select: db.select().from(newsletters),
          keyset: order,
          scope: `newsletters:${mediaId}:${listId}`,
          where: and(eq(newsletters.mailingListId, listId), eq(newsletters.mediaId, mediaId)),
        },
        query,
      ),

    async find(db: Executor, mediaId: string, id: string): Promise<NewsletterRow | undefined> {
      const [row] = await db.select().from(newsletters).where(and(eq(newsletters.id, id), eq(newsletters.mediaId, mediaId)));
      return row;
    },

    async insert(db: Executor, values: typeof newsletters.$inferInsert): Promise<NewsletterRow> {
      const [row] = await db.insert(newsletters).values(values).returning();
      return row!;
    },
  };
}

export type NewslettersRepository = ReturnType<typeof createNewslettersRepository>;
