import { boolean, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { deletedAt, idColumn, refColumn, timestamps } from '../../../db/columns.js';
import { mediaIdColumn } from '../../core/tenancy/tenancy.table.js';

/** A mailing list of the media: offered to readers when public, double opt-in by default. */
export const mailingLists = pgTable(
  'mailing_lists',
  {
    id: idColumn(),
    mediaId: mediaIdColumn(),
    isPublic: boolean('is_public').notNull().default(false),
    doubleOptIn: boolean('double_opt_in').notNull().default(true),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [index('mailing_lists_media_page_idx').on(t.mediaId, t.insertedAt.desc(), t.id.desc())],
);

/** A mailing list's name and description in one language. */
export const mailingListLocales = pgTable(
  'mailing_list_locales',
  {
    id: idColumn(),
    mailingListId: refColumn('mailing_list_id', () => mailingLists.id),
    locale: text('locale').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    deletedAt: deletedAt(),
  },
  (t) => [uniqueIndex('mailing_list_locales_locale_uq').on(t.mailingListId, t.locale)],
);
