import { stamps } from '../../../shared/time.js';
import type { AdCategoryRow } from './ad-categories.repository.js';

export const toAdCategory = (row: AdCategoryRow) => ({
  id: row.id,
  name: row.name,
  ...stamps(row),
});
