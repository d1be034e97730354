import { sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { type AggregateRow, aggregate } from '../../../shared/aggregate.js';
import type { Paginator } from '../../../shared/paging.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { adOpsErrors } from '../ad-ops.errors.js';
import { advertisers } from './advertisers.table.js';

export const advertiserAggregate = aggregate(advertisers, {
  owner: advertisers.mediaId,
  /** Advertisers whose ads may run: what the Public interface lists. */
  views: { active: sql`${advertisers.isActive}` },
  parts: {},
  conflict: adOpsErrors.advertiserNotFound,
});

export type AdvertiserRow = AggregateRow<typeof advertisers, typeof advertiserAggregate.parts>;

type Values = Pick<typeof advertisers.$inferInsert, 'name' | 'contactEmail' | 'website' | 'isActive'>;

export function createAdvertisersRepository(pager: Paginator) {
  return {
    list: (db: Executor, mediaId: string, query: PagingQuery) => advertiserAggregate.page(pager, db, mediaId, query),

    listActive: (db: Executor, mediaId: string, query: PagingQuery) => advertiserAggregate.page(pager, db, mediaId, query, { view: 'active' }),

    find: (db: Executor, mediaId: string, id: string) => advertiserAggregate.find(db, id, mediaId),

    async insert(db: Executor, mediaId: string, values: Values): Promise<string> {
      const [row] = await db.insert(advertisers).values({ mediaId, ...values }).returning({ id: advertisers.id });
      return row!.id;
    },

    /** False when the media has no such advertiser. */
    async update(db: Executor, mediaId: string, id: string, values: Values): Promise<boolean> {
      const rows = await db
        .update(advertisers)
        .set({ ...values, updatedAt: new Date() })
        .where(sql`${advertisers.id} = ${id} and ${advertisers.mediaId} = ${mediaId}`)
        .returning({ id: advertisers.id });
      return rows.length > 0;
    },
  };
}

export type AdvertisersRepository = ReturnType<typeof createAdvertisersRepository>;
