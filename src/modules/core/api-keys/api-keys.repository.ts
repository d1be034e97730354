import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { type Paginator, newestFirst } from '../../../shared/paging.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { type ApiKeyRow, apiKeys } from './api-keys.table.js';

const order = newestFirst<ApiKeyRow>(apiKeys);

export function createApiKeysRepository(pager: Paginator) {
  return {
    async findByHash(db: Executor, keyHash: string): Promise<ApiKeyRow | undefined> {
      const [row] = await db.select().from(apiKeys).where(eq(apiKeys.keyHash, keyHash));
      return row;
    },

    async find(db: Executor, mediaId: string, id: string): Promise<ApiKeyRow | undefined> {
      const [row] = await db
        .select()
        .from(apiKeys)
        .where(and(eq(apiKeys.id, id), eq(apiKeys.mediaId, mediaId)));
      return row;
    },

    async findAnyMedia(db: Executor, id: string): Promise<ApiKeyRow | undefined> {
      const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, id));
      return row;
    },

    list: (db: Executor, mediaId: string, query: PagingQuery) =>
      pager.page({ select: db.select().from(apiKeys), keyset: order, scope: `api_keys:${mediaId}`, where: eq(apiKeys.mediaId, mediaId) }, query),

    async insert(db: Executor, values: typeof apiKeys.$inferInsert): Promise<ApiKeyRow> {
      const [row] = await db.insert(apiKeys).values(values).returning();
      return row!;
    },

    /** Revokes a live key; an already revoked key keeps its first revocation time. */
    async revoke(db: Executor, mediaId: string, id: string): Promise<ApiKeyRow | undefined> {
      const [row] = await db
        .update(apiKeys)
        .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, now())` })
        .where(and(eq(apiKeys.id, id), eq(apiKeys.mediaId, mediaId)))
        .returning();
      return row;
    },

    async revokeNamedExcept(db: Executor, mediaId: string, name: string, keepId: string): Promise<ApiKeyRow[]> {
      return db
        .update(apiKeys)
        .set({ revokedAt: sql`now()` })
        .where(and(eq(apiKeys.mediaId, mediaId), eq(apiKeys.name, name), ne(apiKeys.id, keepId), isNull(apiKeys.revokedAt)))
        .returning();
    },

    async touch(db: Executor, id: string, at: Date): Promise<void> {
      await db
        .update(apiKeys)
        .set({ lastUsedAt: at, updatedAt: sql`${apiKeys.updatedAt}` })
        .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)));
    },
  };
}

export type ApiKeysRepository = ReturnType<typeof createApiKeysRepository>;
