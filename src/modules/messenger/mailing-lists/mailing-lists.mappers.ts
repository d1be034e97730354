import type { ReaderView } from '../../../shared/http/reader.js';
import { readerNamed, toNamedLocales } from '../../../shared/named-locales.js';
import { iso, stamped } from '../../../shared/time.js';
import type { MailingListRecord } from './mailing-lists.repository.js';

export const toMailingList = (row: MailingListRecord) => stamped({
  id: row.id,
  locales: toNamedLocales(row.locales),
  is_public: row.isPublic,
  double_opt_in: row.doubleOptIn,
}, row);

/** Reader view: the list's name and description in the asked language. */
export const toReaderMailingList = (row: MailingListRecord, view: Pick<ReaderView, 'locale' | 'fallback'>) => {
  const { name, description, meta } = readerNamed(row.locales, view);
  return { id: row.id, name, description, double_opt_in: row.doubleOptIn, meta, updated_at: iso(row.updatedAt) };
};
