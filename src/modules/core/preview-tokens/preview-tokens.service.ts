import { randomBytes } from 'node:crypto';
import type { Db } from '../../../db/client.js';
import type { Preview, RequestContext } from '../../../shared/context.js';
import { sha256 } from '../../../shared/ids.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { coreErrors } from '../core.errors.js';
import type { PreviewTokensRepository } from './preview-tokens.repository.js';

const TOKEN_PREFIX = 'mpp_';

export interface PreviewTokenIssue {
  /** The content a preview link opens; null for a media-wide time-travel token. */
  contentId: string | null;
  /** The instant a time-travel token shows the media at; null for a preview link (now). */
  asOf: Date | null;
  expiresIn: number;
}

/**
 * Preview tokens: random secrets (256 bits) shown once, kept as their SHA-256, short-lived and
 * revocable. Checked on each Reader request that carries one, on the primary and uncached, so
 * that a revocation holds at once (previews are rare next to published reads).
 */
export function createPreviewTokensService(deps: { db: Db; repo: PreviewTokensRepository }) {
  const { db, repo } = deps;
  return {
    /** The 401 a token that opens nothing answers. */
    invalid: coreErrors.previewTokenInvalid,

    async issue(ctx: RequestContext, input: PreviewTokenIssue) {
      const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
      const row = await repo.insert(ctx.db, {
        mediaId: ctx.mediaId,
        contentId: input.contentId,
        asOf: input.asOf,
        tokenHash: sha256(token),
        expiresAt: new Date(Date.now() + input.expiresIn * 1000),
      });
      return { row, token };
    },

    listOfContent: (ctx: RequestContext, contentId: string, query: PagingQuery) => repo.listOfContent(ctx.db, ctx.mediaId, contentId, query),

    async revokeOfContent(ctx: RequestContext, contentId: string, id: string): Promise<void> {
      if (!(await repo.revokeOfContent(ctx.db, ctx.mediaId, contentId, id))) throw coreErrors.previewLinkNotFound();
    },

    /** What a token lets the request of `mediaId` see, or 401 preview_token_invalid. */
    async resolve(mediaId: string, token: string): Promise<Preview> {
      const row = token.length >= 16 && token.length <= 200 ? await repo.findByHash(db, sha256(token)) : undefined;
      if (!row || row.mediaId !== mediaId || row.revokedAt || row.expiresAt.getTime() <= Date.now()) throw coreErrors.previewTokenInvalid();
      return { contentId: row.contentId, asOf: row.asOf };
    },
  };
}

export type PreviewTokensService = ReturnType<typeof createPreviewTokensService>;
