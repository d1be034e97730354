import { index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { tstz } from '../../../db/columns.js';
import { localesTable, recordIndexes } from '../../../db/columns.js';
import { recordColumns } from '../../core/tenancy/tenancy.table.js';
import { organizationPageIndex } from '../publisher.columns.js';

/** A notice shown to readers inside its display window (starts_at..ends_at, either end open). */
export const announcements = pgTable(
  'announcements',
  {
    ...recordColumns(),
    organizationId: uuid('organization_id'),
    startsAt: tstz('starts_at'),
    endsAt: tstz('ends_at'),
    linkUrl: text('link_url'),
  },
  (t) => [...recordIndexes('announcements', t), index('announcements_organization_idx').on(t.organizationId), organizationPageIndex('announcements', t)],
);

export const announcementLocales = localesTable('announcement_locales', 'announcement_id', () => announcements.id, {
  title: text('title').notNull(),
  bodyHtml: text('body_html'),
  bodyText: text('body_text'),
});
