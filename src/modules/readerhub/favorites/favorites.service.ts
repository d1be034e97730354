import type { Db } from '../../../db/client.js';
import { softDelete } from '../../../shared/soft-delete.js';
import type { ReaderRow } from '../accounts/accounts.table.js';
import { readerhubErrors } from '../readerhub.errors.js';
import { type FavoritesRepository, favoriteAggregate } from './favorites.repository.js';
import type { FavoriteCreate, FavoritesQuery } from './favorites.schemas.js';

export function createFavoritesService(deps: { db: Db; repo: FavoritesRepository }) {
  const { db, repo } = deps;
  return {
    list: (reader: ReaderRow, query: FavoritesQuery) => repo.list(db, reader.id, query),

    /**
     * Adds a favorite; adding it again answers the existing one (created: false). The record
     * is not checked to exist: contents and profiles have no module yet (see the table).
     */
    async add(reader: ReaderRow, input: FavoriteCreate) {
      const key = { readerId: reader.id, kind: input.kind, recordId: input.record_id };
      // A concurrent remove can slip between the two statements; then the insert is tried again.
      for (let attempt = 0; attempt < 3; attempt++) {
        const inserted = await repo.insertIfAbsent(db, key);
        if (inserted) return { row: inserted, created: true };
        const existing = await repo.findLive(db, key);
        if (existing) return { row: existing, created: false };
      }
      throw new Error('favorite kept changing under concurrent writes');
    },

    async remove(reader: ReaderRow, id: string): Promise<void> {
      if (!(await softDelete(db, favoriteAggregate, id, reader.id))) throw readerhubErrors.favoriteNotFound();
    },
  };
}

export type FavoritesService = ReturnType<typeof createFavoritesService>;
