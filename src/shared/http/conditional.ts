import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';

/** If-None-Match against one strong ETag: a list of tags (weak ones compared weakly) or `*`. */
export function notModified(header: string | string[] | undefined, etag: string): boolean {
  if (typeof header !== 'string') return false;
  return header.split(',').some((tag) => {
    const value = tag.trim();
    return value === '*' || value === etag || value === `W/${etag}`;
  });
}

/** A strong ETag of a body: its SHA-256, base64url. */
export const etagOf = (body: string | Buffer): string => `"${createHash('sha256').update(body).digest('base64url')}"`;

/**
 * Sends a generated document (a feed, a sitemap) with its validators: `ETag` (of the bytes) and
 * `Last-Modified` (the newest record it shows), and 304 with no body to a conditional request
 * that matches (If-None-Match first; If-Modified-Since only without it, RFC 9110 13.2.2).
 */
export function sendConditional(
  req: FastifyRequest,
  reply: FastifyReply,
  doc: {
    /** The document, or how to make it: made only when the answer is not a 304. */
    body: string | (() => string);
    /** What the document is made of, when cheaper to hash than the document (the ETag is then its hash). */
    version?: string;
    type: string;
    lastModified: Date | null;
    maxAge: number;
  },
): FastifyReply {
  const made = typeof doc.body === 'string' ? doc.body : undefined;
  const etag = etagOf(doc.version ?? made ?? (doc.body as () => string)());
  reply.header('etag', etag).header('cache-control', `public, max-age=${doc.maxAge}`);
  // HTTP dates have whole seconds: compare at that precision.
  const modified = doc.lastModified ? Math.floor(doc.lastModified.getTime() / 1000) * 1000 : null;
  if (modified !== null) reply.header('last-modified', new Date(modified).toUTCString());
  const inm = req.headers['if-none-match'];
  const ims = req.headers['if-modified-since'];
  const fresh =
    inm !== undefined
      ? notModified(inm, etag)
      : typeof ims === 'string' && modified !== null && !Number.isNaN(Date.parse(ims)) && modified <= Date.parse(ims);
  if (fresh) return reply.status(304).send();
  return reply.type(doc.type).send(made ?? (doc.body as () => string)());
}

/**
 * An onSend hook for a tree (Backoffice, Reader): every success answer with a body gets a
 * strong `ETag` of its bytes, unless the route set its own (a feed, an asset); a `GET` or `HEAD`
 * whose `If-None-Match` matches is answered 304 with no body. `cacheControl` names the answer's
 * Cache-Control (a route that sets its own keeps it).
 */
export function validators(cacheControl: (req: FastifyRequest, reply: FastifyReply) => string | undefined) {
  return async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const read = req.method === 'GET' || req.method === 'HEAD';
    if (!reply.hasHeader('cache-control')) {
      const value = cacheControl(req, reply);
      if (value) reply.header('cache-control', value);
    }
    if ((reply.statusCode !== 200 && reply.statusCode !== 201) || !(typeof payload === 'string' || Buffer.isBuffer(payload))) return payload;
    let etag = reply.getHeader('etag') as string | undefined;
    if (!etag) reply.header('etag', (etag = etagOf(payload)));
    if (read && notModified(req.headers['if-none-match'], etag)) {
      reply.status(304);
      return '';
    }
    return payload;
  };
}

/**
 * If-Match (RFC 9110 13.1.1) against the current representation's strong ETag: `*` matches any
 * current representation, a list matches when one of its tags is this one (weak tags never do).
 */
export function matchesIfMatch(header: string, etag: string): boolean {
  return header.split(',').some((tag) => {
    const value = tag.trim();
    return value === '*' || value === etag;
  });
}

export const preconditionFailed = () =>
  new AppError(412, 'precondition_failed', 'the record changed since the version named by If-Match; read it again and retry');

/**
 * The version a conditional write (If-Match) was checked against, for the transaction that makes
 * the write: an aggregate's `lock` and `softDelete` compare the locked row's `updated_at` with it,
 * so a write that slipped in between the check and the lock is a 412, not a lost update.
 */
export const precondition = new AsyncLocalStorage<{ id: string; updatedAt: string }>();
