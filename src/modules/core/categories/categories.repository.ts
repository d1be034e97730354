import { eq } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { type AggregateRow, aggregate, part } from '../../../shared/aggregate.js';
import type { Paginator } from '../../../shared/paging.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { coreErrors } from '../core.errors.js';
import { categories, categoryLocales } from './categories.table.js';

/** A category and its live locale entries, read in one statement. */
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

/** `published`: what readers see, live and not archived. */
export type CategoryView = 'all' | 'published';

export function createCategoriesRepository(pager: Paginator) {
  return {
    // The category reads are the hottest queries: each is prepared once per connection and shape.
    list: (db: Executor, mediaId: string, query: PagingQuery, view: CategoryView = 'all') =>
      categoryAggregate.page(pager, db, mediaId, query, { view: view === 'all' ? undefined : view }),

    find: (db: Executor, mediaId: string, id: string, view: CategoryView = 'all') =>
      categoryAggregate.find(db, id, mediaId, view === 'all' ? undefined : view),

    /** The categories among `ids` (in a view), in one statement: a Reader page's assocs. */
    findMany: (db: Executor, mediaId: string, ids: string[], view: CategoryView = 'all') =>
      categoryAggregate.findMany(db, ids, mediaId, view === 'all' ? undefined : view),

    async insert(db: Executor, values: typeof categories.$inferInsert): Promise<string> {
      const [row] = await db.insert(categories).values(values).returning({ id: categories.id });
      return row!.id;
    },

    async update(db: Executor, id: string, values: Partial<typeof categories.$inferInsert>): Promise<void> {
      // updated_at always moves, so that a PATCH of locales alone also marks the category.
      await db
        .update(categories)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(categories.id, id));
    },
  };
}

export type CategoriesRepository = ReturnType<typeof createCategoriesRepository>;
