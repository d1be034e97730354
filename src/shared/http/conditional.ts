import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

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
