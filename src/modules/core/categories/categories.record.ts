import { eq } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { type AggregateRow, aggregate, part } from '../../../shared/aggregate.js';
import type { ReaderView } from '../../../shared/http/reader.js';
import { sanitizeSvg } from '../../../shared/html.js';
import { readerNamed, toNamedLocales } from '../../../shared/named-locales.js';
import { type RecordDeps, declaredService, defineRecord, named } from '../../../shared/record/index.js';
import { iso, stamped } from '../../../shared/time.js';
import { coreErrors } from '../core.errors.js';
import { coreTags } from '../core.tags.js';
import { categoryCreateBody, categorySchema, categoryUpdateBody, readerCategorySchema } from './categories.schemas.js';
import { categories, categoryLocales } from './categories.table.js';

/** A category and its live locale entries, read in one statement; readers see the ones not archived. */
export const categoryAggregate = aggregate(categories, {
  owner: categories.mediaId,
  conflict: coreErrors.categoryConflict,
  views: { published: eq(categories.isArchived, false) },
  parts: {
    locales: part(categoryLocales, {
      parent: categoryLocales.categoryId,
      match: ['locale'],
      columns: ['id', 'locale', 'name', 'description', 'deletedAt'],
    }),
  },
});

export type CategoryWithLocales = AggregateRow<typeof categories, typeof categoryAggregate.parts>;

export const toBackofficeCategory = (row: CategoryWithLocales) =>
  stamped({ id: row.id, locales: toNamedLocales(row.locales), svg_icon: row.svgIcon, is_archived: row.isArchived }, row);

/** Reader view (spec 2.4): one language, chosen by the locale rule. */
export const toReaderCategory = (row: CategoryWithLocales, view: Pick<ReaderView, 'locale' | 'fallback'>) => {
  const { name, description, meta } = readerNamed(row.locales, view);
  return { id: row.id, name, description, svg_icon: row.svgIcon, meta, updated_at: iso(row.updatedAt) };
};

/** An inline SVG as stored: shapes only, no scripts; nothing left is no icon. */
const cleanIcon = (icon: unknown) => {
  if (typeof icon !== 'string') return icon;
  const clean = sanitizeSvg(icon).trim();
  return clean === '' ? null : clean;
};

export const categoryRecord = defineRecord({
  ...named('category', 'categories'),
  area: { read: 'core:read', write: 'core:write' },
  path: '/categories',
  tags: { backoffice: coreTags.categories, reader: coreTags.readerCategories },
  agg: categoryAggregate,
  schemas: { item: categorySchema, create: categoryCreateBody, update: categoryUpdateBody, reader: readerCategorySchema },
  notFound: coreErrors.categoryNotFound,
  conflict: coreErrors.categoryConflict,
  toWire: toBackofficeCategory,
  prepare: (input) => ('svg_icon' in input ? { ...input, svg_icon: cleanIcon(input.svg_icon) } : input),
  errors: [],
  docs: {
    list: { description: "Live categories of the key's media, newest first, with their live locale entries." },
    create: { description: undefined },
    update: { description: 'Fields left out keep their value. `locales`, when sent, is the complete set of locale entries.' },
    remove: { description: 'Sets deleted_at on the category and its live locale entries; restore brings them back.' },
    restore: { errors: [] },
  },
  reader: { path: '/categories', view: 'published', list: true, toReader: toReaderCategory },
});

/** Categories: the declared record's service, with what other areas ask of categories. */
export function createCategoriesService(deps: RecordDeps) {
  const records = declaredService(deps, categoryRecord);
  return {
    ...records,
    /** Reader summaries (spec 2.4) of the live, not archived categories among `ids`: a page's assocs, one statement. */
    summaries: async (executor: Executor, mediaId: string, ids: string[], view: Pick<ReaderView, 'locale' | 'fallback'>) =>
      (await categoryAggregate.findMany(executor, ids, mediaId, 'published')).map((row) => toReaderCategory(row, view)),
    /** The live categories of the media among `ids` (records that point at categories check theirs). */
    live: async (executor: Executor, mediaId: string, ids: string[]): Promise<Set<string>> =>
      new Set(ids.length === 0 ? [] : (await categoryAggregate.findMany(executor, ids, mediaId)).map((row) => row.id)),
  };
}

export type CategoriesService = ReturnType<typeof createCategoriesService>;
