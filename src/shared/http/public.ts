import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { uuid } from '../schemas.js';
import { type AnyRouteDef, type Tag, route } from './route.js';

/**
 * Where a Public operation finds its media (CONVENTIONS, Tenancy): the path's `media_id`, or
 * the record a path parameter names, whose owner decides (`of` answers the record's media or
 * throws the record's own 404, as its Reader read would).
 */
export type PublicMedia = 'path' | { param: string; of: (id: string) => Promise<string> };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Public routes: how the tree resolves `req.media` before the handler runs. */
    publicMedia?: PublicMedia;
    /**
     * The answer's links must be absolute whatever the tree (an RSS document's): the Public tree,
     * whose paging links are relative, then sets `req.linkOrigin` as the Reader does.
     */
    absoluteLinks?: boolean;
  }
}

/** `/api/media/v1/contents/:id` as the template `/api/media/v1/contents/{id}`. */
const template = (url: string) => url.replace(/:(\w+)/g, '{$1}');

/** The Reader operation declared as `operationId`, from the route table (the Reader tree registers before the Public one). */
export function readerOperation(app: FastifyInstance, operationId: string): { def: AnyRouteDef; url: string } {
  const entry = app.routeTable.find((e) => e.interface === 'reader' && e.operationId === operationId);
  if (!entry?.def) throw new Error(`no Reader operation ${operationId} declared with route()`);
  return { def: entry.def, url: entry.url };
}

export interface PublicTwinDef {
  /** The Reader operation this one serves, by operationId: its handler, query, answers and description. */
  reader: string;
  /** Under the Public tree: `/<group>/v2/…`, with the Reader path's params and `media_id` when the media is in the path. */
  url: string;
  operationId: string;
  media: PublicMedia;
  tag: Tag;
  summary?: string;
}

/**
 * A deprecated Public operation that serves a Reader one as it is: the same handler (so the
 * same service, SQL and mapper), query, answers and errors, anonymous, its media resolved by
 * the Public tree from the path or the addressed record, its successor the Reader path. Only
 * published reads qualify (a Reader operation with the media:read scope, or anonymous).
 */
export function publicTwin(app: FastifyInstance, twin: PublicTwinDef): void {
  const { def, url } = readerOperation(app, twin.reader);
  const access = def.access as { scope?: string; readerRequired?: boolean; anonymous?: boolean };
  if (def.method !== 'GET' || access.readerRequired || !(access.anonymous || access.scope === 'media:read')) {
    throw new Error(`Public ${twin.operationId}: ${twin.reader} is not a published read`);
  }
  const names = (path: string) => [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const missing = names(url).filter((name) => !names(twin.url).includes(name));
  if (missing.length > 0) throw new Error(`Public ${twin.operationId}: its path lacks ${missing.join(', ')} of ${twin.reader}`);

  const readerParams = def.params as z.ZodObject | undefined;
  const params = twin.media === 'path' ? (readerParams ?? z.object({})).extend({ media_id: uuid.describe('The media') }) : readerParams;
  const successor = template(url);
  route(app, {
    ...def,
    url: twin.url,
    operationId: twin.operationId,
    summary: twin.summary ?? def.summary,
    description: `Deprecated: use the Reader operation GET ${successor}.${def.description ? ` ${def.description}` : ''}`,
    tag: twin.tag,
    access: { anonymous: true },
    params,
    config: { ...def.config, successor, publicMedia: twin.media },
  });
}

/** The successor of a Public operation that is not a twin: the path of the Reader operation named. */
export const successorOf = (app: FastifyInstance, operationId: string): string => template(readerOperation(app, operationId).url);
