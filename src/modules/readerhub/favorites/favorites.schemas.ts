import { z } from 'zod';
import { isoTimestamp, pagingQuery, uuid } from '../../../shared/schemas.js';
import { FAVORITE_KINDS } from './favorites.table.js';

const kind = z.enum(FAVORITE_KINDS).describe('`content` (an article) or `profile` (a community profile)');

export const favoriteSchema = z
  .object({
    id: uuid,
    kind,
    record_id: uuid.describe('The id of the content or profile'),
    inserted_at: isoTimestamp,
  })
  .meta({ id: 'ReaderFavorite' });

export const favoriteCreateBody = z
  .strictObject({ kind, record_id: uuid.describe('The id of the content or profile') })
  .meta({ id: 'ReaderFavoriteCreate' });

export const favoritesQuery = pagingQuery.extend({ kind: kind.optional() });

export type FavoriteCreate = z.output<typeof favoriteCreateBody>;
export type FavoritesQuery = z.output<typeof favoritesQuery>;
