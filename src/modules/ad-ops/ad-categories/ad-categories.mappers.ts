import { iso, isoOrNull } from '../../../shared/time.js';
import type { AdCategoryRow } from './ad-categories.repository.js';

export const toAdCategory = (row: AdCategoryRow) => ({
  id: row.id,
  name: row.name,
  inserted_at: iso(row.insertedAt),
  updated_at: iso(row.updatedAt),
  deleted_at: isoOrNull(row.deletedAt),
});
