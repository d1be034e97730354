import { z } from 'zod';
import { newId } from '../../../db/columns.js';
import { aggregate, part } from '../../../shared/aggregate.js';
import { recordSchemas } from '../../../shared/record/index.js';
import { uuid } from '../../../shared/schemas.js';
import { publisherErrors } from '../publisher.errors.js';
import { type PublisherRecord, keyInput, publisherRecord } from '../publisher.collection.js';
import { menuLocales, menus } from './menus.table.js';

/** A menu item (spec 2.15): a link, and its own items below it. */
export interface MenuItem {
  id: string;
  name: string;
  url: string;
  open_new_tab: boolean;
  items: MenuItem[];
}

/** How deep menus nest: an item at the third level has no items. */
export const MENU_DEPTH = 3;

const menuUrl = z
  .string()
  .trim()
  .min(1)
  .max(2000)
  .refine((v) => (/^https?:\/\//i.test(v) ? URL.canParse(v) : /^\/[^\s]*$/.test(v)), {
    message: 'must be an http(s) URL or a path starting with /',
  })
  .describe('An http(s) URL, or a path of the website starting with /');

interface MenuItemInput {
  id?: string | undefined;
  name: string;
  url: string;
  open_new_tab?: boolean | undefined;
  items?: MenuItemInput[] | undefined;
}

/** The items of a level: at the last level, none (a deeper item is a 400 naming its path). */
const itemsAt = (depth: number): z.ZodType<MenuItemInput[]> =>
  z
    .array(
      z.strictObject({
        id: uuid.optional().describe('Kept when sent (an item sent back), made when left out'),
        name: z.string().trim().min(1).max(200),
        url: menuUrl,
        open_new_tab: z.boolean().optional(),
        items: depth < MENU_DEPTH ? itemsAt(depth + 1).optional() : z.array(z.unknown()).max(0, `menus nest at most ${MENU_DEPTH} levels deep`).optional(),
      }),
    )
    .max(100) as z.ZodType<MenuItemInput[]>;

export const menuItemSchema: z.ZodType<MenuItem> = z
  .object({
    id: uuid,
    name: z.string(),
    url: z.string(),
    open_new_tab: z.boolean(),
    get items(): z.ZodArray<z.ZodType<MenuItem>> {
      return z.array(menuItemSchema);
    },
  })
  .meta({ id: 'MenuItem' });

/** The stored tree: every item with an id and every field. */
const storedItems = (items: MenuItemInput[] | undefined): MenuItem[] =>
  (items ?? []).map((i) => ({ id: i.id ?? newId(), name: i.name, url: i.url, open_new_tab: i.open_new_tab ?? false, items: storedItems(i.items) }));

export const menuSchemas = recordSchemas('Menu', {
  fields: { key: z.string(), name: z.string() },
  input: { key: keyInput, name: z.string().trim().min(1).max(200) },
  locale: { items: z.array(menuItemSchema) },
  localeInput: { items: itemsAt(1) },
  examples: {
    create: {
      key: 'main',
      name: 'Main menu',
      locales: [{ locale: 'en', items: [{ name: 'News', url: '/news', items: [{ name: 'World', url: 'https://example.com/world', open_new_tab: true }] }] }],
    },
    update: { name: 'Main menu', locales: [{ locale: 'en', items: [{ name: 'News', url: '/news' }] }] },
  },
});

export const menuAggregate = aggregate(menus, {
  owner: menus.mediaId,
  conflict: publisherErrors.menu.conflict,
  parts: {
    locales: part(menuLocales, { parent: menuLocales.recordId, match: ['locale'], columns: ['id', 'locale', 'items', 'deletedAt'] }),
  },
});

export const menusCollection = {
  agg: menuAggregate,
  schemas: menuSchemas,
  ...publisherRecord('/menus', 'menu', 'menus', publisherErrors.menu),
  revisions: { keys: { locales: 'locale', 'locales.items': 'id', 'locales.items.items': 'id', 'locales.items.items.items': 'id' } },
  reader: { path: '/menus', by: 'key' },
  notes: { create: '`key` is unique among the live menus of the media (409 menu_key_taken); items nest at most 3 levels.' },
  prepare: (input) =>
    input.locales
      ? { ...input, locales: (input.locales as Array<{ locale: string; items: MenuItemInput[] }>).map((l) => ({ ...l, items: storedItems(l.items) })) }
      : input,
} satisfies PublisherRecord;
