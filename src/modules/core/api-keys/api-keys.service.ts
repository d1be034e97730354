import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Db, Executor } from '../../../db/client.js';
import { type CacheBus, createCacheBus } from '../../../shared/cache-bus.js';
import { PG_UNIQUE_VIOLATION, pgErrorCode } from '../../../shared/errors.js';
import { type RequestContext, afterCommit } from '../../../shared/context.js';
import { coreErrors } from '../core.errors.js';
import { sha256 } from '../../../shared/ids.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import type { ApiKeysRepository } from './api-keys.repository.js';
import type { ApiKeyCreate } from './api-keys.schemas.js';
import type { ApiKeyRow } from './api-keys.table.js';
import { type KeyPrincipal, isRole } from '../../../shared/permissions.js';
import { LoadingCache } from '../../../shared/cache.js';
import { type MaybePromise, andThen } from '../../../shared/maybe-async.js';

const KEY_PREFIX = 'mps_';
// How long an accepted key is trusted without asking the database again. A revocation takes
// effect at once here and, through the cache bus (REDIS_URL), on other instances within moments;
// without Redis, there within this time.
const CACHE_TTL_MS = 10_000;
// last_used_at is written at most this often per key, not on every request.
const TOUCH_INTERVAL_MS = 60_000;


export const generateKey = (): string => `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;

/**
 * API keys. A method given a context runs on its executor (`ctx.db`); `deps.db` serves what no
 * request's transaction holds: authentication (before it opens), start-up's and the operator's calls.
 */
export function createApiKeysService(deps: { db: Db; repo: ApiKeysRepository; logger: Logger; cacheBus?: CacheBus }) {
  const { db, repo, logger } = deps;
  // By the secret's hash; an unknown secret is not kept (the failed-authentication throttle bounds those).
  const cache = new LoadingCache<string, ApiKeyRow>({ entries: 10_000, ttl: CACHE_TTL_MS, load: (hash) => repo.findByHash(db, hash) });
  const forget = (deps.cacheBus ?? createCacheBus()).channel('api-keys', cache);

  const touch = (row: ApiKeyRow, now: Date) => {
    if (row.lastUsedAt && now.getTime() - row.lastUsedAt.getTime() < TOUCH_INTERVAL_MS) return;
    row.lastUsedAt = now;
    repo.touch(db, row.id, now).catch((err: Error) => logger.warn({ err: { message: err.message } }, 'could not record key use'));
  };

  const principalOf = (row: ApiKeyRow | undefined): KeyPrincipal | null => {
    if (!row) return null;
    const now = new Date();
    if (row.revokedAt || (row.expiresAt && row.expiresAt <= now) || !isRole(row.role)) return null;
    touch(row, now);
    return { keyId: row.id, mediaId: row.mediaId, role: row.role };
  };

  const create = async (mediaId: string, input: ApiKeyCreate, secret: string = generateKey(), executor: Executor = db) => {
    const row = await repo.insert(executor, {
      mediaId,
      name: input.name,
      role: input.role,
      keyHash: sha256(secret),
      keyPrefix: secret.slice(0, 8),
      expiresAt: input.expires_at ?? null,
    });
    return { row, secret };
  };

  return {
    /**
     * The principal behind a secret, or null when it is unknown, revoked or expired: answered at
     * once when the key is cached (every request but the first in ten seconds), else a promise.
     * `secretHash` is the secret's sha256 when the caller has it already.
     */
    authenticate(secret: string, secretHash?: string): MaybePromise<KeyPrincipal | null> {
      if (!secret.startsWith(KEY_PREFIX) && secret.length < 32) return null;
      return andThen(cache.get(secretHash ?? sha256(secret)), principalOf);
    },

    /** A new key of the media; `secret` is made here unless bootstrap names it. */
    create,

    /** A new key of the context's media, in its transaction (a Backoffice write's). */
    issue: (ctx: RequestContext, input: ApiKeyCreate) => create(ctx.mediaId, input, generateKey(), ctx.db),

    /** Makes sure a key with exactly this secret exists as an admin of the media. */
    async ensure(mediaId: string, secret: string, name: string): Promise<ApiKeyRow> {
      const existing = await repo.findByHash(db, sha256(secret));
      if (existing) return existing;
      try {
        return (await create(mediaId, { name, role: 'admin' }, secret)).row;
      } catch (err) {
        // Another instance starting at the same moment inserted it first.
        if (pgErrorCode(err) !== PG_UNIQUE_VIOLATION) throw err;
        return (await repo.findByHash(db, sha256(secret)))!;
      }
    },

    /**
     * Revokes the media's other live keys named `name` than `keepId`: the key BOOTSTRAP_API_KEY
     * named before it changed. Answers the keys it revoked.
     */
    async revokeNamedExcept(mediaId: string, name: string, keepId: string): Promise<ApiKeyRow[]> {
      const rows = await repo.revokeNamedExcept(db, mediaId, name, keepId);
      for (const row of rows) forget(row.keyHash);
      return rows;
    },

    list: (ctx: RequestContext, query: PagingQuery) => repo.list(ctx.db, ctx.mediaId, query),

    /** The operator's list: the keys of a media it names. */
    listOfMedia: (mediaId: string, query: PagingQuery) => repo.list(db, mediaId, query),

    async get(ctx: RequestContext, id: string) {
      const row = await repo.find(ctx.db, ctx.mediaId, id);
      if (!row) throw coreErrors.apiKeyNotFound();
      return row;
    },

    async revoke(ctx: RequestContext, id: string): Promise<void> {
      const row = await repo.revoke(ctx.db, ctx.mediaId, id);
      if (!row) throw coreErrors.apiKeyNotFound();
      // Once committed: a request authenticated meanwhile would cache the key as still live.
      afterCommit(ctx, () => forget(row.keyHash));
    },

    /** The operator's revoke: a key of whichever media owns it. */
    async revokeAnyMedia(id: string): Promise<ApiKeyRow> {
      const key = await repo.findAnyMedia(db, id);
      if (!key) throw coreErrors.apiKeyNotFound();
      const row = (await repo.revoke(db, key.mediaId, id))!;
      forget(row.keyHash);
      return row;
    },
  };
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;
