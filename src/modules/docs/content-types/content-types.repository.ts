import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { type AggregateRow, aggregate } from '../../../shared/aggregate.js';
import { uniqueOr } from '../../../shared/errors.js';
import type { Paginator } from '../../../shared/paging.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { docsErrors } from '../docs.errors.js';
import { type ContentTypeRow, contentTypes } from './content-types.table.js';

export const contentTypeAggregate = aggregate(contentTypes, {
  owner: contentTypes.mediaId,
  conflict: docsErrors.contentTypeKeyTaken,
  parts: {},
});

export type ContentTypeRecord = AggregateRow<typeof contentTypes, typeof contentTypeAggregate.parts>;

export function createContentTypesRepository(pager: Paginator) {
  return {
    list: (db: Executor, mediaId: string, query: PagingQuery) => contentTypeAggregate.page(pager, db, mediaId, query),

    find: (db: Executor, mediaId: string, id: string) => contentTypeAggregate.find(db, id, mediaId),

    async insert(db: Executor, values: typeof contentTypes.$inferInsert): Promise<string> {
      const [row] = await uniqueOr(db.insert(contentTypes).values(values).returning({ id: contentTypes.id }), docsErrors.contentTypeKeyTaken);
      return row!.id;
    },

    async update(db: Executor, mediaId: string, id: string, values: Partial<ContentTypeRow>): Promise<void> {
      await uniqueOr(
        db
          .update(contentTypes)
          .set({ ...values, updatedAt: new Date() })
          .where(and(eq(contentTypes.id, id), eq(contentTypes.mediaId, mediaId))),
        docsErrors.contentTypeKeyTaken,
      );
    },
  };
}

export type ContentTypesRepository = ReturnType<typeof createContentTypesRepository>;
