import { type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db, Executor } from '../../db/client.js';
import type { Aggregate, AggregateRow, PageFilter, PartDefs, PartEntry } from '../aggregate.js';
import { type RequestContext, transaction } from '../context.js';
import { type AppError, uniqueOr } from '../errors.js';
import type { Keyset, Page, Paginator } from '../paging.js';
import type { PagingQuery } from '../schemas.js';
import { type Reference, checkReferences } from './references.js';
import { columnsOf } from './wire.js';

/**
 * What the standard service of a record needs to know beyond its aggregate: its errors, the
 * references a body names, how a body is stored when renaming fields is not enough, and the
 * rules a whole update is checked against.
 */
export interface RecordSpec<R extends PgTable, P extends PartDefs, V extends string = never> {
  agg: Aggregate<R, P, V>;
  notFound: () => AppError;
  conflict: () => AppError;
  /** References checked before any write. */
  references?: readonly Reference[];
  /** The media's languages a body's `locales` must use. */
  assertLocales?: (ctx: RequestContext, entries: Array<{ locale: string }>) => Promise<void>;
  /** A body as it is stored, when some fields need more than renaming (ids given to tree nodes, an SVG sanitized). */
  prepare?: (input: Record<string, unknown>) => Record<string, unknown>;
  /** Checks of a whole update against the stored record (a window's two ends), before writing. */
  checkUpdate?: (current: AggregateRow<R, P>, patch: Record<string, unknown>) => void;
  /**
   * An update is a full replace (`PUT`), validated like a create: these body fields, when a body
   * leaves them out, are stored as null (a part's set: empty). Without it an update is a patch.
   */
  replaces?: readonly string[];
  /** Checks run before a delete, in its transaction, under the record's lock (a 409 while other records use it). */
  checkDelete?: (tx: Executor, mediaId: string, id: string) => Promise<void>;
  /** The order of the Backoffice list (newest first by default). */
  order?: Keyset<AggregateRow<R, P>>;
  orderName?: string;
}

/** A body's fields without those it leaves out (zod answers an optional field left out as undefined). */
const withoutUndefined = (body: object) => Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));

/**
 * The standard service of a record declared as an aggregate: list, get, create, update, delete,
 * restore, and the same reads in a view (what readers see). Every statement runs on the
 * context's executor: a Backoffice write's transaction, or the database. Body fields map to
 * columns by name (`organization_id` → `organizationId`); a body field named like a part of the
 * aggregate (`locales`, `entries`) is that part's complete set. `deps.db` serves the one read
 * made before a request knows its media (`mediaOf`: a Public path that names a record).
 */
