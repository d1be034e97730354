import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { type AggregateRow, aggregate } from '../../../shared/aggregate.js';
import { uniqueOr } from '../../../shared/errors.js';
import type { Paginator } from '../../../shared/paging.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { magazinesErrors } from '../magazines.errors.js';
import { issueTypes } from './issue-types.table.js';

export const issueTypeAggregate = aggregate(issueTypes, {
  owner: issueTypes.mediaId,
  conflict: magazinesErrors.issueTypeKeyTaken,
  parts: {},
});

export type IssueTypeRecord = AggregateRow<typeof issueTypes, typeof issueTypeAggregate.parts>;

export function createIssueTypesRepository(pager: Paginator) {
  return {
    list: (db: Executor, mediaId: string, query: PagingQuery) => issueTypeAggregate.page(pager, db, mediaId, query),

    find: (db: Executor, mediaId: string, id: string) => issueTypeAggregate.find(db, id, mediaId),

    async insert(db: Executor, values: typeof issueTypes.$inferInsert): Promise<string> {
      const [row] = await uniqueOr(db.insert(issueTypes).values(values).returning({ id: issueTypes.id }), magazinesErrors.issueTypeKeyTaken);
      return row!.id;
    },

    async update(db: Executor, mediaId: string, id: string, values: Partial<typeof issueTypes.$inferInsert>): Promise<void> {
      await uniqueOr(
        db
          .update(issueTypes)
          .set({ ...values, updatedAt: new Date() })
          .where(and(eq(issueTypes.id, id), eq(issueTypes.mediaId, mediaId))),
        magazinesErrors.issueTypeKeyTaken,
      );
    },
  };
}

export type IssueTypesRepository = ReturnType<typeof createIssueTypesRepository>;
