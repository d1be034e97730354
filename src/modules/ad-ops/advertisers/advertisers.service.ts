import type { Executor } from '../../../db/client.js';
import type { RequestContext } from '../../../shared/context.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { adOpsErrors } from '../ad-ops.errors.js';
import type { AdvertisersRepository } from './advertisers.repository.js';
import type { AdvertiserInput } from './advertisers.schemas.js';

const valuesOf = (input: AdvertiserInput) => ({
  name: input.name,
  contactEmail: input.contact_email ?? null,
  website: input.website ?? null,
  isActive: input.is_active,
});

export function createAdvertisersService(deps: { repo: AdvertisersRepository }) {
  const { repo } = deps;

  const load = async (executor: Executor, mediaId: string, id: string) => {
    const row = await repo.find(executor, mediaId, id);
    if (!row) throw adOpsErrors.advertiserNotFound();
    return row;
  };

  return {
    list: (ctx: RequestContext, query: PagingQuery) => repo.list(ctx.db, ctx.mediaId, query),

    /** The active advertisers (whose ads may run), newest first. */
    listActive: (ctx: RequestContext, query: PagingQuery) => repo.listActive(ctx.db, ctx.mediaId, query),

    get: (ctx: RequestContext, id: string) => load(ctx.db, ctx.mediaId, id),

    /** The advertiser exists in the media (404 otherwise): the check before writing its ads. */
    assertExists: async (executor: Executor, mediaId: string, id: string) => {
      await load(executor, mediaId, id);
    },

    create: async (ctx: RequestContext, input: AdvertiserInput) => {
      const id = await repo.insert(ctx.db, ctx.mediaId, valuesOf(input));
      return load(ctx.db, ctx.mediaId, id);
    },

    replace: async (ctx: RequestContext, id: string, input: AdvertiserInput) => {
      if (!(await repo.update(ctx.db, ctx.mediaId, id, valuesOf(input)))) throw adOpsErrors.advertiserNotFound();
      return load(ctx.db, ctx.mediaId, id);
    },
  };
}

export type AdvertisersService = ReturnType<typeof createAdvertisersService>;
