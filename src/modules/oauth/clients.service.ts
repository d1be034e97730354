import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/client.js';
import { type RequestContext, afterCommit, transaction } from '../../shared/context.js';
import { isUuid, sha256 } from '../../shared/ids.js';
import type { PagingQuery } from '../../shared/schemas.js';
import { oauthErrors } from './oauth.errors.js';
import type { OAuthRepository } from './oauth.repository.js';
import type { OAuthClientCreate } from './oauth.schemas.js';
import type { OAuthClientRow } from './oauth.table.js';

/**
 * `deps.db` serves the lookups made outside any request's context: the bearer verifier's cache
 * (shared by every request) and the token endpoint's rate limit, which names a client before
 * the handler runs.
 */
export function createClientsService(deps: { db: Db; repo: OAuthRepository; onRevoke: (clientId: string) => void }) {
  const { db, repo, onRevoke } = deps;
  return {
    /** A public client gets no usable secret: its hash is of random bytes nobody sees. */
    async create(ctx: RequestContext, input: OAuthClientCreate) {
      const secret = `mpc_${randomBytes(32).toString('base64url')}`;
      const isPublic = input.type === 'public';
      const row = await repo.insertClient(ctx.db, {
        mediaId: ctx.mediaId,
        name: input.name,
        scopes: input.scopes,
        clientType: input.type,
        secretHash: sha256(secret),
        secretPrefix: isPublic ? '' : secret.slice(0, 8),
      });
      return { row, secret: isPublic ? null : secret };
    },

    list: (ctx: RequestContext, query: PagingQuery) => repo.listClients(ctx.db, ctx.mediaId, query),

    async get(ctx: RequestContext, id: string) {
      const row = await repo.findClient(ctx.db, id);
      if (!row || row.mediaId !== ctx.mediaId) throw oauthErrors.clientNotFound();
      return row;
    },

    /** Revokes the client and every refresh token it holds; its access tokens stop at once. */
    async revoke(ctx: RequestContext, id: string): Promise<void> {
      await transaction(ctx, async (tx) => {
        const row = await repo.revokeClient(tx, ctx.mediaId, id);
        if (!row) throw oauthErrors.clientNotFound();
        await repo.revokeClientRefreshTokens(tx, id);
      });
      // Once committed: a cache refilled before then would keep the client live.
      afterCommit(ctx, () => onRevoke(id));
    },

    /** A live client of any media by id, or undefined. */
    async findLive(id: string): Promise<OAuthClientRow | undefined> {
      if (!isUuid(id)) return undefined;
      const row = await repo.findClient(db, id);
      return row && !row.revokedAt ? row : undefined;
    },

    /** The live client whose secret matches, compared in constant time; undefined otherwise. */
    async authenticate(id: string, secret: string): Promise<OAuthClientRow | undefined> {
      const row = await this.findLive(id);
      if (!row || row.clientType === 'public') return undefined;
      const given = Buffer.from(sha256(secret), 'hex');
      const stored = Buffer.from(row.secretHash, 'hex');
      return given.length === stored.length && timingSafeEqual(given, stored) ? row : undefined;
    },
  };
}

export type ClientsService = ReturnType<typeof createClientsService>;
