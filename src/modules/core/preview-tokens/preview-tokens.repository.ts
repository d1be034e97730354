import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { type Paginator, newestFirst } from '../../../shared/paging.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { type PreviewTokenRow, previewTokens } from './preview-tokens.table.js';

const order = newestFirst<PreviewTokenRow>(previewTokens);

export function createPreviewTokensRepository(pager: Paginator) {
  return {
    async findByHash(db: Executor, tokenHash: string): Promise<PreviewTokenRow | undefined> {
      const [row] = await db.select().from(previewTokens).where(eq(previewTokens.tokenHash, tokenHash));
      return row;
    },

    async insert(db: Executor, values: typeof previewTokens.$inferInsert): Promise<PreviewTokenRow> {
      const [row] = await db.insert(previewTokens).values(values).returning();
      return row!;
    },

    /** A content's preview links, newest first, revoked and expired ones included. */
    listOfContent: (db: Executor, mediaId: string, contentId: string, query: PagingQuery) =>
      pager.page(
        {
          select: db.select().from(previewTokens),
          keyset: order,
          scope: `preview_links:${mediaId}:${contentId}`,
          where: and(eq(previewTokens.mediaId, mediaId), eq(previewTokens.contentId, contentId)),
        },
        query,
      ),

    /** Revokes a content's link; a revoked one keeps its first revocation time. Undefined when there is none. */
    async revokeOfContent(db: Executor, mediaId: string, contentId: string, id: string): Promise<PreviewTokenRow | undefined> {
      const [row] = await db
        .update(previewTokens)
        .set({ revokedAt: sql`coalesce(${previewTokens.revokedAt}, now())` })
        .where(and(eq(previewTokens.id, id), eq(previewTokens.mediaId, mediaId), eq(previewTokens.contentId, contentId)))
        .returning();
      return row;
    },

  };
}

export type PreviewTokensRepository = ReturnType<typeof createPreviewTokensRepository>;