export function recordService<R extends PgTable, P extends PartDefs, V extends string = never>(
  deps: { db: Db; pager: Paginator },
  spec: RecordSpec<R, P, V>,
): RecordService<AggregateRow<R, P>, V> {
  const { db, pager } = deps;
  const { agg } = spec;
  const partNames = new Set(Object.keys(agg.parts));
  type Row = AggregateRow<R, P>;
  const root = agg.root as PgTable & Record<string, never>;

  const keyColumn = (root as unknown as Record<string, SQL | undefined>).key;
  const byKey = keyColumn ? sql`${keyColumn} = ${sql.placeholder('key')}` : sql`false`;
  const order = spec.order && { order: spec.order, orderName: spec.orderName ?? 'order' };

  /** The live record (in a view, when named), or the record's 404: the one "load or 404". */
  const load = async (executor: Executor, mediaId: string, id: string, view?: V): Promise<Row> => {
    const row = await agg.find(executor, id, mediaId, view);
    if (!row) throw spec.notFound();
    return row;
  };

  /** What a replace stores for a field its body leaves out: null, an empty set for a part. */
  const leftOut = Object.fromEntries((spec.replaces ?? []).map((field) => [field, partNames.has(field) ? [] : null]));

  /** The body as stored, its languages checked against the media's (a cached lookup). */
  const accept = async (ctx: RequestContext, body: object): Promise<Record<string, unknown>> => {
    const input = spec.prepare ? spec.prepare(body as Record<string, unknown>) : (body as Record<string, unknown>);
    if (spec.assertLocales && Array.isArray(input.locales)) await spec.assertLocales(ctx, input.locales as Array<{ locale: string }>);
    return input;
  };

  /** Checks the references, then writes the root's columns (`id` given: an update) and each part set sent. */
  const write = async (tx: Executor, ctx: RequestContext, input: Record<string, unknown>, id?: string): Promise<string> => {
    await checkReferences(tx, ctx.mediaId, input, spec.references ?? []);
    const values = columnsOf(input, partNames);
    if (id === undefined) {
      const [row] = await uniqueOr(
        tx
          .insert(root)
          .values({ ...values, mediaId: ctx.mediaId } as never)
          .returning({ id: sql<string>`id` }),
        spec.conflict,
      );
      id = row!.id;
    } else {
      // updated_at always moves, so that a PATCH of parts alone also marks the record.
      await uniqueOr(
        tx
          .update(root)
          .set({ ...values, updatedAt: new Date() } as never)
          .where(sql`id = ${id}`),
        spec.conflict,
      );
    }
    for (const name of partNames) {
      const entries = input[name] as Array<Record<string, unknown>> | undefined;
      if (entries !== undefined) await agg.replace(tx, name, id, entries.map((e) => columnsOf(e) as PartEntry));
    }
    return id;
  };

  return {
    lock: (tx: Executor, id: string, mediaId: string) => agg.lock(tx, id, mediaId),

    exists: async (executor: Executor, mediaId: string, id: string) => Boolean(await agg.find(executor, id, mediaId)),

    list: (ctx: RequestContext, query: PagingQuery): Promise<Page<Row>> => agg.page(pager, ctx.db, ctx.mediaId, query, { ...order }),

    get: (ctx: RequestContext, id: string) => load(ctx.db, ctx.mediaId, id),

    listIn: (ctx: RequestContext, query: PagingQuery, view: V | undefined, filter?: PageFilter): Promise<Page<Row>> =>
      agg.page(pager, ctx.db, ctx.mediaId, query, { ...(view && { view }), ...order, ...(filter && { filter }) }),

    getIn: (ctx: RequestContext, id: string, view: V) => load(ctx.db, ctx.mediaId, id, view),

    async mediaOf(id: string, view?: V): Promise<string> {
      const owner = await agg.ownerOf(db, id, view);
      if (owner === undefined) throw spec.notFound();
      return owner;
    },

    async getBy(ctx: RequestContext, filter: PageFilter, view?: V): Promise<Row> {
      const row = await agg.findBy(ctx.db, ctx.mediaId, filter, view);
      if (!row) throw spec.notFound();
      return row;
    },

    getByKey(ctx: RequestContext, key: string, view?: V): Promise<Row> {
      return this.getBy(ctx, { name: 'key', where: byKey, params: { key } }, view);
    },

    async create(ctx: RequestContext, body: object): Promise<Row> {
      const input = await accept(ctx, body);
      return transaction(ctx, async (tx) => load(tx, ctx.mediaId, await write(tx, ctx, input)));
    },

    async update(ctx: RequestContext, id: string, patch: object): Promise<Row> {
      const input = await accept(ctx, spec.replaces ? { ...leftOut, ...withoutUndefined(patch) } : patch);
      return transaction(ctx, async (tx) => {
        if (!(await agg.lock(tx, id, ctx.mediaId))) throw spec.notFound();
        if (spec.checkUpdate) spec.checkUpdate(await load(tx, ctx.mediaId, id), input);
        await write(tx, ctx, input, id);
        return load(tx, ctx.mediaId, id);
      });
    },

    /** The one soft delete: the record and its whole live tree, with one stamp (once its checks pass, the record locked). */
    async remove(ctx: RequestContext, id: string): Promise<void> {
      const deleted = await transaction(ctx, async (tx) => {
        if (spec.checkDelete) {
          if (!(await agg.lock(tx, id, ctx.mediaId))) return false;
          await spec.checkDelete(tx, ctx.mediaId, id);
        }
        return agg.softDelete(tx, id, ctx.mediaId);
      });
      if (!deleted) throw spec.notFound();
    },

    restore: (ctx: RequestContext, id: string): Promise<Row> =>
      transaction(ctx, async (tx) => {
        if ((await agg.restore(tx, id, ctx.mediaId)) === 'not_found') throw spec.notFound();
        return load(tx, ctx.mediaId, id);
      }),
  };
}

/**
 * What the standard service of a record answers, typed by its row (`Row`: the aggregate's root
 * columns, parts and computed fields, as its reads give them) and the views it reads in (`V`).
 */
export interface RecordService<Row = Record<string, unknown>, V extends string = string> {
  /** The record's row, locked by a write (and by a conditional write while If-Match is compared). */
  lock(tx: Executor, id: string, mediaId: string): Promise<boolean>;
  /** Whether a live record of the media has this id: for another record that points at one. */
  exists(executor: Executor, mediaId: string, id: string): Promise<boolean>;
  list(ctx: RequestContext, query: PagingQuery): Promise<Page<Row>>;
  get(ctx: RequestContext, id: string): Promise<Row>;
  /** A page of what a view lets through (readers' records; every live one without a view), in the list's order, with a caller's filter. */
  listIn(ctx: RequestContext, query: PagingQuery, view: V | undefined, filter?: PageFilter): Promise<Page<Row>>;
  getIn(ctx: RequestContext, id: string, view: V): Promise<Row>;
  /** The media of the live record (in a view, when named): one prepared statement; the record's 404 when there is none. */
  mediaOf(id: string, view?: V): Promise<string>;
  /** The record matching a caller's named filter (a natural key) in a view, else 404. */
  getBy(ctx: RequestContext, filter: PageFilter, view?: V): Promise<Row>;
  /** The record with this `key` (a keyed record's natural key) in a view, else 404: one prepared statement. */
  getByKey(ctx: RequestContext, key: string, view?: V): Promise<Row>;
  create(ctx: RequestContext, body: object): Promise<Row>;
  /** A patch, or a full replace where the record says so (`replaces`). */
  update(ctx: RequestContext, id: string, patch: object): Promise<Row>;
  /** The one soft delete: the record and its whole live tree, with one stamp. */
  remove(ctx: RequestContext, id: string): Promise<void>;
  /** The one restore: exactly what the delete took, idempotent, the record's 409 when its key was taken meanwhile. */
  restore(ctx: RequestContext, id: string): Promise<Row>;
}
