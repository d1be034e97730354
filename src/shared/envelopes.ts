import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Page } from './paging.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Prefix for paging links: '' on the Backoffice (relative), an origin on the Reader. */
    linkOrigin: string;
  }
}

/** The origin absolute links start with: PUBLIC_BASE_URL when set (behind a proxy), else the request's own. */
export const originOf = (req: FastifyRequest, publicBaseUrl: string | undefined): string => publicBaseUrl ?? `${req.protocol}://${req.host}`;

export interface PagingMeta {
  base: string;
  next: string | null;
  previous: string | null;
}

/**
 * meta.base/next/previous for a listing, keeping the request's own filters and limit.
 * Built from the routed path and its query string alone: a WHATWG URL per link cost more
 * than the rest of the envelope.
 */
export function pagingMeta(req: FastifyRequest, page: Pick<Page<unknown>, 'next' | 'previous'>): PagingMeta {
  const q = req.url.indexOf('?');
  const params = new URLSearchParams(q < 0 ? '' : req.url.slice(q + 1));
  params.delete('after');
  params.delete('before');
  const query = params.toString();
  const base = `${req.linkOrigin}${q < 0 ? req.url : req.url.slice(0, q)}${query ? `?${query}` : ''}`;
  const join = query ? '&' : '?';
  return { base, next: link(base, join, 'after', page.next), previous: link(base, join, 'before', page.previous) };
}

// Cursors are base64url and a dot: nothing in them needs escaping.
const link = (base: string, join: string, param: 'after' | 'before', cursor: string | null) =>
  cursor ? `${base}${join}${param}=${cursor}` : null;

export const one = <T>(data: T) => ({ data });

/** An idempotent create's answer: 201 with the record it made, 200 with the one that was there. */
export const createdOrFound = <Row, T>(reply: FastifyReply, outcome: { row: Row; created: boolean }, map: (row: Row) => T) => {
  if (outcome.created) reply.status(201);
  return one(map(outcome.row));
};

export const list = <Row, T>(req: FastifyRequest, page: Page<Row>, map: (row: Row) => T) => ({
  data: page.items.map((row) => map(row)),
  meta: pagingMeta(req, page),
});
