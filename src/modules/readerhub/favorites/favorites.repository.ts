import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { type Paginator, newestFirst } from '../../../shared/paging.js';
import type { Aggregate } from '../../../shared/soft-delete.js';
import type { FavoritesQuery } from './favorites.schemas.js';
import { type ReaderFavoriteRow, readerFavorites as f } from './favorites.table.js';

/** A favorite belongs to its reader: soft delete checks that owner. */
export const favoriteAggregate: Aggregate = { table: f, id: f.id, deletedAt: f.deletedAt, owner: f.readerId, parts: [] };

const order = newestFirst<ReaderFavoriteRow>(f);

type Key = Pick<typeof f.$inferInsert, 'readerId' | 'kind' | 'recordId'>;

export function createFavoritesRepository(pager: Paginator) {
  return {
    async list(db: Executor, readerId: string, query: FavoritesQuery) {
      return pager.page(
        db.select().from(f),
        order,
        `reader_favorites:${readerId}`,
        query,
        and(eq(f.readerId, readerId), isNull(f.deletedAt), query.kind ? eq(f.kind, query.kind) : undefined),
      );
    },

    /** The new favorite, or undefined when the record is a live favorite already. */
    async insertIfAbsent(db: Executor, values: Key): Promise<ReaderFavoriteRow | undefined> {
      const [row] = await db
        .insert(f)
        .values(values)
        // Infers the partial unique index reader_favorites_live_uq.
        .onConflictDoNothing({ target: [f.readerId, f.kind, f.recordId], where: sql`deleted_at is null` })
        .returning();
      return row;
    },

    async findLive(db: Executor, key: Key): Promise<ReaderFavoriteRow | undefined> {
      const [row] = await db
        .select()
        .from(f)
        .where(and(eq(f.readerId, key.readerId), eq(f.kind, key.kind), eq(f.recordId, key.recordId), isNull(f.deletedAt)));
      return row;
    },
  };
}

export type FavoritesRepository = ReturnType<typeof createFavoritesRepository>;
