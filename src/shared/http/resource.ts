import { z } from 'zod';
import { list, one } from '../envelopes.js';
import type { Page } from '../paging.js';
import type { Permission } from '../permissions.js';
import { type PagingQuery, dataOf, idParams, listOf, noContent, pagingQuery, uuid } from '../schemas.js';
import type { Revises } from '../revisions.js';
import type { Lockable, RecordEffect, VersionSource } from './effects.js';
import { type ErrorStatus, type RequestContext, type Tag, type ZodApp, route } from './route.js';

interface Doc {
  summary: string;
  description?: string;
  /** Statuses this route can answer beyond the derived ones: 404 (a referenced record), 409 (a unique key). */
  errors?: ErrorStatus[];
  /** An update's or delete's version source when not the record's GET (null: none, If-Match matches only `*`). */
  version?: VersionSource | null;
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
  /** The record's kind on the wire (webhook events, audit entries): `category`, `ad_category`. */
  kind: string;
  /** The record's row, locked by a conditional update or delete while If-Match is compared (its aggregate). */
  lock?: Lockable;
  /** false: writes are audited but send no webhook event. */
  webhooks?: false;
  /** Each write adds a revision to this record (its own, or the one it is a part of: shared/revisions.ts). */
  revises?: Revises;
}

type Load<Row> = (ctx: RequestContext, id: string) => Promise<Row>;

/** The params of a route under a parent record: the url's one parameter, a uuid. */
const parentParams = (url: string) => {
  const names = [...url.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!);
  if (names.length !== 1) throw new Error(`${url}: a route under a parent names exactly one parameter`);
  return z.object({ [names[0]!]: uuid });
};
const parentIdOf = (params: unknown) => Object.values(params as Record<string, string>)[0]!;

/** The standard operations of a record collection, for `standard()`. */
export type StandardOp = 'list' | 'create' | 'get' | 'update' | 'remove' | 'restore';

/** What `standard()` calls: a record service (`recordService()` in shared/records.ts makes one). */
export interface StandardService<Row> {
  list: (ctx: RequestContext, query: PagingQuery) => Promise<Page<Row>>;
  get: Load<Row>;
  create: (ctx: RequestContext, input: never) => Promise<Row>;
  update: (ctx: RequestContext, id: string, patch: never) => Promise<Row>;
  remove: (ctx: RequestContext, id: string) => Promise<void>;
  restore: Load<Row>;
}

export interface StandardDoc {
  /** The record's name in sentences: `menu`, `media block`. */
  label: string;
  plural: string;
  create?: z.ZodType;
  update?: z.ZodType;
  /** The operations offered (all six by default). */
  only?: readonly StandardOp[];
  /** `true`: the update is a `PUT`, a full replace validated like a create (a patch by default). */
  replace?: boolean;
  /** Beside the derived statuses: 404 for a referenced record, 409 for a unique key. */
  errors?: ErrorStatus[];
  /** What the collection's list and writes should say beyond the standard sentences. */
  notes?: Partial<Record<StandardOp, string>>;
  /** An operation's summary, description or error statuses, where the standard ones do not fit. */
  docs?: Partial<Record<StandardOp, Partial<Doc>>>;
}

/**
 * The Backoffice's standard record routes over `route()`: list, get, create, update,
 * delete and restore with their permission, uuid params, envelopes and statuses. A module
 * calls the ones it offers and declares anything else with `route()` itself.
 */
