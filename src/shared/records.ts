import { type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db, Executor } from '../db/client.js';
import type { Aggregate, AggregateRow, PageFilter, PartDefs, PartEntry } from './aggregate.js';
import { AppError, type ErrorDetail, uniqueOr } from './errors.js';
import type { RequestContext } from './http/route.js';
import type { Keyset, Page, Paginator } from './paging.js';
import { type PagingQuery, isoTimestamp, locale as localeCode, uuid } from './schemas.js';
import { localesMeta, pickLocale } from './http/reader.js';
import { z } from 'zod';
import { rowsOf } from '../db/rows.js';

/**
 * Records declared as an aggregate whose wire fields are their columns in snake_case (a
 * record with locales: menus, webpages, announcements…): the standard service (list, get,
 * create, update, delete, restore, and the same reads in a view) comes from the declaration,
 * instead of one hand-written copy per collection. Body fields map to columns by name
 * (`organization_id` → `organizationId`); a sanitized HTML field (`richHtml()`: `{html, text}`)
 * fills its `_html` and `_text` columns; a body field named like a part of the aggregate
 * (`locales`, `entries`) is that part's complete set.
 */

const camel = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
// Wire names are few and read on every record: each is converted once.
const snakeNames = new Map<string, string>();
const snake = (key: string) => {
  let name = snakeNames.get(key);
  if (name === undefined) {
    name = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    if (snakeNames.size < 10_000) snakeNames.set(key, name);
  }
  return name;
};

const isHtml = (value: unknown): value is { html: string; text: string } =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && 'html' in value && 'text' in value && Object.keys(value).length === 2;

/** Column values from body fields: names to properties, HTML to its two columns; fields left out stay out. */
export function columnsOf(fields: Record<string, unknown>, skip: ReadonlySet<string> = new Set()): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || skip.has(key)) continue;
    if (key.endsWith('_html') && (isHtml(value) || value === null)) {
      out[camel(key)] = value?.html ?? null;
      out[camel(key.replace(/_html$/, '_text'))] = value?.text ?? null;
    } else out[camel(key)] = value;
  }
  return out;
}

/**
 * The order a wire schema declares an object's fields in, nested objects and arrays included (a
 * value stored as jsonb comes back with its keys shortest first): made once per schema.
 */
export interface WirePlan {
  /** Per field: its wire name, the row's property name, the plan of its value. */
  fields?: Array<readonly [wire: string, prop: string, value: WirePlan | undefined]>;
  items?: WirePlan | undefined;
}

const plans = new WeakMap<z.ZodType, WirePlan | undefined>();

/** The plan of a zod schema: objects, arrays, and what wraps them (nullable, optional, default, lazy); undefined for anything else. */
export function wirePlan(schema: z.ZodType): WirePlan | undefined {
  if (plans.has(schema)) return plans.get(schema);
  const def = (schema as unknown as { _zod: { def: { type: string; innerType?: z.ZodType; getter?: () => z.ZodType } } })._zod.def;
  if (def.type === 'nullable' || def.type === 'optional' || def.type === 'default' || def.type === 'readonly') return wirePlan(def.innerType!);
  if (def.type === 'lazy') return wirePlan(def.getter!());
  if (schema instanceof z.ZodArray) {
    const plan: WirePlan = {};
    plans.set(schema, plan);
    plan.items = wirePlan(schema.element as z.ZodType);
    return plan;
  }
  if (schema instanceof z.ZodObject) {
    // Set before its fields are planned: a tree (menu items) refers to itself.
    const plan: WirePlan = {};
    plans.set(schema, plan);
    plan.fields = Object.keys(schema.shape).map((wire) => [wire, camel(wire), wirePlan(schema.shape[wire] as z.ZodType)] as const);
    return plan;
  }
  plans.set(schema, undefined);
  return undefined;
}

/** One field of a plan onto `out`: the row's camelCase property, or the snake_case key of a stored JSON value; left out when absent. */
function planned(out: Record<string, unknown>, fields: Record<string, unknown>, [wire, prop, value]: NonNullable<WirePlan['fields']>[number]): void {
  const v = prop in fields ? fields[prop] : fields[wire];
  if (v !== undefined) out[wire] = wireOf(v, value);
}

