import { z } from 'zod';
import { one } from '../envelopes.js';
import type { Page } from '../paging.js';
import { readerRecordOf } from '../records.js';
import { type PagingQuery, dataOf, idParams } from '../schemas.js';
import { localeQuery, readerList, readerListOf, readerListQuery, readerView } from './reader.js';
import { type ErrorStatus, type RequestContext, type Tag, type ZodApp, route } from './route.js';

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
  plural: string;
  tag: Tag;
  /** The Reader record's schema (`recordSchemas().reader`). */
  item: z.ZodType;
  /** What readers see of the collection, one page; the sentence says which records. */
  list?: { load: (ctx: RequestContext, query: PagingQuery) => Promise<Page<Row>>; description: string };
  get?: { by: ReaderAddress; load: (ctx: RequestContext, address: string) => Promise<Row>; description?: string; errors?: ErrorStatus[] };
}

/**
 * The Reader's reads of a record collection (`media:read`): the list as `{data, meta}` and the
 * record as `{data}`, each record in the asked language by the locale rule (`readerRecordOf`).
 */
export function readerRecordRoutes<Row extends object>(app: ZodApp, r: ReaderRecordRoutes<Row>) {
  if (r.list) {
    const { load, description } = r.list;
    route(app, {
      method: 'GET',
      url: r.path,
      operationId: `readerList${r.names.many}`,
      summary: `List ${r.plural}`,
      description,
      tag: r.tag,
      access: { scope: 'media:read' },
      querystring: readerListQuery,
      response: { 200: readerListOf(r.item) },
      handler: async (ctx, { query }, reply) => readerList(reply.request, await load(ctx, query), query.locale, readerRecordOf),
    });
  }
  if (r.get) {
    const { by, load, description, errors } = r.get;
    route(app, {
      method: 'GET',
      url: `${r.path}/:${by}`,
      operationId: `readerGet${r.names.one}${by === 'id' ? '' : by === 'key' ? 'ByKey' : 'ByKeyOrId'}`,
      summary: `${r.label[0]!.toUpperCase()}${r.label.slice(1)} by ${by.replaceAll('_', ' ')}`,
      ...(description && { description }),
      tag: r.tag,
      access: { scope: 'media:read' },
      params: addressParams[by],
      querystring: localeQuery,
      response: { 200: dataOf(r.item) },
      ...(errors && { errors }),
      handler: async (ctx, { params, query }, reply) =>
        one(readerRecordOf(await load(ctx, (params as Record<string, string>)[by]!), readerView(reply.request, query.locale))),
    });
  }
}
