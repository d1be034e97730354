import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, timestamps } from '../../../db/columns.js';
import { mediaIdColumn } from '../../core/tenancy/tenancy.table.js';

/** What kind of issue (monthly, special…): records the spec references without defining. */
export const issueTypes = pgTable(
  'issue_types',
  {
    id: idColumn(),
    mediaId: mediaIdColumn(),
    key: text('key').notNull(),
    name: text('name').notNull(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('issue_types_media_key_uq').on(t.mediaId, t.key),
    index('issue_types_media_page_idx').on(t.mediaId, t.insertedAt.desc(), t.id.desc()),
  ],
);
