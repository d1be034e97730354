import type { Db, Executor } from '../../../db/client.js';
import type { ReaderView } from '../../../shared/http/reader.js';
import { sanitizeSvg } from '../../../shared/html.js';
import type { RequestContext } from '../../../shared/http/route.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { coreErrors } from '../core.errors.js';
import type { TenancyService } from '../tenancy/tenancy.service.js';
import { toReaderCategory } from './categories.mappers.js';
import { type CategoriesRepository, type CategoryView, categoryAggregate } from './categories.repository.js';
import type { CategoryCreate, CategoryLocaleInput, CategoryUpdate } from './categories.schemas.js';

const cleanIcon = (icon: string | null | undefined) => {
  if (icon === undefined || icon === null) return icon;
  const clean = sanitizeSvg(icon).trim();
  return clean === '' ? null : clean;
};

const localeEntries = (entries: CategoryLocaleInput[]) =>
  entries.map((l) => ({ locale: l.locale, name: l.name, description: l.description }));

export function createCategoriesService(deps: { db: Db; repo: CategoriesRepository; tenancy: TenancyService }) {
  const { db, repo, tenancy } = deps;

  const load = async (executor: Db | Parameters<Parameters<Db['transaction']>[0]>[0], mediaId: string, id: string, view?: CategoryView) => {
    const row = await repo.find(executor, mediaId, id, view);
    if (!row) throw coreErrors.categoryNotFound();
    return row;
  };

  return {
    list: (ctx: RequestContext, query: PagingQuery) => repo.list(db, ctx.mediaId, query),

    get: (ctx: RequestContext, id: string) => load(db, ctx.mediaId, id),

    /** What readers see: live, not archived. */
    listPublished: (ctx: RequestContext, query: PagingQuery) => repo.list(db, ctx.mediaId, query, 'published'),

    getPublished: (ctx: RequestContext, id: string) => load(db, ctx.mediaId, id, 'published'),

    /** Reader summaries (spec 2.4) of the live, not archived categories among `ids`: a page's assocs, one statement. */
    summaries: async (mediaId: string, ids: string[], view: Pick<ReaderView, 'locale' | 'fallback'>) =>
      (await repo.findMany(db, mediaId, ids, 'published')).map((row) => toReaderCategory(row, view)),

    /** The ids among `ids` that are not live categories of the media (records that point at categories check theirs). */
    async missing(executor: Executor, mediaId: string, ids: string[]): Promise<string[]> {
      if (ids.length === 0) return [];
      const found = new Set((await repo.findMany(executor, mediaId, ids)).map((row) => row.id));
      return ids.filter((id) => !found.has(id));
    },

    async create(ctx: RequestContext, input: CategoryCreate) {
      await tenancy.assertLocales(ctx.mediaId, input.locales);
      return db.transaction(async (tx) => {
        const id = await repo.insert(tx, {
          mediaId: ctx.mediaId,
          svgIcon: cleanIcon(input.svg_icon) ?? null,
          isArchived: input.is_archived ?? false,
        });
        await categoryAggregate.replace(tx, 'locales', id, localeEntries(input.locales));
        return load(tx, ctx.mediaId, id);
      });
    },

    /** Updates fields; `locales`, when given, is the complete set of live entries. */
    async update(ctx: RequestContext, id: string, patch: CategoryUpdate) {
      if (patch.locales) await tenancy.assertLocales(ctx.mediaId, patch.locales);
      return db.transaction(async (tx) => {
        if (!(await categoryAggregate.lock(tx, id, ctx.mediaId))) throw coreErrors.categoryNotFound();
        await repo.update(tx, id, {
          ...(patch.svg_icon !== undefined && { svgIcon: cleanIcon(patch.svg_icon) }),
          ...(patch.is_archived !== undefined && { isArchived: patch.is_archived }),
        });
        if (patch.locales) await categoryAggregate.replace(tx, 'locales', id, localeEntries(patch.locales));
        return load(tx, ctx.mediaId, id);
      });
    },

    async remove(ctx: RequestContext, id: string): Promise<void> {
      const deleted = await db.transaction((tx) => categoryAggregate.softDelete(tx, id, ctx.mediaId));
      if (!deleted) throw coreErrors.categoryNotFound();
    },

    async restore(ctx: RequestContext, id: string) {
      return db.transaction(async (tx) => {
        if ((await categoryAggregate.restore(tx, id, ctx.mediaId)) === 'not_found') throw coreErrors.categoryNotFound();
        return load(tx, ctx.mediaId, id);
      });
    },
  };
}

export type CategoriesService = ReturnType<typeof createCategoriesService>;
