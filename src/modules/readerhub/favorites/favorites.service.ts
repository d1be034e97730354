import type { RequestContext } from '../../../shared/context.js';
import { insertOrFind } from '../../../shared/idempotent.js';
import type { ReaderRow } from '../accounts/accounts.table.js';
import { readerhubErrors } from '../readerhub.errors.js';
import { type FavoritesRepository, favoriteAggregate } from './favorites.repository.js';
import type { FavoriteCreate, FavoritesQuery } from './favorites.schemas.js';

/**
 * The owners of the records a favorite points at: each checks that the record is one the
 * reader may see in the media, or throws its own 404.
 */
export type FavoriteRecords = Record<FavoriteCreate['kind'], (mediaId: string, id: string) => Promise<void>>;

export function createFavoritesService(deps: { repo: FavoritesRepository; records: FavoriteRecords }) {
  const { repo, records } = deps;
  return {
    list: (ctx: RequestContext, reader: ReaderRow, query: FavoritesQuery) => repo.list(ctx.db, reader.id, query),

    /**
     * Adds a favorite; adding it again answers the existing one (created: false). The record
     * (a content, a profile) must be one the reader may see in the media (404 otherwise).
     */
    async add(ctx: RequestContext, reader: ReaderRow, input: FavoriteCreate) {
      await records[input.kind](ctx.mediaId, input.record_id);
      const key = { readerId: reader.id, kind: input.kind, recordId: input.record_id };
      return insertOrFind(
        () => repo.insertIfAbsent(ctx.db, key),
        () => repo.findLive(ctx.db, key),
      );
    },

    /** Soft-deletes a live favorite of the reader; another reader's, or a removed one, is a 404. */
    async remove(ctx: RequestContext, reader: ReaderRow, id: string): Promise<void> {
      if (!(await favoriteAggregate.softDelete(ctx.db, id, reader.id))) throw readerhubErrors.favoriteNotFound();
    },
  };
}

export type FavoritesService = ReturnType<typeof createFavoritesService>;
