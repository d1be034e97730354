import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { type AggregateRow, aggregate, part } from '../../../shared/aggregate.js';
import { uniqueOr } from '../../../shared/errors.js';
import type { Paginator } from '../../../shared/paging.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { communityErrors } from '../community.errors.js';
import { profileTypeMetadata, profileTypes } from './profile-types.table.js';
import { rowsOf } from '../../../db/rows.js';

/** A profile type and its metadata entries in order, read in one statement. */
export const profileTypeAggregate = aggregate(profileTypes, {
  owner: profileTypes.mediaId,
  conflict: communityErrors.profileTypeKeyTaken,
  parts: {
    metadata: part(profileTypeMetadata, {
      parent: profileTypeMetadata.profileTypeId,
      match: ['key'],
      position: 'position',
      columns: ['key', 'value'],
    }),
  },
});

export type ProfileTypeWithMetadata = AggregateRow<typeof profileTypes, typeof profileTypeAggregate.parts>;

export function createProfileTypesRepository(pager: Paginator) {
  return {
    // The Backoffice and the Reader list the same rows: one prepared statement per executor and shape.
    list: (db: Executor, mediaId: string, query: PagingQuery) => profileTypeAggregate.page(pager, db, mediaId, query),

    find: (db: Executor, mediaId: string, id: string) => profileTypeAggregate.find(db, id, mediaId),

    findMany: (db: Executor, mediaId: string, ids: string[]) => profileTypeAggregate.findMany(db, ids, mediaId),

    async update(db: Executor, id: string, values: Partial<typeof profileTypes.$inferInsert>): Promise<void> {
      await uniqueOr(
        db
          .update(profileTypes)
          .set({ ...values, updatedAt: new Date() })
          .where(eq(profileTypes.id, id)),
        communityErrors.profileTypeKeyTaken,
      );
    },

    /** Whether live profiles have this type. */
    async inUse(db: Executor, id: string): Promise<boolean> {
      const rows = await db.execute(sql`select 1 from profiles where profile_type_id = ${id} and deleted_at is null limit 1`);
      return rowsOf(rows).length > 0;
    },

    async insert(db: Executor, values: typeof profileTypes.$inferInsert): Promise<string> {
      const [row] = await uniqueOr(
        db.insert(profileTypes).values(values).returning({ id: profileTypes.id }),
        communityErrors.profileTypeKeyTaken,
      );
      return row!.id;
    },
  };
}

export type ProfileTypesRepository = ReturnType<typeof createProfileTypesRepository>;
