import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { list as plainList, one } from '../envelopes.js';
import type { Page } from '../paging.js';
import { readerRecordOf, wireOf, wirePlan } from '../record/wire.js';
import { type PagingQuery, dataOf, idParams, listOf, pagingQuery } from '../schemas.js';
import { type LocaleFallback, localeQuery, readerList, readerListOf, readerListQuery, readerView } from './reader.js';
import { type Access, type ErrorStatus, type RequestContext, type Tag, type ZodApp, route } from './route.js';

/** How a Reader record is addressed: by id, by its key, or by either (a uuid is an id). */
export type ReaderAddress = 'id' | 'key' | 'key_or_id';

const addressParams: Record<ReaderAddress, z.ZodObject> = {
  id: idParams,
  key: z.object({ key: z.string().min(1).max(200).describe('The record\'s key, unique within the media') }),
  key_or_id: z.object({ key_or_id: z.string().min(1).max(200).describe('The record\'s id (a uuid) or its key') }),
};

export interface ReaderRecordRoutes<Row> {
  /** Collection path, e.g. `/webpages`. */
  path: string;
  names: { one: string; many: string };
  /** The record's name in sentences. */
  label: string;
  /** The record's kind on the wire: its Surrogate-Key. */
  kind: string;
  plural: string;
  tag: Tag;
  /** The Reader record's schema (`recordSchemas().reader`). */
  item: z.ZodType;
  /** A row as readers see it in one language, when not the item schema's fields with `localized` (`readerRecordOf`). */
  toReader?: (row: never, view: { locale: string | undefined; fallback: LocaleFallback }) => unknown;
  /** `false`: records without language entries, listed with the paging query alone and no meta.locales. */
  locales?: false;
  /** What readers see of the collection, one page; the sentence says which records. */
  list?: RecordList<Row>;
  get?: { by: ReaderAddress; load: (ctx: RequestContext, address: string) => Promise<Row>; description?: string; errors?: ErrorStatus[] };
}

/** What readers see of a collection, one page; `params` are the path's (a Public list under an organization filters by it). */
export interface RecordList<Row> {
  load: (ctx: RequestContext, query: PagingQuery, params: Record<string, string>) => Promise<Page<Row>>;
  description?: string | undefined;
}

/** How a record reads for readers: its own mapper, or the item schema's fields with the asked language as `localized`. */
function readerMapperOf(r: Pick<ReaderRecordRoutes<never>, 'item' | 'toReader'>): (row: object, view: { locale: string | undefined; fallback: LocaleFallback }) => unknown {
  if (r.toReader) return r.toReader as (row: object, view: { locale: string | undefined; fallback: LocaleFallback }) => unknown;
  const plan = wirePlan(r.item)!;
  return (row, view) => readerRecordOf(row, view, plan);
}

/**
 * The declaration of a collection's Reader list (`readerList<Many>`: the list query, `{data, meta}`,
 * each record by the locale rule), written once: the Reader declares it as it is, and the Public
 * lists of the same records (under a media, an organization) reuse it with their own path and load.
 */
export function recordListRoute<Row extends object>(
  r: Pick<ReaderRecordRoutes<Row>, 'path' | 'names' | 'plural' | 'tag' | 'item' | 'kind' | 'toReader' | 'locales'>,
  list: RecordList<Row>,
) {
  const params = (p: unknown) => (p ?? {}) as Record<string, string>;
  const shared = {
    method: 'GET' as const,
    url: r.path,
    operationId: `readerList${r.names.many}`,
    serves: r.kind,
    summary: `List ${r.plural}`,
    ...(list.description && { description: list.description }),
    tag: r.tag,
    access: { scope: 'media:read' } as Access,
  };
  if (r.locales === false) {
    // Records without language entries: the paging query, `{data, meta}`, each row by the item schema (or its own mapper).
    const plan = wirePlan(r.item);
    const toPlain = (r.toReader as ((row: Row) => unknown) | undefined) ?? ((row: Row) => wireOf(row, plan));
    return {
      ...shared,
      querystring: pagingQuery,
      response: { 200: listOf(r.item) },
      handler: async (ctx: RequestContext, req: { params: unknown; query: PagingQuery }, reply: FastifyReply) =>
        plainList(reply.request, await list.load(ctx, req.query, params(req.params)), toPlain),
    };
  }
  const toItem = readerMapperOf(r);
  return {
    ...shared,
    querystring: readerListQuery,
    response: { 200: readerListOf(r.item) },
    handler: async (ctx: RequestContext, req: { params: unknown; query: z.output<typeof readerListQuery> }, reply: FastifyReply) =>
      readerList(reply.request, await list.load(ctx, req.query, params(req.params)), req.query.locale, toItem),
  };
}

/**
 * The Reader's reads of a record collection (`media:read`): the list as `{data, meta}` and the
 * record as `{data}`, each record in the asked language by the locale rule (`readerRecordOf`).
 */
export function readerRecordRoutes<Row extends object>(app: ZodApp, r: ReaderRecordRoutes<Row>) {
  if (r.list) route(app, recordListRoute(r, r.list));
  if (r.get) {
    const { by, load, description, errors } = r.get;
    const toItem = readerMapperOf(r);
    route(app, {
      method: 'GET',
      url: `${r.path}/:${by}`,
      operationId: `readerGet${r.names.one}${by === 'id' ? '' : by === 'key' ? 'ByKey' : 'ByKeyOrId'}`,
      serves: r.kind,
      summary: `${r.label[0]!.toUpperCase()}${r.label.slice(1)} by ${by.replaceAll('_', ' ')}`,
      ...(description && { description }),
      tag: r.tag,
      access: { scope: 'media:read' },
      params: addressParams[by],
      querystring: localeQuery,
      response: { 200: dataOf(r.item) },
      ...(errors && { errors }),
      handler: async (ctx, { params, query }, reply) =>
        one(toItem(await load(ctx, (params as Record<string, string>)[by]!), readerView(reply.request, query.locale))),
    });
  }
}
