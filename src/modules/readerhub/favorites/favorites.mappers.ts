import { iso } from '../../../shared/time.js';
import type { FavoriteRow } from './favorites.repository.js';
import type { FAVORITE_KINDS } from './favorites.table.js';

export const toReaderFavorite = (row: FavoriteRow) => ({
  id: row.id,
  kind: row.kind as (typeof FAVORITE_KINDS)[number],
  record_id: row.recordId,
  inserted_at: iso(row.insertedAt),
});