export function backofficeResource<Row, Item extends z.ZodType>(app: ZodApp, r: ResourceOptions<Row, Item>) {
  const record = `${r.path}/:id`;
  const single = dataOf(r.item);
  const base = { tag: r.tag };
  const effect = { kind: r.kind, ...(r.webhooks === false && { webhooks: false as const }), ...(r.revises && { revises: r.revises }) };
  /** A doc's route fields, without the version source (only an update or delete has one). */
  const plain = <D extends Doc>({ version: _version, ...rest }: D) => rest;
  /** An update's or delete's version: the record's GET, unless the doc names another (or none). */
  const versionOf = (doc: Doc) => {
    const { version, ...rest } = doc;
    const source = version === undefined ? { read: `get${r.names.one}`, ...(r.lock && { lock: r.lock }) } : version;
    return { ...rest, ...(source && { version: source }) };
  };
  return {
    list<Q extends z.ZodType<PagingQuery> = typeof pagingQuery>(
      doc: Doc & { querystring?: Q },
      load: (ctx: RequestContext, query: z.output<Q>) => Promise<Page<Row>>,
    ) {
      route(app, {
        ...base,
        ...plain(doc),
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
        ...plain(doc),
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
        ...plain(doc),
        method: 'POST',
        url: r.path,
        operationId: `create${r.names.one}`,
        access: { permission: r.write },
        record: effect,
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
        ...versionOf(rest),
        method,
        url: record,
        operationId: `update${r.names.one}`,
        access: { permission: r.write },
        record: effect,
        params: idParams,
        response: { 200: single },
        handler: async (ctx, { params, body }) => one(r.map(await update(ctx, params.id, body as z.output<B>))),
      });
    },

    /** DELETE: soft delete, revoke or remove, as `doc` says; 204 either way. */
    remove(doc: Doc, remove: (ctx: RequestContext, id: string) => Promise<void>) {
      route(app, {
        ...base,
        ...versionOf(doc),
        method: 'DELETE',
        url: record,
        operationId: `delete${r.names.one}`,
        access: { permission: r.write },
        record: effect,
        params: idParams,
        response: { 204: noContent },
        handler: async (ctx, { params }) => remove(ctx, params.id),
      });
    },

    /**
     * The standard operations of a collection at once, with the standard sentences: list (newest
     * first), create, by id, update (PATCH: fields left out keep their value; a set sent is the
     * complete set), delete (soft, with its parts) and restore (idempotent).
     */
    standard(service: StandardService<Row>, doc: StandardDoc) {
      const on = (op: StandardOp) => !doc.only || doc.only.includes(op);
      const note = (op: StandardOp, text: string) => [text, doc.notes?.[op]].filter(Boolean).join(' ');
      const errors = doc.errors ?? [];
      /** An operation's standard doc with what the record says of it instead. */
      const docOf = <D extends Doc>(op: StandardOp, standard: D): D => ({ ...standard, ...doc.docs?.[op] });
      const label = `${doc.label[0]!.toUpperCase()}${doc.label.slice(1)}`;
      const a = /^[aeiou]/.test(doc.label) ? 'an' : 'a';
      if (on('list')) this.list(docOf('list', { summary: `List ${doc.plural}`, description: note('list', `Live ${doc.plural} of the key's media, newest first.`) }), service.list);
      if (on('create') && doc.create) {
        this.create(
          docOf('create', { summary: `Create ${a} ${doc.label}`, description: note('create', `Answers 201 with the new ${doc.label}.`), body: doc.create, errors }),
          service.create as (ctx: RequestContext, input: unknown) => Promise<Row>,
        );
      }
      if (on('get')) this.get(docOf('get', { summary: `${label} by id` }), service.get);
      if (on('update') && doc.update) {
        this.update(
          docOf('update', {
            summary: `Update ${a} ${doc.label}`,
            description: note(
              'update',
              doc.replace
                ? 'A full replace, validated like a create: a field left out takes its default.'
                : 'Fields left out keep their value; a set sent (`locales`, `entries`) is the complete set.',
            ),
            body: doc.update,
            errors,
            ...(doc.replace && { method: 'PUT' as const }),
          }),
          service.update as (ctx: RequestContext, id: string, patch: unknown) => Promise<Row>,
        );
      }
      if (on('remove')) {
        this.remove(
          docOf('remove', { summary: `Delete ${a} ${doc.label} (soft)`, description: note('remove', 'Sets deleted_at on the record and its live parts; restore brings them back.') }),
          service.remove,
        );
      }
      if (on('restore')) {
        this.restore(
          docOf('restore', { summary: `Restore a deleted ${doc.label}`, description: `Idempotent: restoring a live ${doc.label} answers it as it is.`, errors: [409] }),
          service.restore,
        );
      }
    },

    restore(doc: Doc, restore: Load<Row>) {
      route(app, {
        ...base,
        ...plain(doc),
        method: 'POST',
        url: `${record}/restore`,
        operationId: `restore${r.names.one}`,
        access: { permission: r.write },
        record: { ...effect, action: 'restored' },
        params: idParams,
        response: { 200: single },
        handler: async (ctx, { params }) => one(r.map(await restore(ctx, params.id))),
      });
    },

    /**
     * `GET <url>`: the records under one parent record, whose uuid is the url's one parameter
     * (`/ads/:id/creatives`): a page by cursor, or all of them at once (a bounded set) with `all`.
     */
    listUnder<Q extends z.ZodType<PagingQuery> = typeof pagingQuery>(
      doc: Doc & { url: string; operationId: string; querystring?: Q },
      load: (ctx: RequestContext, parentId: string, query: z.output<Q>) => Promise<Page<Row>>,
    ) {
      route(app, {
        ...base,
        ...plain(doc),
        method: 'GET',
        access: { permission: r.read },
        params: parentParams(doc.url),
        querystring: (doc.querystring ?? pagingQuery) as Q,
        response: { 200: listOf(r.item) },
        handler: async (ctx, { params, query }, reply) =>
          list(reply.request, await load(ctx, parentIdOf(params), query as z.output<Q>), r.map),
      });
    },

    allUnder(doc: Doc & { url: string; operationId: string }, load: (ctx: RequestContext, parentId: string) => Promise<Row[]>) {
      route(app, {
        ...base,
        ...plain(doc),
        method: 'GET',
        access: { permission: r.read },
        params: parentParams(doc.url),
        response: { 200: dataOf(z.array(r.item)) },
        handler: async (ctx, { params }) => one((await load(ctx, parentIdOf(params))).map(r.map)),
      });
    },

    /** `POST <url>`: a record created under one parent record (the url's one uuid parameter); 201. */
    createUnder<B extends z.ZodType>(
      doc: WriteDoc<B> & { url: string; operationId: string },
      create: (ctx: RequestContext, parentId: string, input: z.output<B>) => Promise<Row>,
    ) {
      route(app, {
        ...base,
        ...plain(doc),
        method: 'POST',
        access: { permission: r.write },
        record: effect,
        params: parentParams(doc.url),
        response: { 201: single },
        handler: async (ctx, { params, body }) => one(r.map(await create(ctx, parentIdOf(params), body as z.output<B>))),
      });
    },
  };
}

