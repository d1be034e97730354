import { type ReaderView, pickLocale } from '../../../shared/http/reader.js';
import { iso, isoOrNull } from '../../../shared/time.js';
import type { MailingListRecord } from './mailing-lists.repository.js';

export const toMailingList = (row: MailingListRecord) => ({
  id: row.id,
  locales: row.locales.map((l) => ({
    id: l.id,
    locale: l.locale,
    name: l.name,
    description: l.description,
    deleted_at: isoOrNull(l.deletedAt),
  })),
  is_public: row.isPublic,
  double_opt_in: row.doubleOptIn,
  inserted_at: iso(row.insertedAt),
  updated_at: iso(row.updatedAt),
  deleted_at: isoOrNull(row.deletedAt),
});

/** Reader view: the list's name and description in the asked language. */
export const toReaderMailingList = (row: MailingListRecord, view: Pick<ReaderView, 'locale' | 'fallback'>) => {
  const { entry, meta } = pickLocale(row.locales, view.locale, view.fallback);
  return {
    id: row.id,
    name: entry?.name ?? null,
    description: entry?.description ?? null,
    double_opt_in: row.doubleOptIn,
    meta: { locales: meta },
    updated_at: iso(row.updatedAt),
  };
};
