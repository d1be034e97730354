import { type ReaderView, pickLocale } from '../../../shared/http/reader.js';
import { iso, isoOrNull } from '../../../shared/time.js';
import type { CategoryWithLocales } from './categories.repository.js';

export const toBackofficeCategory = (row: CategoryWithLocales) => ({
  id: row.id,
  locales: row.locales.map((l) => ({
    id: l.id,
    locale: l.locale,
    name: l.name,
    description: l.description,
    deleted_at: isoOrNull(l.deletedAt),
  })),
  svg_icon: row.svgIcon,
  is_archived: row.isArchived,
  inserted_at: iso(row.insertedAt),
  updated_at: iso(row.updatedAt),
  deleted_at: isoOrNull(row.deletedAt),
});

/** Reader view (spec 2.4): one language, chosen by the locale rule. */
export const toReaderCategory = (row: CategoryWithLocales, view: Pick<ReaderView, 'locale' | 'fallback'>) => {
  const { entry, meta } = pickLocale(row.locales, view.locale, view.fallback);
  return {
    id: row.id,
    name: entry?.name ?? null,
    description: entry?.description ?? null,
    svg_icon: row.svgIcon,
    meta: { locales: meta },
    updated_at: iso(row.updatedAt),
  };
};
