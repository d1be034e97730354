import { createHash } from 'node:crypto';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/client.js';
import { AppError, errors } from '../errors.js';
import { idempotencyKeys } from '../idempotency-keys.table.js';
import { hookList } from './hooks.js';

/**
 * Idempotent POSTs (issue 17; Stripe and the IETF `Idempotency-Key` draft), once for every route
 * that declares `idempotent` (every POST unless it opts out): the first request with a key claims
 * it (INSERT … ON CONFLICT DO NOTHING, so the claim holds across instances) before the handler
 * runs, and its answer (status, body, the headers that matter) is stored for 24 hours. The same
 * key again replays that answer with `Idempotent-Replayed: true`; with another request (method,
 * path or body) it is a 422; while the first still runs, a 409. A 5xx releases the key (the
 * request may be retried); a 4xx is kept and replayed, as Stripe does. A claim left unfinished for
 * five minutes (its instance died mid-request) is taken over by the next request with the key. Keys are scoped to the
 * media and the caller (API key, token subject, or the address of an anonymous caller).
 */

const TTL_MS = 24 * 60 * 60 * 1000;
/** A claim still unfinished after this long belongs to a request that died with its instance: the key is free again. */
const ABANDONED_AFTER_S = 300;
/** Headers of the first answer that a replay repeats. */
const KEPT_HEADERS = ['content-type', 'location', 'etag', 'content-location'];
const KEY = /^[\x20-\x7e]{1,255}$/;

export const idempotencyKeyHeader = z
  .string()
  .regex(KEY, 'must be 1 to 255 printable ASCII characters')
  .optional()
  .describe(
    'A key of the caller (a UUID, say) that makes retries of this request safe for 24 hours: the first answer is replayed ' +
      '(`Idempotent-Replayed: true`); the key with another request is a 422 `idempotency_key_reused`, and while the first runs a 409 `idempotency_key_in_use`',
  );

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes an `Idempotency-Key` (every POST unless it says otherwise). */
    idempotent?: boolean;
  }
  interface FastifyInstance {
    idempotencyKeys: IdempotencyKeys;
  }
  interface FastifyRequest {
    idempotencyClaim?: Claim;
  }
}

interface Claim {
  mediaId: string;
  caller: string;
  key: string;
}

type Stored = typeof idempotencyKeys.$inferSelect;

/** The table's statements: claim, complete, release, prune. */
export function idempotencyStore(db: Db) {
  const where = (c: Claim) => and(eq(idempotencyKeys.mediaId, c.mediaId), eq(idempotencyKeys.caller, c.caller), eq(idempotencyKeys.key, c.key));
  let claims = 0;
  return {
    /** Claims the key (an expired row of it is taken over); else the row that holds it. */
    async claim(c: Claim, fingerprint: string): Promise<{ claimed: true } | { claimed: false; row: Stored }> {
      const expiresAt = new Date(Date.now() + TTL_MS);
      const taken = await db
        .insert(idempotencyKeys)
        .values({ ...c, fingerprint, expiresAt })
        .onConflictDoUpdate({
          target: [idempotencyKeys.mediaId, idempotencyKeys.caller, idempotencyKeys.key],
          set: { fingerprint, expiresAt, status: null, headers: null, body: null, createdAt: sql`now()` },
          // An expired key, or a claim whose request never finished (its instance died mid-request).
          setWhere: or(
            lt(idempotencyKeys.expiresAt, sql`now()`),
            and(isNull(idempotencyKeys.status), lt(idempotencyKeys.createdAt, sql`now() - make_interval(secs => ${ABANDONED_AFTER_S})`)),
          ),
        })
        .returning({ key: idempotencyKeys.key });
      // Now and then, expired rows go (a bounded batch, so no claim waits long).
      if (++claims % 100 === 1) await this.prune();
      if (taken.length > 0) return { claimed: true };
      const [row] = await db.select().from(idempotencyKeys).where(where(c));
      // Released between the two statements: try once more.
      if (!row) return this.claim(c, fingerprint);
      return { claimed: false, row };
    },
    async complete(c: Claim, answer: { status: number; headers: Record<string, string>; body: string | null }) {
      await db.update(idempotencyKeys).set(answer).where(where(c));
    },
    async release(c: Claim) {
      await db.delete(idempotencyKeys).where(where(c));
    },
    async prune(limit = 1000) {
      await db.execute(
        sql`delete from ${idempotencyKeys} where ctid in (select ctid from ${idempotencyKeys} where ${idempotencyKeys.expiresAt} < now() limit ${limit})`,
      );
    },
  };
}
export type IdempotencyKeys = ReturnType<typeof idempotencyStore>;

