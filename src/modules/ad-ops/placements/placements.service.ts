import type { Executor } from '../../../db/client.js';
import { type RequestContext, transaction } from '../../../shared/context.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { adOpsErrors } from '../ad-ops.errors.js';
import type { PlacementsRepository } from './placements.repository.js';
import type { PlacementInput } from './placements.schemas.js';

/** Whether a magazine issue is a live one of the media (the magazines module answers). */
export type IssueCheck = (db: Executor, mediaId: string, issueId: string) => Promise<boolean>;

export function createPlacementsService(deps: {
  repo: PlacementsRepository;
  adExists: (executor: Executor, mediaId: string, id: string) => Promise<boolean>;
  issueExists: IssueCheck;
}) {
  const { repo } = deps;

  const assertAd = async (executor: Executor, mediaId: string, adId: string) => {
    if (!(await deps.adExists(executor, mediaId, adId))) throw adOpsErrors.adNotFound();
  };

  return {
    listInAd: async (ctx: RequestContext, adId: string, query: PagingQuery) => {
      await assertAd(ctx.db, ctx.mediaId, adId);
      return repo.listInAd(ctx.db, ctx.mediaId, adId, query);
    },

    /** Spec "Place an Ad in Issue or Media": 404 for an unknown ad or issue, 409 when it is placed there already. */
    place: (ctx: RequestContext, adId: string, input: PlacementInput) =>
      transaction(ctx, async (tx) => {
        await assertAd(tx, ctx.mediaId, adId);
        const issueId = input.target === 'issue' ? input.issue_id : null;
        if (issueId && !(await deps.issueExists(tx, ctx.mediaId, issueId))) {
          throw adOpsErrors.referenceNotFound('issue_not_found', 'the magazine issue', 'issue_id');
        }
        const id = await repo.insert(tx, { mediaId: ctx.mediaId, adId, target: input.target, issueId, position: input.position ?? null });
        return (await repo.find(tx, ctx.mediaId, id))!;
      }),

    remove: async (ctx: RequestContext, id: string) => {
      if (!(await repo.remove(ctx.db, ctx.mediaId, id))) throw adOpsErrors.placementNotFound();
    },
  };
}

export type PlacementsService = ReturnType<typeof createPlacementsService>;
