import { sql } from 'drizzle-orm';
import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { deletedAt, timestamps } from '../../../db/columns.js';
import { keyedRecordColumns } from '../../core/tenancy/tenancy.table.js';

/** Subjects readers can follow (and be notified about). */
export const topics = pgTable(
  'topics',
  {
    ...keyedRecordColumns(),
    description: text('description'),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    // A deleted topic's key may be taken again (restoring it then is a 409).
    uniqueIndex('topics_media_live_key_uq').on(t.mediaId, t.key).where(sql`${t.deletedAt} is null`),
    index('topics_media_page_idx').on(t.mediaId, t.insertedAt, t.id),
  ],
);

export type TopicRow = typeof topics.$inferSelect;
