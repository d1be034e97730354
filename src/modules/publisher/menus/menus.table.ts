import { jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { localesTable, recordIndexes } from '../../../db/columns.js';
import { recordColumns } from '../../core/tenancy/tenancy.table.js';
import type { MenuItem } from './menus.js';

/** A navigation menu of the media's website or apps, unique by key. */
export const menus = pgTable('menus', { ...recordColumns(), key: text('key').notNull(), name: text('name').notNull() }, (t) => recordIndexes('menus', t));

/** A menu's items per language: the tree (at most 3 levels) as one JSON value, in order. */
export const menuLocales = localesTable('menu_locales', 'menu_id', () => menus.id, {
  items: jsonb('items').$type<MenuItem[]>().notNull(),
});
