import { iso, isoOrNull } from '../../../shared/time.js';
import type { CategoryWithLocales } from './categories.repository.js';

export const toBackofficeCategory = (row: CategoryWithLocales) => ({
  id: row.id,
  locales: row.locales.map((l) => ({
    id: l.id,
    locale: l.locale,
    name: l.name,
    description: l.description,
    deleted_at: isoOrNull(l.deleted_at),
  })),
  svg_icon: row.svgIcon,
  is_archived: row.isArchived,
  inserted_at: iso(row.insertedAt),
  updated_at: iso(row.updatedAt),
  deleted_at: isoOrNull(row.deletedAt),
});
