import type { z } from 'zod';
import { list, one } from '../envelopes.js';
import type { Page } from '../paging.js';
import type { Permission } from '../permissions.js';
import { type PagingQuery, dataOf, idParams, listOf, noContent, pagingQuery } from '../schemas.js';
import { type ErrorStatus, type RequestContext, type Tag, type ZodApp, route } from './route.js';

interface Doc {
  summary: string;
  description?: string;
  /** Statuses this route can answer beyond the derived ones: 404 (a referenced record), 409 (a unique key). */
  errors?: ErrorStatus[];
}

interface WriteDoc<B> extends Doc {
  body: B;
}

export interface ResourceOptions<Row, Item extends z.ZodType> {
  /** Collection path, e.g. `/categories`; records live at `${path}/:id`. */
  path: string;
  /** Names for the operationIds: `listCategories`, `getCategory`, `createCategory`, ... */
  names: { one: string; many: string };
  tag: Tag;
  /** The record's wire schema and the mapper that produces it. */
  item: Item;
  map: (row: Row) => z.input<Item>;
  read: Permission;
  write: Permission;
}

type Load<Row> = (ctx: RequestContext, id: string) => Promise<Row>;

/**
 * The Backoffice's standard record routes over `route()`: list, get, create, update,
 * delete and restore with their permission, uuid params, envelopes and statuses. A module
 * calls the ones it offers and declares anything else with `route()` itself.
 */
export function backofficeResource<Row, Item extends z.ZodType>(app: ZodApp, r: ResourceOptions<Row, Item>) {
  const record = `${r.path}/:id`;
  const single = dataOf(r.item);
  const base = { tag: r.tag };

  return {
    list<Q extends z.ZodType<PagingQuery> = typeof pagingQuery>(
      doc: Doc & { querystring?: Q },
      load: (ctx: RequestContext, query: z.output<Q>) => Promise<Page<Row>>,
    ) {
      route(app, {
        ...base,
        ...doc,
        method: 'GET',
        url: r.path,
        operationId: `list${r.names.many}`,
        access: { permission: r.read },
        querystring: (doc.querystring ?? pagingQuery) as Q,
        response: { 200: listOf(r.item) },
        handler: async (ctx, { query }, reply) => list(reply.request, await load(ctx, query as z.output<Q>), r.map),
      });
    },

    get(doc: Doc, load: Load<Row>) {
      route(app, {
        ...base,
        ...doc,
        method: 'GET',
        url: record,
        operationId: `get${r.names.one}`,
        access: { permission: r.read },
        params: idParams,
        response: { 200: single },
        handler: async (ctx, { params }) => one(r.map(await load(ctx, params.id))),
      });
    },

    create<B extends z.ZodType>(doc: WriteDoc<B>, create: (ctx: RequestContext, input: z.output<B>) => Promise<Row>) {
      route(app, {
        ...base,
        ...doc,
        method: 'POST',
        url: r.path,
        operationId: `create${r.names.one}`,
        access: { permission: r.write },
        response: { 201: single },
        handler: async (ctx, { body }) => one(r.map(await create(ctx, body as z.output<B>))),
      });
    },

    /** PATCH (fields left out keep their value) or, for the areas whose spec says so, PUT. */
    update<B extends z.ZodType>(
      doc: WriteDoc<B> & { method?: 'PATCH' | 'PUT' },
      update: (ctx: RequestContext, id: string, patch: z.output<B>) => Promise<Row>,
    ) {
      const { method = 'PATCH', ...rest } = doc;
      route(app, {
        ...base,
        ...rest,
        method,
        url: record,
        operationId: `update${r.names.one}`,
        access: { permission: r.write },
        params: idParams,
        response: { 200: single },
        handler: async (ctx, { params, body }) => one(r.map(await update(ctx, params.id, body as z.output<B>))),
      });
    },

    /** DELETE: soft delete, revoke or remove, as `doc` says; 204 either way. */
    remove(doc: Doc, remove: (ctx: RequestContext, id: string) => Promise<void>) {
      route(app, {
        ...base,
        ...doc,
        method: 'DELETE',
        url: record,
        operationId: `delete${r.names.one}`,
        access: { permission: r.write },
        params: idParams,
        response: { 204: noContent },
        handler: async (ctx, { params }) => remove(ctx, params.id),
      });
    },

    restore(doc: Doc, restore: Load<Row>) {
      route(app, {
        ...base,
        ...doc,
        method: 'POST',
        url: `${record}/restore`,
        operationId: `restore${r.names.one}`,
        access: { permission: r.write },
        params: idParams,
        response: { 200: single },
        handler: async (ctx, { params }) => one(r.map(await restore(ctx, params.id))),
      });
    },
  };
}