/**
 * A row (and its parts) on the wire: property names in snake_case, the tenancy column left out.
 * With the schema's `plan`, its fields in the schema's order and only those (a field is the row's
 * camelCase property, or the snake_case key of a stored JSON value); without one, the row's order.
 */
export function wireOf(row: unknown, plan?: WirePlan): unknown {
  if (typeof row !== 'object' || row === null) return row;
  if (Array.isArray(row)) {
    const items = plan?.items;
    const out = new Array<unknown>(row.length);
    for (let i = 0; i < row.length; i++) out[i] = wireOf(row[i], items);
    return out;
  }
  // A hot path of every record read (a menu is a few hundred nested objects): no entries arrays.
  const fields = row as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  if (plan?.fields) {
    for (const field of plan.fields) planned(out, fields, field);
    return out;
  }
  for (const key in fields) {
    if (key === 'mediaId') continue;
    out[snake(key)] = wireOf(fields[key]);
  }
  return out;
}

/**
 * A reference from a record to another live record of the same media: the body field naming it
 * (`organization_id`; a list `category_ids`; in a part's entries `entries[].profile_id`) and
 * the owner of those records, which says which ids are live.
 */
export interface Reference {
  field: string;
  code: `${string}_not_found`;
  what: string;
  live: (db: Executor, mediaId: string, ids: string[]) => Promise<Set<string>>;
}

/** The ids a body names in a reference's field, each with its path. */
function namedIds(input: Record<string, unknown>, field: string): Array<{ id: string; path: string }> {
  const [head, tail] = field.split('[].');
  const value = input[head!];
  if (value === undefined || value === null) return [];
  if (tail) {
    return (value as Array<Record<string, unknown>>).flatMap((entry, i) =>
      typeof entry[tail] === 'string' ? [{ id: entry[tail], path: `${head}.${i}.${tail}` }] : [],
    );
  }
  if (Array.isArray(value)) return (value as string[]).map((id, i) => ({ id, path: `${field}.${i}` }));
  return [{ id: value as string, path: field }];
}

/** 404 naming each field whose record is not a live one of the media (references checked in order). */
export async function checkReferences(db: Executor, mediaId: string, input: Record<string, unknown>, refs: readonly Reference[]) {
  for (const ref of refs) {
    const named = namedIds(input, ref.field);
    if (named.length === 0) continue;
    const live = await ref.live(db, mediaId, [...new Set(named.map((n) => n.id))]);
    const details: ErrorDetail[] = named
      .filter((n) => !live.has(n.id))
      .map((n) => ({ path: n.path, message: 'is not a live record of this media' }));
    if (details.length > 0) throw new AppError(404, ref.code, `${ref.what} does not exist in this media`, details);
  }
}

/** The live ids among `ids` in a table with `id`, `media_id` and (when it has one) `deleted_at`: a reference's `live`. */
export const liveIdsIn =
  (table: PgTable, extra?: SQL) =>
  async (db: Executor, mediaId: string, ids: string[]): Promise<Set<string>> => {
    const cols = table as unknown as Record<string, unknown>;
    const rows = (await db.execute(
      sql`select ${cols.id} as id from ${table} where ${cols.mediaId} = ${mediaId} and ${cols.id} = any(${`{${ids.join(',')}}`}::uuid[])${
        cols.deletedAt ? sql` and ${cols.deletedAt} is null` : sql``
      }${extra ? sql` and ${extra}` : sql``}`,
    )) as unknown;
    const list = rowsOf<{ id: string }>(rows);
    return new Set(list.map((r) => r.id));
  };

export interface RecordSpec<R extends PgTable, P extends PartDefs, V extends string = never> {
  agg: Aggregate<R, P, V>;
  notFound: () => AppError;
  conflict: () => AppError;
  /** References checked before any write. */
  references?: readonly Reference[];
  /** The media's languages a body's `locales` must use. */
  assertLocales?: (mediaId: string, entries: Array<{ locale: string }>) => Promise<void>;
  /** A body as it is stored, when some fields need more than renaming (ids given to tree nodes). */
  prepare?: (input: Record<string, unknown>) => Record<string, unknown>;
  /** Checks of a whole update against the stored record (a window's two ends), before writing. */
  checkUpdate?: (current: AggregateRow<R, P>, patch: Record<string, unknown>) => void;
  /** The order of the Backoffice list (newest first by default). */
  order?: Keyset<AggregateRow<R, P>>;
  orderName?: string;
}

