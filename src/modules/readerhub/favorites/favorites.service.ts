import type { Db } from '../../../db/client.js';
import type { RequestContext } from '../../../shared/http/route.js';
import { insertOrFind } from '../../../shared/idempotent.js';
import type { ReaderRow } from '../accounts/accounts.table.js';
import { readerhubErrors } from '../readerhub.errors.js';
import { type FavoritesRepository, favoriteAggregate } from './favorites.repository.js';
import type { FavoriteCreate, FavoritesQuery } from './favorites.schemas.js';

export function createFavoritesService(deps: { db: Db; repo: FavoritesRepository }) {
  const { db, repo } = deps;
  return {
    list: (_ctx: RequestContext, reader: ReaderRow, query: FavoritesQuery) => repo.list(db, reader.id, query),

    /**
     * Adds a favorite; adding it again answers the existing one (created: false). The record
     * is not checked to exist: contents and profiles have no module yet (see the table).
     */
    add(_ctx: RequestContext, reader: ReaderRow, input: FavoriteCreate) {
      const key = { readerId: reader.id, kind: input.kind, recordId: input.record_id };
      return insertOrFind(
        () => repo.insertIfAbsent(db, key),
        () => repo.findLive(db, key),
      );
    },

    /** Soft-deletes a live favorite of the reader; another reader's, or a removed one, is a 404. */
    async remove(_ctx: RequestContext, reader: ReaderRow, id: string): Promise<void> {
      if (!(await favoriteAggregate.softDelete(db, id, reader.id))) throw readerhubErrors.favoriteNotFound();
    },
  };
}

export type FavoritesService = ReturnType<typeof createFavoritesService>;
