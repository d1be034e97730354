import { index, pgTable, text } from 'drizzle-orm/pg-core';
import { idColumn, refColumn, timestamps } from '../../../db/columns.js';
import { mediaIdColumn } from '../../core/tenancy/tenancy.table.js';
import { contents } from '../../docs/contents/contents.table.js';
import { mailingLists } from '../mailing-lists/mailing-lists.table.js';

/** A published content sent to a mailing list: rendered once, queued for every subscribed address. */
export const newsletters = pgTable(
  'newsletters',
  {
    id: idColumn(),
    mediaId: mediaIdColumn(),
    mailingListId: refColumn('mailing_list_id', () => mailingLists.id),
    contentId: refColumn('content_id', () => contents.id),
    locale: text('locale'),
    subject: text('subject').notNull(),
    html: text('html').notNull(),
    text: text('text').notNull(),
    ...timestamps(),
  },
  (t) => [index('newsletters_list_page_idx').on(t.mailingListId, t.insertedAt.desc(), t.id.desc())],
);