export function recordService<R extends PgTable, P extends PartDefs, V extends string = never>(
  deps: { db: Db; pager: Paginator },
  spec: RecordSpec<R, P, V>,
) {
  const { db, pager } = deps;
  const { agg } = spec;
  const partNames = new Set(Object.keys(agg.parts));
  type Row = AggregateRow<R, P>;
  const root = agg.root as PgTable & Record<string, never>;

  const keyColumn = (root as unknown as Record<string, SQL | undefined>).key;
  const byKey = keyColumn ? sql`${keyColumn} = ${sql.placeholder('key')}` : sql`false`;

  const load = async (executor: Executor, mediaId: string, id: string, view?: V): Promise<Row> => {
    const row = await agg.find(executor, id, mediaId, view);
    if (!row) throw spec.notFound();
    return row;
  };

  /** The body as stored, its languages checked against the media's (before any transaction: a cached lookup on `db`). */
  const accept = async (ctx: RequestContext, body: object): Promise<Record<string, unknown>> => {
    const input = spec.prepare ? spec.prepare(body as Record<string, unknown>) : (body as Record<string, unknown>);
    if (spec.assertLocales && Array.isArray(input.locales)) await spec.assertLocales(ctx.mediaId, input.locales as Array<{ locale: string }>);
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
    list: (ctx: RequestContext, query: PagingQuery): Promise<Page<Row>> =>
      agg.page(pager, db, ctx.mediaId, query, { ...(spec.order && { order: spec.order, orderName: spec.orderName ?? 'order' }) }),

    get: (ctx: RequestContext, id: string) => load(db, ctx.mediaId, id),

    /** A page of what a view lets through (readers' records; every live one without a view), in the list's order, with a caller's filter. */
    listIn: (ctx: RequestContext, query: PagingQuery, view: V | undefined, filter?: PageFilter): Promise<Page<Row>> =>
      agg.page(pager, db, ctx.mediaId, query, {
        ...(view && { view }),
        ...(spec.order && { order: spec.order, orderName: spec.orderName ?? 'order' }),
        ...(filter && { filter }),
      }),

    getIn: (ctx: RequestContext, id: string, view: V) => load(db, ctx.mediaId, id, view),

    /** The media of the live record (in a view, when named): one prepared statement; the record's 404 when there is none. */
    async mediaOf(id: string, view?: V): Promise<string> {
      const owner = await agg.ownerOf(db, id, view);
      if (owner === undefined) throw spec.notFound();
      return owner;
    },

    /** The record with this natural key (`key`) in a view, else 404. */
    async getBy(ctx: RequestContext, filter: PageFilter, view?: V): Promise<Row> {
      const row = await agg.findBy(db, ctx.mediaId, filter, view);
      if (!row) throw spec.notFound();
      return row;
    },

    /** The record with this `key` (a keyed collection's natural key) in a view, else 404: one prepared statement. */
    getByKey(ctx: RequestContext, key: string, view?: V): Promise<Row> {
      return this.getBy(ctx, { name: 'key', where: byKey, params: { key } }, view);
    },

    async create(ctx: RequestContext, body: object): Promise<Row> {
      const input = await accept(ctx, body);
      return db.transaction(async (tx) => load(tx, ctx.mediaId, await write(tx, ctx, input)));
    },

    async update(ctx: RequestContext, id: string, patch: object): Promise<Row> {
      const input = await accept(ctx, patch);
      return db.transaction(async (tx) => {
        if (!(await agg.lock(tx, id, ctx.mediaId))) throw spec.notFound();
        if (spec.checkUpdate) spec.checkUpdate(await load(tx, ctx.mediaId, id), input);
        await write(tx, ctx, input, id);
        return load(tx, ctx.mediaId, id);
      });
    },

    async remove(ctx: RequestContext, id: string): Promise<void> {
      if (!(await db.transaction((tx) => agg.softDelete(tx, id, ctx.mediaId)))) throw spec.notFound();
    },

    restore: (ctx: RequestContext, id: string): Promise<Row> =>
      db.transaction(async (tx) => {
        if ((await agg.restore(tx, id, ctx.mediaId)) === 'not_found') throw spec.notFound();
        return load(tx, ctx.mediaId, id);
      }),
  };
}

export type RecordService = ReturnType<typeof recordService>;

