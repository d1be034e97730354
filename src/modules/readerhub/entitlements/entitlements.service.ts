import type { RequestContext } from '../../../shared/context.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import type { ReaderRow } from '../accounts/accounts.table.js';
import { readerhubErrors } from '../readerhub.errors.js';
import type { EntitlementsRepository } from './entitlements.repository.js';
import type { EntitlementCreate, EntitlementsQuery, ReaderEntitlementsQuery } from './entitlements.schemas.js';

export function createEntitlementsService(deps: { repo: EntitlementsRepository; accounts: AccountsService }) {
  const { repo, accounts } = deps;
  return {
    /** Grants a product to a reader of the media (another media's reader is a 404). */
    async create(ctx: RequestContext, input: EntitlementCreate) {
      const reader = await accounts.get(ctx, input.reader_id);
      const now = new Date();
      return repo.insert(
        ctx.db,
        {
          mediaId: ctx.mediaId,
          readerId: reader.id,
          productKey: input.product_key,
          startsAt: input.starts_at ?? now,
          endsAt: input.ends_at ?? null,
        },
        now,
      );
    },

    list: (ctx: RequestContext, query: EntitlementsQuery) =>
      repo.list(
        ctx.db,
        { mediaId: ctx.mediaId, readerId: query.reader_id, productKey: query.product_key, statuses: query.status },
        query,
        new Date(),
      ),

    async get(ctx: RequestContext, id: string) {
      const row = await repo.find(ctx.db, ctx.mediaId, id, new Date());
      if (!row) throw readerhubErrors.entitlementNotFound();
      return row;
    },

    /** Sets revoked_at and keeps the row; revoking a revoked entitlement changes nothing. */
    async revoke(ctx: RequestContext, id: string): Promise<void> {
      if (await repo.revoke(ctx.db, ctx.mediaId, id)) return;
      if (!(await repo.find(ctx.db, ctx.mediaId, id, new Date()))) throw readerhubErrors.entitlementNotFound();
    },

    /** The reader's own entitlements; only the active ones unless `status` asks for others. */
    listForReader: (ctx: RequestContext, reader: ReaderRow, query: ReaderEntitlementsQuery) =>
      repo.list(
        ctx.db,
        { mediaId: reader.mediaId, readerId: reader.id, productKey: query.product_key, statuses: query.status ?? ['active'] },
        query,
        new Date(),
      ),
  };
}

export type EntitlementsService = ReturnType<typeof createEntitlementsService>;
