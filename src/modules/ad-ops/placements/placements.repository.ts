import { sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { type AggregateRow, aggregate } from '../../../shared/aggregate.js';
import { uniqueOr } from '../../../shared/errors.js';
import type { Paginator } from '../../../shared/paging.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { adOpsErrors } from '../ad-ops.errors.js';
import { adPlacements } from './placements.table.js';

export const placementAggregate = aggregate(adPlacements, {
  owner: adPlacements.mediaId,
  parts: {},
  conflict: adOpsErrors.placementExists,
});

export type PlacementRow = AggregateRow<typeof adPlacements, typeof placementAggregate.parts>;

export function createPlacementsRepository(pager: Paginator) {
  return {
    listInAd: (db: Executor, mediaId: string, adId: string, query: PagingQuery) =>
      placementAggregate.page(pager, db, mediaId, query, {
        filter: { name: 'ad', where: sql`${adPlacements.adId} = ${sql.placeholder('ad')}::uuid`, params: { ad: adId } },
      }),

    find: (db: Executor, mediaId: string, id: string) => placementAggregate.find(db, id, mediaId),

    async insert(db: Executor, values: typeof adPlacements.$inferInsert): Promise<string> {
      const [row] = await uniqueOr(db.insert(adPlacements).values(values).returning({ id: adPlacements.id }), adOpsErrors.placementExists);
      return row!.id;
    },

    /** False when the media has no such placement. */
    async remove(db: Executor, mediaId: string, id: string): Promise<boolean> {
      const rows = await db
        .delete(adPlacements)
        .where(sql`${adPlacements.id} = ${id} and ${adPlacements.mediaId} = ${mediaId}`)
        .returning({ id: adPlacements.id });
      return rows.length > 0;
    },
  };
}

export type PlacementsRepository = ReturnType<typeof createPlacementsRepository>;
