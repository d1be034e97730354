import type { RequestContext } from '../../../shared/context.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { readerhubErrors } from '../readerhub.errors.js';
import type { InvitationsRepository } from './invitations.repository.js';
import type { InvitationCreate } from './invitations.schemas.js';

export function createInvitationsService(deps: { repo: InvitationsRepository }) {
  const { repo } = deps;

  const load = async (ctx: RequestContext, id: string) => {
    const row = await repo.find(ctx.db, ctx.mediaId, id);
    if (!row) throw readerhubErrors.invitationNotFound();
    return row;
  };

  return {
    create: (ctx: RequestContext, input: InvitationCreate) =>
      repo.insert(ctx.db, { mediaId: ctx.mediaId, email: input.email, productKey: input.product_key ?? null, expiresAt: input.expires_at }),

    list: (ctx: RequestContext, query: PagingQuery) => repo.list(ctx.db, ctx.mediaId, query),

    get: load,

    /** What the invitee opens: an expired invitation is not served (404 invitation_expired). */
    async open(ctx: RequestContext, id: string) {
      const row = await load(ctx, id);
      if (row.expiresAt.getTime() <= Date.now()) throw readerhubErrors.invitationExpired();
      return row;
    },
  };
}

export type InvitationsService = ReturnType<typeof createInvitationsService>;
