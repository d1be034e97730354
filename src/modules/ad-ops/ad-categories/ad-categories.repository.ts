import { sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { type AggregateRow, aggregate } from '../../../shared/aggregate.js';
import { uniqueOr } from '../../../shared/errors.js';
import type { Paginator } from '../../../shared/paging.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { adOpsErrors } from '../ad-ops.errors.js';
import { adCategories } from './ad-categories.table.js';

export const adCategoryAggregate = aggregate(adCategories, {
  owner: adCategories.mediaId,
  parts: {},
  conflict: adOpsErrors.adCategoryNameTaken,
});

export type AdCategoryRow = AggregateRow<typeof adCategories, typeof adCategoryAggregate.parts>;

export function createAdCategoriesRepository(pager: Paginator) {
  return {
    list: (db: Executor, mediaId: string, query: PagingQuery) => adCategoryAggregate.page(pager, db, mediaId, query),

    find: (db: Executor, mediaId: string, id: string) => adCategoryAggregate.find(db, id, mediaId),

    async insert(db: Executor, mediaId: string, name: string): Promise<string> {
      const [row] = await uniqueOr(
        db.insert(adCategories).values({ mediaId, name }).returning({ id: adCategories.id }),
        adOpsErrors.adCategoryNameTaken,
      );
      return row!.id;
    },

    /** False when the media has no such live category. */
    async rename(db: Executor, mediaId: string, id: string, name: string): Promise<boolean> {
      const rows = await uniqueOr(
        db
          .update(adCategories)
          .set({ name, updatedAt: new Date() })
          .where(sql`${adCategories.id} = ${id} and ${adCategories.mediaId} = ${mediaId} and ${adCategories.deletedAt} is null`)
          .returning({ id: adCategories.id }),
        adOpsErrors.adCategoryNameTaken,
      );
      return rows.length > 0;
    },
  };
}

export type AdCategoriesRepository = ReturnType<typeof createAdCategoriesRepository>;