/** JSON with object keys sorted at every depth: two bodies that mean the same have one hash. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * What makes two requests "the same": method, path (with its query) and the canonical body. A
 * streamed (multipart) body is not read before the handler: its media type (without the
 * boundary) and length stand for it.
 */
function fingerprintOf(req: FastifyRequest): string {
  const type = String(req.headers['content-type'] ?? '');
  const body =
    req.body === undefined && type.startsWith('multipart/')
      ? `multipart:${req.headers['content-length'] ?? ''}`
      : Buffer.isBuffer(req.body)
        ? createHash('sha256').update(req.body).digest('hex')
        : canonical(req.body ?? null);
  return createHash('sha256').update(`${req.method}\n${req.url}\n${body}`).digest('base64url');
}

/** Who sent the request, for the key's scope. */
function callerOf(req: FastifyRequest): string {
  if (req.principal) return `key:${req.principal.keyId}`;
  if (req.bearer) return `sub:${req.bearer.subject}`;
  return `ip:${req.ip}`;
}

const keyInUse = () =>
  new AppError(409, 'idempotency_key_in_use', 'a request with this Idempotency-Key is still being processed; retry shortly', undefined, {
    'retry-after': '1',
  });

/** Before the handler (credentials and body checked): replays, refuses, or claims the key. */
async function beforeHandler(req: FastifyRequest, reply: FastifyReply) {
  const key = req.headers['idempotency-key'];
  if (key === undefined) return;
  if (typeof key !== 'string' || !KEY.test(key)) {
    throw errors.badRequest('invalid_idempotency_key', 'Idempotency-Key must be 1 to 255 printable ASCII characters');
  }
  const claim: Claim = { mediaId: req.principal?.mediaId ?? req.bearer?.mediaId ?? req.mediaId ?? '', caller: callerOf(req), key };
  const fingerprint = fingerprintOf(req);
  const outcome = await req.server.idempotencyKeys.claim(claim, fingerprint);
  if (outcome.claimed) {
    req.idempotencyClaim = claim;
    return;
  }
  const { row } = outcome;
  if (row.fingerprint !== fingerprint) {
    throw errors.unprocessable('idempotency_key_reused', 'this Idempotency-Key was used with another request; use a new key');
  }
  if (row.status === null) throw keyInUse();
  reply.status(row.status).headers(row.headers ?? {}).header('idempotent-replayed', 'true');
  return reply.send(row.body ?? undefined);
}

/** As the first answer leaves: kept for replays, or the key released after a 5xx. */
async function beforeSend(req: FastifyRequest, reply: FastifyReply, payload: unknown) {
  const claim = req.idempotencyClaim;
  if (!claim) return payload;
  req.idempotencyClaim = undefined;
  const replayable = typeof payload === 'string' || payload === null || payload === undefined || payload === '';
  if (reply.statusCode >= 500 || !replayable) {
    await req.server.idempotencyKeys.release(claim);
    return payload;
  }
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  await req.server.idempotencyKeys.complete(claim, { status: reply.statusCode, headers, body: (payload as string | null | undefined) ?? null });
  return payload;
}

/**
 * The route-level hooks of an idempotent route (route() adds them): after the tree's own
 * preHandlers (the media resolved) and onSend hooks (the ETag set).
 */
export function idempotencyHooks(options: RouteOptions): Pick<RouteOptions, 'preHandler' | 'onSend'> {
  return {
    preHandler: [...hookList(options.preHandler), beforeHandler] as RouteOptions['preHandler'],
    onSend: [...hookList(options.onSend), beforeSend] as RouteOptions['onSend'],
  };
}
