import { date, index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { localesTable, recordIndexes } from '../../../db/columns.js';
import { recordColumns } from '../../core/tenancy/tenancy.table.js';

/** A dated release (book, album, film, report) of an organization or a project. */
export const releases = pgTable(
  'releases',
  {
    ...recordColumns(),
    organizationId: uuid('organization_id'),
    projectId: uuid('project_id'),
    releasedOn: date('released_on', { mode: 'string' }).notNull(),
    coverImageKey: text('cover_image_key'),
    links: jsonb('links').$type<Array<{ label: string; url: string }>>().notNull().default([]),
  },
  (t) => [...recordIndexes('releases', t), index('releases_organization_idx').on(t.organizationId), index('releases_project_idx').on(t.projectId)],
);

export const releaseLocales = localesTable('release_locales', 'release_id', () => releases.id, {
  title: text('title').notNull(),
  descriptionHtml: text('description_html'),
  descriptionText: text('description_text'),
});
