import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { list, one } from './envelopes.js';
import type { Page } from './paging.js';
import type { Permission } from './permissions.js';
import { type ErrorStatus, dataOf, errorResponses, idParams, listOf, noContent, pagingQuery } from './schemas.js';

export type ZodApp = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, ZodTypeProvider>;

interface Doc {
  summary: string;
  description?: string;
}

interface WriteDoc<B> extends Doc {
  body: B;
  /** Statuses this write can answer beyond the usual ones: 409 (a unique key), 404 (a referenced record). */
  also?: Array<404 | 409>;
}

const statuses = (base: ErrorStatus[], also: ErrorStatus[] = []) =>
  errorResponses(...[...base, ...also].sort((a, b) => a - b));

export interface ResourceOptions<Row, Item extends z.ZodType> {
  /** Collection path, e.g. `/categories`; records live at `${path}/:id`. */
  path: string;
  tags: string[];
  /** The record's wire schema and the mapper that produces it. */
  item: Item;
  map: (row: Row) => z.input<Item>;
  read: Permission;
  write: Permission;
}

type Load<Row> = (mediaId: string, id: string) => Promise<Row>;

/**
 * The Backoffice's standard record routes, declared once: permission, tags, uuid params,
 * envelopes, status codes and the documented error statuses are the same for every
 * resource. Each method registers one route; a module calls only those it offers and
 * declares anything unusual (custom bodies, several results) as a plain route.
 */
export function backofficeResource<Row, Item extends z.ZodType>(app: ZodApp, r: ResourceOptions<Row, Item>) {
  const record = `${r.path}/:id`;
  const single = dataOf(r.item);
  // Registered untyped: the schemas are generic here, so the type provider cannot check the
  // handlers; the signatures below (`map` to the item schema, typed loaders) carry the types.
  const route = (options: {
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
    url: string;
    permission: Permission;
    schema: FastifySchema & Record<string, unknown>;
    handler: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
  }) =>
    app.route({
      method: options.method,
      url: options.url,
      config: { permission: options.permission },
      schema: options.schema,
      handler: options.handler,
    } as never);
  const mediaOf = (req: FastifyRequest) => req.principal.mediaId;
  const idOf = (req: FastifyRequest) => (req.params as { id: string }).id;

  return {
    list<Q extends z.ZodType = typeof pagingQuery>(
      doc: Doc & { querystring?: Q },
      load: (mediaId: string, query: z.output<Q>) => Promise<Page<Row>>,
    ) {
      route({
        method: 'GET',
        url: r.path,
        permission: r.read,
        schema: {
          tags: r.tags,
          summary: doc.summary,
          ...(doc.description && { description: doc.description }),
          querystring: doc.querystring ?? pagingQuery,
          response: { 200: listOf(r.item), ...errorResponses(400, 401, 403, 429) },
        },
        handler: async (req) => list(req, await load(mediaOf(req), req.query as z.output<Q>), r.map),
      });
    },

    get(doc: Doc, load: Load<Row>) {
      route({
        method: 'GET',
        url: record,
        permission: r.read,
        schema: {
          tags: r.tags,
          ...doc,
          params: idParams,
          response: { 200: single, ...errorResponses(400, 401, 403, 404, 429) },
        },
        handler: async (req) => one(r.map(await load(mediaOf(req), idOf(req)))),
      });
    },

    create<B extends z.ZodType>(
      doc: WriteDoc<B>,
      create: (mediaId: string, input: z.output<B>) => Promise<Row>,
    ) {
      route({
        method: 'POST',
        url: r.path,
        permission: r.write,
        schema: {
          tags: r.tags,
          summary: doc.summary,
          ...(doc.description && { description: doc.description }),
          body: doc.body,
          response: { 201: single, ...statuses([400, 401, 403, 413, 415, 429], doc.also) },
        },
        handler: async (req, reply) =>
          reply.status(201).send(one(r.map(await create(mediaOf(req), req.body as z.output<B>)))),
      });
    },

    update<B extends z.ZodType>(
      doc: WriteDoc<B>,
      update: (mediaId: string, id: string, patch: z.output<B>) => Promise<Row>,
    ) {
      route({
        method: 'PATCH',
        url: record,
        permission: r.write,
        schema: {
          tags: r.tags,
          summary: doc.summary,
          ...(doc.description && { description: doc.description }),
          params: idParams,
          body: doc.body,
          response: { 200: single, ...statuses([400, 401, 403, 404, 413, 415, 429], doc.also) },
        },
        handler: async (req) => one(r.map(await update(mediaOf(req), idOf(req), req.body as z.output<B>))),
      });
    },

    /** DELETE: soft delete, revoke or remove, as `doc` says; 204 either way. */
    remove(doc: Doc, remove: (mediaId: string, id: string) => Promise<void>) {
      route({
        method: 'DELETE',
        url: record,
        permission: r.write,
        schema: {
          tags: r.tags,
          ...doc,
          params: idParams,
          response: { 204: noContent, ...errorResponses(400, 401, 403, 404, 429) },
        },
        handler: async (req, reply) => {
          await remove(mediaOf(req), idOf(req));
          return reply.status(204).send();
        },
      });
    },

    restore(doc: Doc, restore: Load<Row>) {
      route({
        method: 'POST',
        url: `${record}/restore`,
        permission: r.write,
        schema: {
          tags: r.tags,
          ...doc,
          params: idParams,
          response: { 200: single, ...errorResponses(400, 401, 403, 404, 429) },
        },
        handler: async (req) => one(r.map(await restore(mediaOf(req), idOf(req)))),
      });
    },
  };
}