/**
 * A record's ordered set of children, read and written whole (CONVENTIONS: ordered children):
 * `GET <url>` answers the set in position order, `PUT <url>` takes the complete set and answers
 * it as stored. `params` are the url's (the record's id, and a block's where the set hangs off a
 * block); `load` and `store` are the service's, `map` the wire shape of one child.
 */
export function orderedSetRoutes<P extends z.ZodType, B extends z.ZodType, Row, Item extends z.ZodType>(
  app: ZodApp,
  set: {
    url: string;
    params: P;
    tag: Tag;
    read: Permission;
    write: Permission;
    /** The record a replacement changes (the set's owner: `{kind: 'content'}`; a block's entries: `{kind: 'block', param: 'block_id'}`). */
    record: RecordEffect;
    /** The record locked while If-Match is compared with the set's GET (the owner's aggregate, by `id`). */
    lock?: Lockable;
    get: { operationId: string; summary: string; description?: string };
    replace: WriteDoc<B> & { operationId: string };
    load: (ctx: RequestContext, params: z.output<P>) => Promise<Row[]>;
    store: (ctx: RequestContext, params: z.output<P>, body: z.output<B>) => Promise<Row[]>;
    item: Item;
    // Written after load and store: an inline mapper's row is typed from theirs (left to right).
    map: (row: Row) => z.input<Item>;
  },
): void {
  const response = { 200: dataOf(z.array(set.item)) };
  route(app, {
    ...set.get,
    method: 'GET',
    url: set.url,
    tag: set.tag,
    access: { permission: set.read },
    params: set.params,
    response,
    handler: async (ctx, { params }) => one((await set.load(ctx, params as z.output<P>)).map(set.map)),
  });
  route(app, {
    ...set.replace,
    method: 'PUT',
    url: set.url,
    tag: set.tag,
    access: { permission: set.write },
    record: set.record,
    version: { read: set.get.operationId, ...(set.lock && { lock: set.lock }) },
    params: set.params,
    response,
    handler: async (ctx, { params, body }) => one((await set.store(ctx, params as z.output<P>, body as z.output<B>)).map(set.map)),
  });
}
