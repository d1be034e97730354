import { type SQL, and, eq, getTableColumns, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { type Paginator, newestFirst } from '../../../shared/paging.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import type { EntitlementStatus } from './entitlements.schemas.js';
import { type ReaderEntitlementRow, readerEntitlements as e } from './entitlements.table.js';

export type EntitlementView = ReaderEntitlementRow & { status: EntitlementStatus };

/**
 * The status of each row at `now`, in SQL: the listing filters on the very expression it
 * returns, so a row can never be served as active once its window has closed.
 */
const statusAt = (now: Date): SQL<EntitlementStatus> => {
  const at = sql`${now.toISOString()}::timestamptz`;
  return sql<EntitlementStatus>`(case
    when ${e.revokedAt} is not null then 'revoked'
    when ${e.startsAt} > ${at} then 'scheduled'
    when ${e.endsAt} is not null and ${e.endsAt} <= ${at} then 'expired'
    else 'active' end)`;
};

const withStatus = (now: Date) => ({ ...getTableColumns(e), status: statusAt(now) });

const order = newestFirst<EntitlementView>(e);

export interface EntitlementFilter {
  mediaId: string;
  readerId?: string | undefined;
  productKey?: string | undefined;
  statuses?: EntitlementStatus[] | undefined;
}

export function createEntitlementsRepository(pager: Paginator) {
  return {
    /** One page, newest first; served by the reader index when a reader is named, else the media one. */
    list: (db: Executor, filter: EntitlementFilter, query: PagingQuery, now: Date) =>
      pager.page(
        {
          select: () => db.select(withStatus(now)).from(e),
          keyset: order,
          scope: filter.readerId ? `reader_entitlements:reader:${filter.readerId}` : `reader_entitlements:${filter.mediaId}`,
          where: and(
            eq(e.mediaId, filter.mediaId),
            filter.readerId ? eq(e.readerId, filter.readerId) : undefined,
            filter.productKey ? eq(e.productKey, filter.productKey) : undefined,
            filter.statuses ? inArray(statusAt(now), filter.statuses) : undefined,
          ),
        },
        query,
      ),

    async find(db: Executor, mediaId: string, id: string, now: Date): Promise<EntitlementView | undefined> {
      const [row] = await db
        .select(withStatus(now))
        .from(e)
        .where(and(eq(e.id, id), eq(e.mediaId, mediaId)));
      return row;
    },

    async insert(db: Executor, values: typeof e.$inferInsert, now: Date): Promise<EntitlementView> {
      const [row] = await db.insert(e).values(values).returning(withStatus(now));
      return row!;
    },

    /** Stamps revoked_at on a live entitlement of the media; false when there is none to stamp. */
    async revoke(db: Executor, mediaId: string, id: string): Promise<boolean> {
      const rows = await db
        .update(e)
        .set({ revokedAt: sql`now()`, updatedAt: sql`now()` })
        .where(and(eq(e.id, id), eq(e.mediaId, mediaId), isNull(e.revokedAt)))
        .returning({ id: e.id });
      return rows.length > 0;
    },
  };
}

export type EntitlementsRepository = ReturnType<typeof createEntitlementsRepository>;
