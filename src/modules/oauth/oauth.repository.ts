import { and, desc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { aggregate } from '../../shared/aggregate.js';
import { uniqueOr } from '../../shared/errors.js';
import { type Paginator, newestFirst } from '../../shared/paging.js';
import type { PagingQuery } from '../../shared/schemas.js';
import { oauthErrors } from './oauth.errors.js';
import {
  type OAuthClientRow,
  type OAuthProviderRow,
  type OAuthRefreshTokenRow,
  type OAuthSigningKeyRow,
  oauthClients,
  oauthProviders,
  oauthRefreshTokens,
  oauthSigningKeys,
} from './oauth.table.js';

/**
 * Identity providers are removed softly: live ones are the filter of every read, and a
 * removal stamps deleted_at. Rows are read with plain selects (Date timestamps), as the
 * bearer verifier and the provider client take them.
 */
export const providerAggregate = aggregate(oauthProviders, {
  owner: oauthProviders.mediaId,
  conflict: oauthErrors.providerExists,
  parts: {},
});

const clientOrder = newestFirst<OAuthClientRow>(oauthClients);
const providerOrder = newestFirst<OAuthProviderRow>(oauthProviders);

export function createOAuthRepository(pager: Paginator) {
  return {
    // --- clients
    listClients: (db: Executor, mediaId: string, query: PagingQuery) =>
      pager.page(
        {
          select: db.select().from(oauthClients),
          keyset: clientOrder,
          scope: `oauth_clients:${mediaId}`,
          where: eq(oauthClients.mediaId, mediaId),
        },
        query,
      ),

    async findClient(db: Executor, id: string): Promise<OAuthClientRow | undefined> {
      const [row] = await db.select().from(oauthClients).where(eq(oauthClients.id, id));
      return row;
    },

    async insertClient(db: Executor, values: typeof oauthClients.$inferInsert): Promise<OAuthClientRow> {
      const [row] = await db.insert(oauthClients).values(values).returning();
      return row!;
    },

    async revokeClient(db: Executor, mediaId: string, id: string): Promise<OAuthClientRow | undefined> {
      const [row] = await db
        .update(oauthClients)
        .set({ revokedAt: sql`coalesce(${oauthClients.revokedAt}, now())` })
        .where(and(eq(oauthClients.id, id), eq(oauthClients.mediaId, mediaId)))
        .returning();
      return row;
    },

    // --- providers
    listProviders: (db: Executor, mediaId: string, query: PagingQuery) =>
      pager.page(
        {
          select: db.select().from(oauthProviders),
          keyset: providerOrder,
          scope: `oauth_providers:${mediaId}`,
          where: and(eq(oauthProviders.mediaId, mediaId), providerAggregate.filter()),
        },
        query,
      ),

    async liveProviders(db: Executor, mediaId: string): Promise<OAuthProviderRow[]> {
      return db
        .select()
        .from(oauthProviders)
        .where(and(eq(oauthProviders.mediaId, mediaId), providerAggregate.filter()))
        .orderBy(oauthProviders.name, oauthProviders.id);
    },

    async findProvider(db: Executor, mediaId: string, id: string): Promise<OAuthProviderRow | undefined> {
      const [row] = await db
        .select()
        .from(oauthProviders)
        .where(and(eq(oauthProviders.id, id), eq(oauthProviders.mediaId, mediaId), providerAggregate.filter()));
      return row;
    },

    async insertProvider(db: Executor, values: typeof oauthProviders.$inferInsert): Promise<OAuthProviderRow> {
      const [row] = await uniqueOr(db.insert(oauthProviders).values(values).returning(), oauthErrors.providerExists);
      return row!;
    },

    /** Soft-deletes a live provider; false when there is none. */
    deleteProvider: (db: Executor, mediaId: string, id: string): Promise<boolean> =>
      providerAggregate.softDelete(db, id, mediaId),

    // --- signing keys
    /** Keys that still verify tokens, newest first; the first one signs. */
    async liveSigningKeys(db: Executor, mediaId: string): Promise<OAuthSigningKeyRow[]> {
      return db
        .select()
        .from(oauthSigningKeys)
        .where(
          and(
            eq(oauthSigningKeys.mediaId, mediaId),
            or(isNull(oauthSigningKeys.retireAt), gt(oauthSigningKeys.retireAt, sql`now()`)),
          ),
        )
        .orderBy(desc(oauthSigningKeys.insertedAt), desc(oauthSigningKeys.id));
    },

    async insertSigningKey(db: Executor, values: typeof oauthSigningKeys.$inferInsert): Promise<OAuthSigningKeyRow> {
      const [row] = await db.insert(oauthSigningKeys).values(values).returning();
      return row!;
    },

    /** Marks every other live key of the media to leave the JWKS at `retireAt`. */
    async retireOtherKeys(db: Executor, mediaId: string, keepId: string, retireAt: Date): Promise<void> {
      await db
        .update(oauthSigningKeys)
        .set({ retireAt })
        .where(
          and(
            eq(oauthSigningKeys.mediaId, mediaId),
            sql`${oauthSigningKeys.id} <> ${keepId}`,
            isNull(oauthSigningKeys.retireAt),
          ),
        );
    },

    /** Serialises key creation per media, so two instances never both create a first key. */
    async lockMediaKeys(db: Executor, mediaId: string): Promise<void> {
      await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`oauth_keys:${mediaId}`}))`);
    },

    // --- refresh tokens
    async insertRefreshToken(db: Executor, values: typeof oauthRefreshTokens.$inferInsert): Promise<void> {
      await db.insert(oauthRefreshTokens).values(values);
    },

    async findRefreshTokenForUpdate(db: Executor, tokenHash: string): Promise<OAuthRefreshTokenRow | undefined> {
      const [row] = await db
        .select()
        .from(oauthRefreshTokens)
        .where(eq(oauthRefreshTokens.tokenHash, tokenHash))
        .for('update');
      return row;
    },

    async markRefreshTokenUsed(db: Executor, id: string): Promise<void> {
      await db.update(oauthRefreshTokens).set({ usedAt: sql`now()` }).where(eq(oauthRefreshTokens.id, id));
    },

    async revokeRefreshFamily(db: Executor, familyId: string): Promise<void> {
      await db
        .update(oauthRefreshTokens)
        .set({ revokedAt: sql`coalesce(${oauthRefreshTokens.revokedAt}, now())` })
        .where(eq(oauthRefreshTokens.familyId, familyId));
    },

    async revokeClientRefreshTokens(db: Executor, clientId: string): Promise<void> {
      await db
        .update(oauthRefreshTokens)
        .set({ revokedAt: sql`coalesce(${oauthRefreshTokens.revokedAt}, now())` })
        .where(eq(oauthRefreshTokens.clientId, clientId));
    },
  };
}

export type OAuthRepository = ReturnType<typeof createOAuthRepository>;
