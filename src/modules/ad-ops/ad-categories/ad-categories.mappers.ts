import { stamped } from '../../../shared/time.js';
import type { AdCategoryRow } from './ad-categories.repository.js';

export const toAdCategory = (row: AdCategoryRow) => stamped({
  id: row.id,
  name: row.name,
}, row);
