import type { FastifyRequest } from 'fastify';
import type { Page } from './paging.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Prefix for paging links: '' on the Backoffice (relative), an origin on the Reader. */
    linkOrigin: string;
  }
}

export interface PagingMeta {
  base: string;
  next: string | null;
  previous: string | null;
}

/** meta.base/next/previous for a listing, keeping the request's own filters and limit. */
export function pagingMeta(req: FastifyRequest, page: Pick<Page<unknown>, 'next' | 'previous'>): PagingMeta {
  const url = new URL(req.url, 'http://local');
  url.searchParams.delete('after');
  url.searchParams.delete('before');
  const base = `${req.linkOrigin}${url.pathname}${url.search}`;
  const link = (param: 'after' | 'before', cursor: string | null) => {
    if (!cursor) return null;
    const withCursor = new URL(url);
    withCursor.searchParams.set(param, cursor);
    return `${req.linkOrigin}${withCursor.pathname}${withCursor.search}`;
  };
  return { base, next: link('after', page.next), previous: link('before', page.previous) };
}

export const one = <T>(data: T) => ({ data });

export const list = <Row, T>(req: FastifyRequest, page: Page<Row>, map: (row: Row) => T) => ({
  data: page.items.map((row) => map(row)),
  meta: pagingMeta(req, page),
});
