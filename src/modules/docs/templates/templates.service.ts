import type { Db, Executor } from '../../../db/client.js';
import { type RequestContext, transaction } from '../../../shared/context.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import type { ContentTypesService } from '../content-types/content-types.record.js';
import { docsErrors } from '../docs.errors.js';
import { toReaderTemplate } from './templates.mappers.js';
import { type TemplatesRepository, templateAggregate } from './templates.repository.js';
import type { TemplateCreate, TemplateUpdate } from './templates.schemas.js';

const contentTypeMissing = () =>
  docsErrors.referenceNotFound('content_type_not_found', 'the content type', [{ path: 'content_type_id', message: 'is not a content type of this media' }]);

/**
 * Templates. Every method given a context reads and writes on its executor (`ctx.db`, or the
 * transaction `transaction(ctx, …)` joins or opens); `deps.db` serves only the read made without
 * one: a Public path's media (`mediaOf`), before the handler.
 */
export function createTemplatesService(deps: { db: Db; repo: TemplatesRepository; contentTypes: ContentTypesService }) {
  const { db, repo, contentTypes } = deps;

  const load = async (executor: Executor, mediaId: string, id: string) => {
    const row = await repo.find(executor, mediaId, id);
    if (!row) throw docsErrors.templateNotFound();
    return row;
  };

  return {
    list: (ctx: RequestContext, query: PagingQuery) => repo.list(ctx.db, ctx.mediaId, query),

    get: (ctx: RequestContext, id: string) => load(ctx.db, ctx.mediaId, id),

    /** The media of a live template (a Public path names the template alone), else 404 template_not_found. */
    async mediaOf(id: string): Promise<string> {
      const mediaId = await repo.owner(db, id);
      if (!mediaId) throw docsErrors.templateNotFound();
      return mediaId;
    },

    /** The live template of the media, or undefined (contents check theirs). */
    find: (executor: Executor, mediaId: string, id: string) => repo.find(executor, mediaId, id),

    /** The rules a content follows: its template's, deleted or not. */
    rulesOf: async (executor: Executor, mediaId: string, id: string) => {
      const row = await repo.findAny(executor, mediaId, id);
      return { blockKinds: row?.blockKinds ?? [], metadataKeys: row?.metadataKeys ?? [] };
    },

    /** Reader assocs: the live templates among `ids`, in one statement. */
    summaries: async (executor: Executor, mediaId: string, ids: string[]) => (await repo.findMany(executor, mediaId, ids)).map(toReaderTemplate),

    create: (ctx: RequestContext, input: TemplateCreate) =>
      transaction(ctx, async (tx) => {
        if (!(await contentTypes.exists(tx, ctx.mediaId, input.content_type_id))) throw contentTypeMissing();
        const id = await repo.insert(tx, {
          mediaId: ctx.mediaId,
          contentTypeId: input.content_type_id,
          key: input.key,
          name: input.name,
          blockKinds: input.block_kinds,
          metadataKeys: input.metadata_keys,
        });
        return load(tx, ctx.mediaId, id);
      }),

    /** Narrowing block_kinds or metadata_keys does not touch existing contents; switching a content's template checks them. */
    update: (ctx: RequestContext, id: string, patch: TemplateUpdate) =>
      transaction(ctx, async (tx) => {
        if (!(await templateAggregate.lock(tx, id, ctx.mediaId))) throw docsErrors.templateNotFound();
        if (patch.content_type_id && !(await contentTypes.exists(tx, ctx.mediaId, patch.content_type_id))) throw contentTypeMissing();
        await repo.update(tx, ctx.mediaId, id, {
          ...(patch.content_type_id !== undefined && { contentTypeId: patch.content_type_id }),
          ...(patch.key !== undefined && { key: patch.key }),
          ...(patch.name !== undefined && { name: patch.name }),
          ...(patch.block_kinds !== undefined && { blockKinds: patch.block_kinds }),
          ...(patch.metadata_keys !== undefined && { metadataKeys: patch.metadata_keys }),
        });
        return load(tx, ctx.mediaId, id);
      }),

    async remove(ctx: RequestContext, id: string): Promise<void> {
      if (!(await transaction(ctx, (tx) => templateAggregate.softDelete(tx, id, ctx.mediaId)))) throw docsErrors.templateNotFound();
    },

    restore: (ctx: RequestContext, id: string) =>
      transaction(ctx, async (tx) => {
        if ((await templateAggregate.restore(tx, id, ctx.mediaId)) === 'not_found') throw docsErrors.templateNotFound();
        return load(tx, ctx.mediaId, id);
      }),
  };
}

export type TemplatesService = ReturnType<typeof createTemplatesService>;
