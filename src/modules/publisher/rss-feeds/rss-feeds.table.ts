import { integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { localesTable, recordIndexes } from '../../../db/columns.js';
import { recordColumns } from '../../core/tenancy/tenancy.table.js';

/** An RSS feed: which published contents it lists (categories, templates, how many), unique by key. */
export const rssFeeds = pgTable(
  'rss_feeds',
  {
    ...recordColumns(),
    key: text('key').notNull(),
    categoryIds: uuid('category_ids').array().notNull().default([]),
    templateIds: uuid('template_ids').array().notNull().default([]),
    limit: integer('item_limit').notNull().default(20),
    siteUrl: text('site_url'),
  },
  (t) => recordIndexes('rss_feeds', t),
);

export const rssFeedLocales = localesTable('rss_feed_locales', 'rss_feed_id', () => rssFeeds.id, {
  title: text('title').notNull(),
  description: text('description'),
});
