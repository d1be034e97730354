import { index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { tstz } from '../../../db/columns.js';
import { recordIndexes } from '../../../db/columns.js';
import { recordColumns } from '../../core/tenancy/tenancy.table.js';

/** A content published on an outside channel (web, app, newsletter, social, partner). */
export const publications = pgTable(
  'publications',
  {
    ...recordColumns(),
    contentId: uuid('content_id').notNull(),
    channel: text('channel').notNull(),
    externalUrl: text('external_url'),
    publishedAt: tstz('published_at').notNull(),
  },
  (t) => [...recordIndexes('publications', t), index('publications_content_idx').on(t.contentId)],
);
