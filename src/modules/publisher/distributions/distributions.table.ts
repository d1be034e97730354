import { index, integer, jsonb, pgTable, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { text } from 'drizzle-orm/pg-core';
import { idColumn, refColumn } from '../../../db/columns.js';
import { localesTable, recordIndexes } from '../../../db/columns.js';
import { recordColumns } from '../../core/tenancy/tenancy.table.js';
import { organizationPageIndex } from '../publisher.columns.js';

/** The credits of an event or a project, owned by an organization. */
export const distributions = pgTable(
  'distributions',
  {
    ...recordColumns(),
    organizationId: uuid('organization_id').notNull(),
    eventId: uuid('event_id'),
    projectId: uuid('project_id'),
  },
  (t) => [
    ...recordIndexes('distributions', t),
    organizationPageIndex('distributions', t),
    index('distributions_event_idx').on(t.eventId),
    index('distributions_project_idx').on(t.projectId),
  ],
);

/** A credit: a person in a role, in order (position unique per distribution). */
export const distributionEntries = pgTable(
  'distribution_entries',
  {
    id: idColumn(),
    distributionId: refColumn('distribution_id', () => distributions.id),
    position: integer('position').notNull(),
    role: text('role').notNull(),
    profileId: uuid('profile_id').notNull(),
  },
  (t) => [uniqueIndex('distribution_entries_position_uq').on(t.distributionId, t.position), index('distribution_entries_profile_idx').on(t.profileId)],
);

/** Per language: the distribution's title and the names of its roles. */
export const distributionLocales = localesTable('distribution_locales', 'distribution_id', () => distributions.id, {
  title: text('title'),
  roleNames: jsonb('role_names').$type<Array<{ role: string; name: string }>>().notNull().default([]),
});
