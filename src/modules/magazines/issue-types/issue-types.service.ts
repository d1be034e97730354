import type { Db, Executor } from '../../../db/client.js';
import type { RequestContext } from '../../../shared/http/route.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { magazinesErrors } from '../magazines.errors.js';
import { type IssueTypesRepository, issueTypeAggregate } from './issue-types.repository.js';
import type { IssueTypeCreate, IssueTypeUpdate } from './issue-types.schemas.js';

export function createIssueTypesService(deps: { db: Db; repo: IssueTypesRepository }) {
  const { db, repo } = deps;

  const load = async (executor: Executor, mediaId: string, id: string) => {
    const row = await repo.find(executor, mediaId, id);
    if (!row) throw magazinesErrors.issueTypeNotFound();
    return row;
  };

  return {
    list: (ctx: RequestContext, query: PagingQuery) => repo.list(db, ctx.mediaId, query),

    get: (ctx: RequestContext, id: string) => load(db, ctx.mediaId, id),

    /** Whether an issue type of the media has this id (issues point at one). */
    exists: async (executor: Executor, mediaId: string, id: string) => Boolean(await repo.find(executor, mediaId, id)),

    create: (ctx: RequestContext, input: IssueTypeCreate) =>
      db.transaction(async (tx) => load(tx, ctx.mediaId, await repo.insert(tx, { mediaId: ctx.mediaId, key: input.key, name: input.name }))),

    update: (ctx: RequestContext, id: string, patch: IssueTypeUpdate) =>
      db.transaction(async (tx) => {
        if (!(await issueTypeAggregate.lock(tx, id, ctx.mediaId))) throw magazinesErrors.issueTypeNotFound();
        await repo.update(tx, ctx.mediaId, id, {
          ...(patch.key !== undefined && { key: patch.key }),
          ...(patch.name !== undefined && { name: patch.name }),
        });
        return load(tx, ctx.mediaId, id);
      }),
  };
}

export type IssueTypesService = ReturnType<typeof createIssueTypesService>;
