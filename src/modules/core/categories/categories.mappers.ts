import type { ReaderView } from '../../../shared/http/reader.js';
import { readerNamed, toNamedLocales } from '../../../shared/named-locales.js';
import { iso, stamped } from '../../../shared/time.js';
import type { CategoryWithLocales } from './categories.repository.js';

export const toBackofficeCategory = (row: CategoryWithLocales) => stamped({
  id: row.id,
  locales: toNamedLocales(row.locales),
  svg_icon: row.svgIcon,
  is_archived: row.isArchived,
}, row);

/** Reader view (spec 2.4): one language, chosen by the locale rule. */
export const toReaderCategory = (row: CategoryWithLocales, view: Pick<ReaderView, 'locale' | 'fallback'>) => {
  const { name, description, meta } = readerNamed(row.locales, view);
  return { id: row.id, name, description, svg_icon: row.svgIcon, meta, updated_at: iso(row.updatedAt) };
};