/** A body's language entries: one per locale, at least one. */
const localesIn = <L extends z.ZodRawShape>(locale: L) =>
  z
    .array(z.strictObject({ locale: localeCode, ...locale }))
    .min(1)
    .max(50)
    .refine((entries) => new Set(entries.map((e) => (e as unknown as { locale: string }).locale)).size === entries.length, {
      message: 'each locale may appear only once',
    });

/**
 * The four schemas of a record with locales, from its fields once: the Backoffice record
 * (`locales` with every entry), the Reader record (one entry as `localized`, spec 2.15's shape,
 * with meta.locales), the create body and the update body (every field optional).
 */
export function recordSchemas<F extends z.ZodRawShape, I extends z.ZodRawShape, L extends z.ZodRawShape, LI extends z.ZodRawShape>(
  name: string,
  d: {
    fields: F;
    input: I;
    locale?: L;
    localeInput?: LI;
    /** A rule over the create body's fields together (exactly one of two references), with the path it names. */
    createRule?: { check: (body: Record<string, unknown>) => boolean; message: string; path: string };
    /** The OpenAPI examples of the bodies, where one derived from the schema would not pass its rules. */
    examples?: { create?: unknown; update?: unknown };
  },
) {
  const locale = d.locale ? { locale: z.object({ id: uuid, locale: localeCode, ...d.locale }) } : undefined;
  const localeInput = d.localeInput ? localesIn(d.localeInput) : undefined;
  const item = z
    .object({
      id: uuid,
      ...d.fields,
      ...(locale && { locales: z.array(locale.locale.extend({ deleted_at: isoTimestamp.nullable() })) }),
      inserted_at: isoTimestamp,
      updated_at: isoTimestamp,
      deleted_at: isoTimestamp.nullable(),
    })
    .meta({ id: name });
  const reader = z
    .object({
      id: uuid,
      ...d.fields,
      ...(locale && { localized: locale.locale.nullable().describe('The entry of the asked language (locale rule), null when the record has none') }),
      meta: z.object({ locales: localesMeta }),
      inserted_at: isoTimestamp,
      updated_at: isoTimestamp,
    })
    .meta({ id: `Reader${name}` });
  const rule = d.createRule;
  const create = z
    .strictObject({ ...d.input, ...(localeInput && { locales: localeInput }) })
    .refine((body) => !rule || rule.check(body as Record<string, unknown>), { message: rule?.message ?? '', path: rule ? [rule.path] : [] })
    .meta({ id: `${name}Create`, ...(d.examples?.create !== undefined && { examples: [d.examples.create] }) });
  const partial = Object.fromEntries(Object.entries(d.input).map(([k, v]) => [k, (v as z.ZodType).optional()])) as unknown as {
    [K in keyof I]: z.ZodOptional<I[K]>;
  };
  const update = z
    .strictObject({
      ...partial,
      ...(localeInput && { locales: localeInput.optional().describe('The complete set of locale entries: listed ones are created or updated, others are deleted') }),
    })
    .meta({ id: `${name}Update`, ...(d.examples?.update !== undefined && { examples: [d.examples.update] }) });
  return { item, reader, create, update };
}

/**
 * A record as readers see it, in the order of its Reader schema's `plan`: its fields, the entry of
 * the asked language as `localized`, meta.locales, its timestamps.
 */
export function readerRecordOf(row: object, view: { locale: string | undefined; fallback: string }, plan: WirePlan) {
  // The language is picked first, so that only the served entry (of several, each with its parts) is mapped.
  const fields = row as Record<string, unknown> & { locales?: Array<{ locale: string }> };
  const picked = fields.locales ? pickLocale(fields.locales, view.locale, view.fallback) : undefined;
  const out: Record<string, unknown> = {};
  for (const field of plan.fields ?? []) {
    const [wire, , value] = field;
    if (wire === 'localized') out.localized = picked?.entry ? wireOf(picked.entry, value) : null;
    else if (wire === 'meta') out.meta = { locales: picked?.meta ?? { current: null, available: [] } };
    else planned(out, fields, field);
  }
  return out;
}

/** The Backoffice wire of a record: `wireOf` in the order of its schema's `plan`, typed as the schema's input. */
export const backofficeRecordOf = <T>(row: object, plan: WirePlan | undefined) => wireOf(row, plan) as T;
