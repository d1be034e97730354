import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { type AggregateRow, aggregate } from '../../../shared/aggregate.js';
import { type Paginator, newestFirst } from '../../../shared/paging.js';
import { readerhubErrors } from '../readerhub.errors.js';
import type { FavoritesQuery } from './favorites.schemas.js';
import { readerFavorites as f } from './favorites.table.js';

/** A favorite belongs to its reader: reads and soft delete check that owner. */
export const favoriteAggregate = aggregate(f, {
  owner: f.readerId,
  conflict: readerhubErrors.favoriteConflict,
  parts: {},
});

/** A favorite as read: timestamps are wire text. */
export type FavoriteRow = AggregateRow<typeof f, typeof favoriteAggregate.parts>;

const order = newestFirst<FavoriteRow>(f);

type Key = Pick<typeof f.$inferInsert, 'readerId' | 'kind' | 'recordId'>;

export function createFavoritesRepository(pager: Paginator) {
  return {
    list: (db: Executor, readerId: string, query: FavoritesQuery) =>
      pager.page(
        {
          select: () => db.select(favoriteAggregate.columns).from(f),
          keyset: order,
          scope: `reader_favorites:${readerId}`,
          where: and(eq(f.readerId, readerId), favoriteAggregate.filter(), query.kind ? eq(f.kind, query.kind) : undefined),
        },
        query,
      ),

    /** The new favorite, or undefined when the record is a live favorite already. */
    async insertIfAbsent(db: Executor, values: Key): Promise<FavoriteRow | undefined> {
      const [row] = await db
        .insert(f)
        .values(values)
        // Infers the partial unique index reader_favorites_live_uq.
        .onConflictDoNothing({ target: [f.readerId, f.kind, f.recordId], where: sql`deleted_at is null` })
        .returning(favoriteAggregate.columns);
      return row;
    },

    async findLive(db: Executor, key: Key): Promise<FavoriteRow | undefined> {
      const [row] = await db
        .select(favoriteAggregate.columns)
        .from(f)
        .where(and(eq(f.readerId, key.readerId), eq(f.kind, key.kind), eq(f.recordId, key.recordId), favoriteAggregate.filter()));
      return row;
    },
  };
}

export type FavoritesRepository = ReturnType<typeof createFavoritesRepository>;
