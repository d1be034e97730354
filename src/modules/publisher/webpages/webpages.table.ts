import { index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { statuses } from '../../core/tenancy/tenancy.table.js';
import { localesTable, recordIndexes } from '../../../db/columns.js';
import { recordColumns } from '../../core/tenancy/tenancy.table.js';
import { organizationPageIndex } from '../publisher.columns.js';
import { refColumn } from '../../../db/columns.js';

/** A page of the media's website (about, imprint, terms), unique by key, shown to readers in a published status. */
export const webpages = pgTable(
  'webpages',
  {
    ...recordColumns(),
    key: text('key').notNull(),
    organizationId: uuid('organization_id'),
    statusId: refColumn('status_id', () => statuses.id),
  },
  (t) => [...recordIndexes('webpages', t), index('webpages_status_idx').on(t.statusId), organizationPageIndex('webpages', t)],
);

export const webpageLocales = localesTable('webpage_locales', 'webpage_id', () => webpages.id, {
  title: text('title').notNull(),
  bodyHtml: text('body_html').notNull(),
  bodyText: text('body_text').notNull(),
  seo: jsonb('seo').$type<{ title?: string | null; description?: string | null }>(),
});
