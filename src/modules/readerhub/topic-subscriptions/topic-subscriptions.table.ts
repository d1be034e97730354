import { sql } from 'drizzle-orm';
import { index, pgTable, uniqueIndex } from 'drizzle-orm/pg-core';
import { deletedAt, idColumn, refColumn, timestamps } from '../../../db/columns.js';
import { topics } from '../../publisher/topics/topics.table.js';
import { readers } from '../accounts/accounts.table.js';

/** A reader following a topic; unsubscribing soft-deletes the row. */
export const readerTopicSubscriptions = pgTable(
  'reader_topic_subscriptions',
  {
    id: idColumn(),
    readerId: refColumn('reader_id', () => readers.id),
    topicId: refColumn('topic_id', () => topics.id),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    uniqueIndex('reader_topic_subscriptions_live_uq')
      .on(t.readerId, t.topicId)
      .where(sql`${t.deletedAt} is null`),
    index('reader_topic_subscriptions_reader_page_idx')
      .on(t.readerId, t.insertedAt.desc(), t.id.desc())
      .where(sql`${t.deletedAt} is null`),
    // Who follows a topic (notification fan-out).
    index('reader_topic_subscriptions_topic_idx')
      .on(t.topicId)
      .where(sql`${t.deletedAt} is null`),
  ],
);

export type ReaderTopicSubscriptionRow = typeof readerTopicSubscriptions.$inferSelect;
