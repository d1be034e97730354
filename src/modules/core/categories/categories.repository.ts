import { and, eq, getTableColumns, isNull, notInArray, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { type Aggregate } from '../../../shared/soft-delete.js';
import { type Paginator, newestFirst } from '../../../shared/paging.js';
import { statementCache } from '../../../shared/prepared.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { type CategoryRow, categories, categoryLocales } from './categories.table.js';

export interface CategoryLocaleJson {
  id: string;
  locale: string;
  name: string;
  description: string | null;
  deleted_at: string | null;
}
export type CategoryWithLocales = CategoryRow & { locales: CategoryLocaleJson[] };

export const categoryAggregate: Aggregate = {
  table: categories,
  id: categories.id,
  deletedAt: categories.deletedAt,
  owner: categories.mediaId,
  parts: [{ table: categoryLocales, parentId: categoryLocales.categoryId, deletedAt: categoryLocales.deletedAt }],
};

const order = newestFirst<CategoryWithLocales>(categories);

// The live locale entries of each category, aggregated in the same query: one round trip
// per page, whatever its size.
const withLocales = {
  ...getTableColumns(categories),
  // Qualified by hand: Drizzle leaves column names unqualified in single-table selects.
  locales: sql<CategoryLocaleJson[]>`coalesce((
    select json_agg(json_build_object(
      'id', cl.id, 'locale', cl.locale, 'name', cl.name, 'description', cl.description, 'deleted_at', cl.deleted_at
    ) order by cl.id)
    from category_locales cl
    where cl.category_id = ${categories}.id and cl.deleted_at is null
  ), '[]'::json)`.as('locales'),
};

type View = 'all' | 'published';

const live = (view: View) =>
  and(isNull(categories.deletedAt), view === 'published' ? eq(categories.isArchived, false) : undefined);

// The category reads are the hottest queries: prepared once per executor and shape.
const statements = statementCache<CategoryWithLocales>();

export function createCategoriesRepository(pager: Paginator) {
  return {
    /** Live categories; `published` leaves out archived ones too (what readers see). */
    async list(db: Executor, mediaId: string, query: PagingQuery, view: View = 'all') {
      const plan = pager.preparedPlan(order, `categories:${view}:${mediaId}`, query);
      const statement = statements(db, `list:${view}:${plan.shape}`, () =>
        db
          .select(withLocales)
          .from(categories)
          .where(and(eq(categories.mediaId, sql.placeholder('mediaId')), live(view), plan.where))
          .orderBy(...plan.orderBy)
          .limit(plan.limitParam)
          .prepare(`categories_list_${view}_${plan.shape}`),
      );
      return plan.finish(await statement.execute({ mediaId, ...plan.params }));
    },

    async find(db: Executor, mediaId: string, id: string, view: View = 'all'): Promise<CategoryWithLocales | undefined> {
      const statement = statements(db, `find:${view}`, () =>
        db
          .select(withLocales)
          .from(categories)
          .where(and(eq(categories.id, sql.placeholder('id')), eq(categories.mediaId, sql.placeholder('mediaId')), live(view)))
          .prepare(`categories_find_${view}`),
      );
      const [row] = await statement.execute({ id, mediaId });
      return row;
    },

    /** Locks a live category for the rest of the transaction; false when there is none. */
    async lock(db: Executor, mediaId: string, id: string): Promise<boolean> {
      const rows = await db
        .select({ id: categories.id })
        .from(categories)
        .where(and(eq(categories.id, id), eq(categories.mediaId, mediaId), isNull(categories.deletedAt)))
        .for('update');
      return rows.length > 0;
    },

    async insert(db: Executor, values: typeof categories.$inferInsert): Promise<CategoryRow> {
      const [row] = await db.insert(categories).values(values).returning();
      return row!;
    },

    async update(db: Executor, id: string, values: Partial<typeof categories.$inferInsert>): Promise<void> {
      // updated_at always moves, so that a PATCH of locales alone also marks the category.
      await db
        .update(categories)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(categories.id, id));
    },

    async insertLocales(db: Executor, values: Array<typeof categoryLocales.$inferInsert>): Promise<void> {
      if (values.length > 0) await db.insert(categoryLocales).values(values);
    },

    async liveLocales(db: Executor, categoryId: string) {
      return db
        .select({ id: categoryLocales.id, locale: categoryLocales.locale })
        .from(categoryLocales)
        .where(and(eq(categoryLocales.categoryId, categoryId), isNull(categoryLocales.deletedAt)));
    },

    async updateLocale(db: Executor, id: string, values: { name: string; description?: string | null }): Promise<void> {
      await db.update(categoryLocales).set(values).where(eq(categoryLocales.id, id));
    },

    /** Soft-deletes the live entries whose language is not in `keep`, each on its own. */
    async deleteLocalesExcept(db: Executor, categoryId: string, keep: string[]): Promise<void> {
      await db
        .update(categoryLocales)
        .set({ deletedAt: sql`now()` })
        .where(
          and(
            eq(categoryLocales.categoryId, categoryId),
            isNull(categoryLocales.deletedAt),
            keep.length > 0 ? notInArray(categoryLocales.locale, keep) : undefined,
          ),
        );
    },
  };
}

export type CategoriesRepository = ReturnType<typeof createCategoriesRepository>;
