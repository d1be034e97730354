import type { Db, Executor } from '../../../db/client.js';
import type { RequestContext } from '../../../shared/http/route.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { adOpsErrors } from '../ad-ops.errors.js';
import { type AdCategoriesRepository, adCategoryAggregate } from './ad-categories.repository.js';
import type { AdCategoryInput } from './ad-categories.schemas.js';

export function createAdCategoriesService(deps: {
  db: Db;
  repo: AdCategoriesRepository;
  /** Whether live ads belong to the category (ads own that knowledge). */
  inUse: (executor: Executor, mediaId: string, categoryId: string) => Promise<boolean>;
}) {
  const { db, repo } = deps;

  const load = async (executor: Executor, mediaId: string, id: string) => {
    const row = await repo.find(executor, mediaId, id);
    if (!row) throw adOpsErrors.adCategoryNotFound();
    return row;
  };

  return {
    list: (ctx: RequestContext, query: PagingQuery) => repo.list(db, ctx.mediaId, query),

    get: (ctx: RequestContext, id: string) => load(db, ctx.mediaId, id),

    create: async (ctx: RequestContext, input: AdCategoryInput) => load(db, ctx.mediaId, await repo.insert(db, ctx.mediaId, input.name)),

    replace: async (ctx: RequestContext, id: string, input: AdCategoryInput) => {
      if (!(await repo.rename(db, ctx.mediaId, id, input.name))) throw adOpsErrors.adCategoryNotFound();
      return load(db, ctx.mediaId, id);
    },

    /** Soft delete; refused (409) while ads belong to it, so that every ad keeps a live category. */
    remove: (ctx: RequestContext, id: string) =>
      db.transaction(async (tx) => {
        if (!(await adCategoryAggregate.lock(tx, id, ctx.mediaId))) throw adOpsErrors.adCategoryNotFound();
        if (await deps.inUse(tx, ctx.mediaId, id)) throw adOpsErrors.adCategoryInUse();
        await adCategoryAggregate.softDelete(tx, id, ctx.mediaId);
      }),

    restore: (ctx: RequestContext, id: string) =>
      db.transaction(async (tx) => {
        if ((await adCategoryAggregate.restore(tx, id, ctx.mediaId)) === 'not_found') throw adOpsErrors.adCategoryNotFound();
        return load(tx, ctx.mediaId, id);
      }),
  };
}

export type AdCategoriesService = ReturnType<typeof createAdCategoriesService>;
