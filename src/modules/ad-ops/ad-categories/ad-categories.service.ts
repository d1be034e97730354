import type { Executor } from '../../../db/client.js';
import { type RequestContext, transaction } from '../../../shared/context.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { adOpsErrors } from '../ad-ops.errors.js';
import { type AdCategoriesRepository, adCategoryAggregate } from './ad-categories.repository.js';
import type { AdCategoryInput } from './ad-categories.schemas.js';

export function createAdCategoriesService(deps: {
  repo: AdCategoriesRepository;
  /** Whether live ads belong to the category (ads own that knowledge). */
  inUse: (executor: Executor, mediaId: string, categoryId: string) => Promise<boolean>;
}) {
  const { repo } = deps;

  const load = async (executor: Executor, mediaId: string, id: string) => {
    const row = await repo.find(executor, mediaId, id);
    if (!row) throw adOpsErrors.adCategoryNotFound();
    return row;
  };

  return {
    list: (ctx: RequestContext, query: PagingQuery) => repo.list(ctx.db, ctx.mediaId, query),

    get: (ctx: RequestContext, id: string) => load(ctx.db, ctx.mediaId, id),

    create: async (ctx: RequestContext, input: AdCategoryInput) => load(ctx.db, ctx.mediaId, await repo.insert(ctx.db, ctx.mediaId, input.name)),

    replace: async (ctx: RequestContext, id: string, input: AdCategoryInput) => {
      if (!(await repo.rename(ctx.db, ctx.mediaId, id, input.name))) throw adOpsErrors.adCategoryNotFound();
      return load(ctx.db, ctx.mediaId, id);
    },

    /** Soft delete; refused (409) while ads belong to it, so that every ad keeps a live category. */
    remove: (ctx: RequestContext, id: string) =>
      transaction(ctx, async (tx) => {
        if (!(await adCategoryAggregate.lock(tx, id, ctx.mediaId))) throw adOpsErrors.adCategoryNotFound();
        if (await deps.inUse(tx, ctx.mediaId, id)) throw adOpsErrors.adCategoryInUse();
        await adCategoryAggregate.softDelete(tx, id, ctx.mediaId);
      }),

    restore: (ctx: RequestContext, id: string) =>
      transaction(ctx, async (tx) => {
        if ((await adCategoryAggregate.restore(tx, id, ctx.mediaId)) === 'not_found') throw adOpsErrors.adCategoryNotFound();
        return load(tx, ctx.mediaId, id);
      }),
  };
}

export type AdCategoriesService = ReturnType<typeof createAdCategoriesService>;
