import { sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { type AggregateRow, aggregate, part } from '../../../shared/aggregate.js';
import type { Paginator } from '../../../shared/paging.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { messengerErrors } from '../messenger.errors.js';
import { mailingListLocales, mailingLists } from './mailing-lists.table.js';

/** A mailing list with its locale entries, read in one statement; `public`: what readers are offered. */
export const mailingListAggregate = aggregate(mailingLists, {
  owner: mailingLists.mediaId,
  conflict: messengerErrors.localeTaken,
  views: { public: sql`${mailingLists.isPublic}` },
  parts: {
    locales: part(mailingListLocales, {
      parent: mailingListLocales.mailingListId,
      match: ['locale'],
      columns: ['id', 'locale', 'name', 'description', 'deletedAt'],
    }),
  },
});

export type MailingListRecord = AggregateRow<typeof mailingLists, typeof mailingListAggregate.parts>;

export function createMailingListsRepository(pager: Paginator) {
  return {
    list: (db: Executor, mediaId: string, query: PagingQuery, view?: 'public') => mailingListAggregate.page(pager, db, mediaId, query, view ? { view } : {}),

    find: (db: Executor, mediaId: string, id: string, view?: 'public') => mailingListAggregate.find(db, id, mediaId, view),

    async insert(db: Executor, values: typeof mailingLists.$inferInsert): Promise<string> {
      const [row] = await db.insert(mailingLists).values(values).returning({ id: mailingLists.id });
      return row!.id;
    },

    async update(db: Executor, id: string, values: Partial<typeof mailingLists.$inferInsert>): Promise<void> {
      await db
        .update(mailingLists)
        .set({ ...values, updatedAt: new Date() })
        .where(sql`${mailingLists.id} = ${id}`);
    },
  };
}

export type MailingListsRepository = ReturnType<typeof createMailingListsRepository>;
