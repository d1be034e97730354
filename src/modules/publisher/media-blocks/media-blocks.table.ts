import { pgTable, text } from 'drizzle-orm/pg-core';
import { localesTable, recordIndexes } from '../../../db/columns.js';
import { recordColumns } from '../../core/tenancy/tenancy.table.js';

/** A piece of HTML the media places on its pages (a footer, a banner), unique by key. */
export const mediaBlocks = pgTable('media_blocks', { ...recordColumns(), key: text('key').notNull() }, (t) => recordIndexes('media_blocks', t));

export const mediaBlockLocales = localesTable('media_block_locales', 'media_block_id', () => mediaBlocks.id, {
  contentHtml: text('content_html').notNull(),
  contentText: text('content_text').notNull(),
});
