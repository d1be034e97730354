import type { CryptoKey, JWK } from 'jose';
import type { Db } from '../../db/client.js';
import { type CacheBus, createCacheBus } from '../../shared/cache-bus.js';
import { type RequestContext, afterCommit, transaction } from '../../shared/context.js';
import type { OAuthRepository } from './oauth.repository.js';
import type { OAuthSigningKeyRow } from './oauth.table.js';
import { LoadingCache } from '../../shared/cache.js';

export const SIGNING_ALG = 'ES256';

interface LiveKeys {
  /** The key that signs new tokens. */
  active: { kid: string; privateKey: CryptoKey };
  /** Every key that still verifies, by kid. */
  verify: Map<string, CryptoKey>;
  jwks: JWK[];
}

/**
 * Per-media ES256 keys. Rotation makes a new key the signer and keeps the old ones in the
 * JWKS (and accepted) until every token they signed has expired.
 */
export function createSigningKeysService(deps: { db: Db; repo: OAuthRepository; accessTokenTtlSeconds: number; cacheBus?: CacheBus }) {
  const { db, repo, accessTokenTtlSeconds } = deps;

  const load = async (rows: OAuthSigningKeyRow[]): Promise<LiveKeys> => {
    // jose loads with the first key a request needs, not at start-up.
    const { importJWK } = await import('jose');
    const verify = new Map<string, CryptoKey>();
    const jwks: JWK[] = [];
    for (const row of rows) {
      const jwk = row.publicJwk as JWK;
      verify.set(row.id, (await importJWK(jwk, row.alg)) as CryptoKey);
      jwks.push({ ...jwk, kid: row.id, alg: row.alg, use: 'sig' });
    }
    const signer = rows[0]!;
    return {
      active: { kid: signer.id, privateKey: (await importJWK(signer.privateJwk as JWK, signer.alg)) as CryptoKey },
      verify,
      jwks,
    };
  };

  const newKeyValues = async (mediaId: string) => {
    const { exportJWK, generateKeyPair } = await import('jose');
    const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true });
    return { mediaId, alg: SIGNING_ALG, publicJwk: await exportJWK(publicKey), privateJwk: await exportJWK(privateKey) };
  };

  // The cache's loader, shared by every request: on the database, never in a request's
  // transaction, whose rollback would leave a key cached that no row holds.
  const readLive = async (mediaId: string): Promise<LiveKeys> => {
    let rows = await repo.liveSigningKeys(db, mediaId);
    if (rows.length === 0) {
      rows = await db.transaction(async (tx) => {
        await repo.lockMediaKeys(tx, mediaId);
        const again = await repo.liveSigningKeys(tx, mediaId);
        if (again.length > 0) return again;
        return [await repo.insertSigningKey(tx, await newKeyValues(mediaId))];
      });
    }
    return load(rows);
  };
  // Short-lived, so that a rotation done by another instance is seen within seconds even without
  // the cache bus (which tells them at once when REDIS_URL is set).
  const cache = new LoadingCache<string, LiveKeys>({ entries: 1000, ttl: 5_000, load: readLive });
  const forget = (deps.cacheBus ?? createCacheBus()).channel('signing-keys', cache);
  const live = async (mediaId: string): Promise<LiveKeys> => (await cache.get(mediaId))!;

  return {
    signer: async (mediaId: string) => (await live(mediaId)).active,
    verificationKey: async (mediaId: string, kid: string) => (await live(mediaId)).verify.get(kid),
    jwks: async (mediaId: string) => ({ keys: (await live(mediaId)).jwks }),

    /** The keys in the JWKS, signer first (made on first use). */
    async list(ctx: RequestContext): Promise<OAuthSigningKeyRow[]> {
      await live(ctx.mediaId);
      return repo.liveSigningKeys(ctx.db, ctx.mediaId);
    },

    /** A new signer; older keys keep verifying until the longest-lived token they signed expires. */
    async rotate(ctx: RequestContext): Promise<OAuthSigningKeyRow[]> {
      const { mediaId } = ctx;
      const rows = await transaction(ctx, async (tx) => {
        await repo.lockMediaKeys(tx, mediaId);
        const row = await repo.insertSigningKey(tx, await newKeyValues(mediaId));
        const retireAt = new Date(Date.now() + (accessTokenTtlSeconds + 60) * 1000);
        await repo.retireOtherKeys(tx, mediaId, row.id, retireAt);
        return repo.liveSigningKeys(tx, mediaId);
      });
      // Once committed: a cache refilled before then would keep the old signer.
      afterCommit(ctx, () => forget(mediaId));
      return rows;
    },
  };
}

export type SigningKeysService = ReturnType<typeof createSigningKeysService>;
