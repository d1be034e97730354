import { index, pgTable, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from '../../../db/columns.js';
import { keyedRecordColumns } from '../../core/tenancy/tenancy.table.js';

/** What kind of issue (monthly, special…): records the spec references without defining. */
export const issueTypes = pgTable(
  'issue_types',
  {
    ...keyedRecordColumns(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('issue_types_media_key_uq').on(t.mediaId, t.key),
    index('issue_types_media_page_idx').on(t.mediaId, t.insertedAt.desc(), t.id.desc()),
  ],
);
