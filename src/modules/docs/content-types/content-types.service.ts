import type { Db, Executor } from '../../../db/client.js';
import type { RequestContext } from '../../../shared/http/route.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { docsErrors } from '../docs.errors.js';
import { type ContentTypesRepository, contentTypeAggregate } from './content-types.repository.js';
import type { ContentTypeCreate, ContentTypeUpdate } from './content-types.schemas.js';

export function createContentTypesService(deps: { db: Db; repo: ContentTypesRepository }) {
  const { db, repo } = deps;

  const load = async (executor: Executor, mediaId: string, id: string) => {
    const row = await repo.find(executor, mediaId, id);
    if (!row) throw docsErrors.contentTypeNotFound();
    return row;
  };

  return {
    list: (ctx: RequestContext, query: PagingQuery) => repo.list(db, ctx.mediaId, query),

    get: (ctx: RequestContext, id: string) => load(db, ctx.mediaId, id),

    /** Whether a live content type of the media has this id (templates point at one). */
    exists: async (executor: Executor, mediaId: string, id: string) => Boolean(await repo.find(executor, mediaId, id)),

    create: (ctx: RequestContext, input: ContentTypeCreate) =>
      db.transaction(async (tx) => {
        const id = await repo.insert(tx, { mediaId: ctx.mediaId, key: input.key, name: input.name, description: input.description ?? null });
        return load(tx, ctx.mediaId, id);
      }),

    update: (ctx: RequestContext, id: string, patch: ContentTypeUpdate) =>
      db.transaction(async (tx) => {
        if (!(await contentTypeAggregate.lock(tx, id, ctx.mediaId))) throw docsErrors.contentTypeNotFound();
        await repo.update(tx, ctx.mediaId, id, {
          ...(patch.key !== undefined && { key: patch.key }),
          ...(patch.name !== undefined && { name: patch.name }),
          ...(patch.description !== undefined && { description: patch.description }),
        });
        return load(tx, ctx.mediaId, id);
      }),

    async remove(ctx: RequestContext, id: string): Promise<void> {
      if (!(await db.transaction((tx) => contentTypeAggregate.softDelete(tx, id, ctx.mediaId)))) throw docsErrors.contentTypeNotFound();
    },

    restore: (ctx: RequestContext, id: string) =>
      db.transaction(async (tx) => {
        if ((await contentTypeAggregate.restore(tx, id, ctx.mediaId)) === 'not_found') throw docsErrors.contentTypeNotFound();
        return load(tx, ctx.mediaId, id);
      }),
  };
}

export type ContentTypesService = ReturnType<typeof createContentTypesService>;
