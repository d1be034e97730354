import { type Column, type InferSelectModel, type SQL, getTableColumns, getTableName, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/client.js';
import { AppError, uniqueOr } from './errors.js';
import { type Keyset, type Page, type Paginator, newestFirst } from './paging.js';
import { type Prepared, StatementCache, rowsAsSelected } from './prepared.js';
import type { PagingQuery } from './schemas.js';
import { rowsOf } from '../db/rows.js';

/**
 * Records with nested parts (category → locales; content → locales → blocks; issue →
 * sections → blocks → slots), declared once per aggregate. From the declaration come:
 * - the read: the record with its live parts nested as JSON, in the record's own statement
 *   (one per record or per page, never one per part);
 * - `replace`: a part set written from a wire array, matched by natural key or id;
 * - `softDelete` / `restore`: the whole tree stamped with one `deleted_at`, and exactly
 *   that stamp cleared again, at any depth; a part deleted on its own keeps its own stamp.
 * Timestamps are read as ISO-8601 UTC text with milliseconds, the wire format, by SQL.
 */

type Columns<T extends PgTable> = T['_']['columns'];
type Props<T extends PgTable> = keyof Columns<T> & string;

/** A row as the aggregate reads it: timestamps are already wire text. */
export type Wire<T> = {
  [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K];
};

/**
 * A field of a part's JSON computed in SQL from its row (a referenced record's fields, read in
 * the same statement): `col` names a column of the part's row.
 */
export type Computed<V = unknown> = (col: (c: PgColumn) => SQL) => SQL<V>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each computed field has its own value type
export type ComputedDefs = Record<string, Computed<any>>;

export interface PartDef<
  T extends PgTable = PgTable,
  P extends PartDefs = PartDefs,
  C extends Props<T> = Props<T>,
  X extends ComputedDefs = ComputedDefs,
> {
  table: T;
  /** The column pointing at the parent row (the record, or the part above). */
  parent: PgColumn;
  /**
   * How `replace` recognises an entry as an existing part: its natural key columns (a
   * `locale`, a metadata `key`), or `'id'` (ordered children sent back with their ids).
   */
  match: 'id' | readonly Props<T>[];
  /** Ordered children: the 0-based column `replace` fills from the array index, and the read's order. */
  position?: Props<T> | undefined;
  /** The columns served in the JSON (all by default). */
  columns?: readonly C[] | undefined;
  /** Fields computed in SQL beside the columns. */
  computed?: X | undefined;
  parts: P;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a part's own types vary per declaration
export type PartDefs = Record<string, PartDef<any, any, any>>;

type RowOf<T extends PgTable, C extends Props<T>> = Wire<Pick<InferSelectModel<T>, C & keyof InferSelectModel<T>>>;

// The served columns are read off the declaration's `columns` itself: inferred through
// PartDef's parameters they widened back to every column of the table.
type ServedOf<D, T extends PgTable> = D extends { columns?: readonly (infer C)[] | undefined } ? C & Props<T> : Props<T>;

type ComputedOf<D> = D extends { computed?: infer X } ? { [K in keyof NonNullable<X>]: NonNullable<X>[K] extends Computed<infer V> ? V : never } : NoParts;

export type PartRow<D> =
  D extends PartDef<infer T, infer P> ? RowOf<T, ServedOf<D, T>> & ComputedOf<D> & { [K in keyof P]: PartRow<P[K]>[] } : never;

/** Declares a part: its table, parent column, match rule, order and parts of its own. */
interface PartOptions<T extends PgTable, C, X> {
  parent: PgColumn;
  match: 'id' | readonly Props<T>[];
  position?: Props<T>;
  columns?: C;
  computed?: X;
}

type NoParts = Record<never, never>;

// Two signatures: without `parts`, a generic P would be inferred from the aggregate's
// contextual type (an index signature) and the row type would accept any key.
export function part<T extends PgTable, const C extends readonly Props<T>[] = readonly Props<T>[], X extends ComputedDefs = NoParts>(
  table: T,
  options: PartOptions<T, C, X> & { parts?: undefined },
): PartDef<T, NoParts, C[number], X>;
export function part<
  T extends PgTable,
  P extends PartDefs,
  const C extends readonly Props<T>[] = readonly Props<T>[],
  X extends ComputedDefs = NoParts,
>(table: T, options: PartOptions<T, C, X> & { parts: P }): PartDef<T, P, C[number], X>;
export function part(table: PgTable, options: PartOptions<PgTable, readonly string[], ComputedDefs> & { parts?: PartDefs }): PartDef {
  return {
    table,
    parent: options.parent,
    match: options.match,
    position: options.position,
    columns: options.columns,
    computed: options.computed,
    parts: options.parts ?? {},
  };
}

const column = (table: PgTable, prop: string): PgColumn => {
  const found = (getTableColumns(table) as Record<string, PgColumn>)[prop];
  if (!found) throw new Error(`${getTableName(table)} has no column ${prop}`);
  return found;
};

const isTimestamp = (col: Column) => col.getSQLType().startsWith('timestamp');

/**
 * A column as the JSON read writes it: timestamps as wire text, dates as `YYYY-MM-DD` text (the
 * drivers would otherwise differ: node-postgres parses a date into a local-midnight Date).
 */
const readAs = (col: Column, qualified: SQL): SQL =>
  isTimestamp(col) ? isoText(col, qualified) : col.getSQLType() === 'date' ? sql`${qualified}::text` : qualified;

/** A timestamp column as the wire writes it: ISO 8601, UTC, milliseconds. */
export const isoText = (col: Column, qualified?: SQL): SQL<string> =>
  sql<string>`to_char(${qualified ?? col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const deletedAtOf = (table: PgTable): PgColumn | undefined => (getTableColumns(table) as Record<string, PgColumn>).deletedAt;
const idOf = (table: PgTable): PgColumn => column(table, 'id');

const ref = (alias: string, col: Column) => sql`${sql.identifier(alias)}.${sql.identifier(col.name)}`;

/** The nested JSON array of one part under the row `parentAlias`, live rows only, in order. */
function partJson(def: PartDef, parentAlias: string, parentId: Column, depth: number): SQL {
  const alias = `p${depth}`;
  const all = getTableColumns(def.table) as Record<string, PgColumn>;
  const props = (def.columns as string[] | undefined) ?? Object.keys(all);
  const fields: SQL[] = props.map((prop) => {
    const col = all[prop]!;
    return sql`${sql.raw(`'${prop}'`)}, ${readAs(col, ref(alias, col))}`;
  });
  for (const [name, compute] of Object.entries(def.computed ?? {})) {
    fields.push(sql`${sql.raw(`'${name}'`)}, ${compute((c) => ref(alias, c))}`);
  }
  for (const [name, child] of Object.entries(def.parts)) {
    fields.push(sql`${sql.raw(`'${name}'`)}, ${partJson(child, alias, idOf(def.table), depth + 1)}`);
  }
  const deleted = deletedAtOf(def.table);
  const order = [...(def.position ? [column(def.table, def.position)] : []), idOf(def.table)].map((c) => ref(alias, c));
  return sql`coalesce((select json_agg(json_build_object(${sql.join(fields, sql`, `)}) order by ${sql.join(order, sql`, `)})
    from ${def.table} ${sql.identifier(alias)}
    where ${ref(alias, def.parent)} = ${ref(parentAlias, parentId)}${deleted ? sql` and ${ref(alias, deleted)} is null` : sql``}), '[]'::json)`;
}

/**
 * A view's filter: fixed SQL, or a rule of the instant it is read at (`at`: SQL of a timestamptz),
 * such as publishing, so that one predicate serves now (`now()`) and a time-travel preview.
 */
export type ViewDef = SQL | ((at: SQL) => SQL);

/** A view read as it will be at an instant (a time-travel preview) rather than now. */
export interface ViewAsOf<V extends string> {
  view: V;
  asOf: Date;
}

/** A read's view: a name (read now), or a name and an instant. */
export type ViewRef<V extends string> = V | ViewAsOf<V>;

/** The instant of a view read now: the statement's time, the same for every row. */
const NOW = sql`now()`;
/** The instant of a prepared read at a given time: its `as_of` placeholder. */
const AS_OF = sql`${sql.placeholder('as_of')}::timestamptz`;

export interface AggregateOptions<R extends PgTable, P extends PartDefs, V extends string, X extends ComputedDefs = NoParts> {
  /** Tenancy: the column naming who the record belongs to (a media, a reader). */
  owner: PgColumn;
  /** Named narrower reads beside the live one (`published`: what readers see), each fixed or a rule of the instant. */
  views?: Record<V, ViewDef>;
  parts: P;
  /** The 409 a unique index answers with, on a write or a restore. */
  conflict: () => AppError;
  /** The root columns read (all by default). */
  columns?: readonly Props<R>[];
  /**
   * The name of its statements and cursors (the root table's by default): two aggregates over
   * one table (a lean read for lists beside the whole tree) need names of their own.
   */
  name?: string;
  /**
   * Fields computed in SQL from the root row beside its columns (a referenced record's fields,
   * read in the record's own statement): `col` names a column of the root.
   */
  computed?: X;
  /**
   * The rows of the root table that are this aggregate's records, when the table holds several
   * kinds of record (a community profile's `kind`): every read, lock, delete and restore sees
   * only those. Give such an aggregate a `name` of its own.
   */
  rows?: SQL;
}

type ComputedValues<X> = { [K in keyof X]: X[K] extends Computed<infer V> ? V : never };

export type AggregateRow<R extends PgTable, P extends PartDefs, X = NoParts> = Wire<InferSelectModel<R>> & {
  [K in keyof P]: PartRow<P[K]>[];
} & ComputedValues<X>;

/**
 * A caller's filter on an aggregate's pages: SQL over the root with named placeholders, their
 * values, and a name for its shape (which filters are on), so that each shape is prepared once.
 */
export interface PageFilter {
  name: string;
  where: SQL;
  params?: Record<string, unknown>;
  /** Plan each execution with its values (a search's filter: `Listing.prepared.customPlans`). */
  customPlans?: boolean;
}

export type RestoreOutcome = 'restored' | 'not_deleted' | 'not_found';

/** Entries for `replace`: column values by property name, without the parent column. */
export type PartEntry = Record<string, unknown> & { id?: string };

export function aggregate<R extends PgTable, P extends PartDefs, V extends string = never, X extends ComputedDefs = NoParts>(
  root: R,
  options: AggregateOptions<R, P, V, X>,
) {
  type Row = AggregateRow<R, P, X>;
  const tableName = getTableName(root);
  const rootName = options.name ?? tableName;
  const rootId = idOf(root);
  const rootDeleted = deletedAtOf(root);
  const rootColumns = getTableColumns(root) as Record<string, PgColumn>;

  /**
   * The select shape: the root's columns (timestamps as wire text) and each part nested,
   * every one aliased to its property name, so that the driver's rows are already the
   * row shape and hot reads skip Drizzle's per-field mapping (`rowsAsSelected`).
   */
  const columns: Record<string, SQL.Aliased> = {};
  for (const prop of (options.columns as string[] | undefined) ?? Object.keys(rootColumns)) {
    const col = rootColumns[prop]!;
    columns[prop] = sql`${readAs(col, ref(tableName, col))}`.as(prop);
  }
  for (const [name, def] of Object.entries(options.parts)) {
    columns[name] = sql`${partJson(def, tableName, rootId, 1)}`.as(name);
  }
  for (const [name, compute] of Object.entries(options.computed ?? {})) {
    columns[name] = sql`${compute((c) => ref(tableName, c))}`.as(name);
  }

  /** Finds a part declaration by its dotted path (`locales`, `locales.blocks`), with its ancestors. */
  const lineage = (path: string): PartDef[] => {
    const chain: PartDef[] = [];
    let level: PartDefs = options.parts;
    for (const name of path.split('.')) {
      const def = level[name];
      if (!def) throw new Error(`${rootName} has no part ${path}`);
      chain.push(def);
      level = def.parts;
    }
    return chain;
  };

  /**
   * The ids of the rows at the last level of `chain` below the rows `start` (ids of the
   * level above the chain's first part): nested subqueries, each level filtered by
   * `state` (the stamp a cascade just wrote, or live).
   */
  const idsUnder = (chain: PartDef[], start: SQL, state: (table: PgTable) => SQL | undefined): SQL => {
    let ids = start;
    for (const def of chain) {
      const filter = state(def.table);
      ids = sql`select ${idOf(def.table)} from ${def.table} where ${def.parent} in (${ids})${filter ? sql` and ${filter}` : sql``}`;
    }
    return ids;
  };

  const idList = (ids: string[]) => sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `);

  /** Every part declaration below `parts`, parents before children, with its path from there. */
  const descendants = (parts: PartDefs, above: PartDef[] = []): PartDef[][] =>
    Object.values(parts).flatMap((def) => [[...above, def], ...descendants(def.parts, [...above, def])]);

  /** Stamps the live rows of every soft-deletable part below the rows `start`, which carry `stamp` already. */
  const cascadeDelete = async (tx: Executor, parts: PartDefs, start: SQL, stamp: string) => {
    for (const chain of descendants(parts)) {
      const def = chain.at(-1)!;
      const deleted = deletedAtOf(def.table);
      if (!deleted) continue;
      const parentIds = idsUnder(chain.slice(0, -1), start, (t) => {
        const d = deletedAtOf(t);
        return d ? sql`${d} = ${stamp}::timestamptz` : undefined;
      });
      await tx.execute(
        sql`update ${def.table} set ${sql.identifier(deleted.name)} = ${stamp}::timestamptz
            where ${def.parent} in (${parentIds}) and ${deleted} is null`,
      );
    }
  };

  const alive = rootDeleted ? sql`${rootDeleted} is null` : sql`true`;
  const live = options.rows ? sql`${alive} and ${options.rows}` : alive;
  const statements = new StatementCache();

  /** A view's filter read at `at` (now by default). */
  const viewAt = (view: V, at: SQL = NOW): SQL => {
    const def = options.views![view];
    return typeof def === 'function' ? def(at) : def;
  };
  /** A view ref's name, the suffix of its statements and its placeholders' values (`as_of`). */
  const refOf = (ref: ViewRef<V> | undefined): { view: V | undefined; suffix: string; params: Record<string, unknown> | undefined } =>
    ref === undefined || typeof ref === 'string'
      ? { view: ref, suffix: '', params: undefined }
      : { view: ref.view, suffix: '_asof', params: { as_of: ref.asOf.toISOString() } };

  // Newest first, the default order of an aggregate's pages, needs the root's inserted_at.
  const defaultOrder = rootColumns.insertedAt
    ? newestFirst(rootColumns as unknown as { insertedAt: PgColumn; id: PgColumn })
    : undefined;

  /** A page's select on the executor its statement is prepared on: one function for every page. */
  const selectOn = (executor: object | undefined) => (executor as Executor).select(columns).from(root as PgTable) as never;
  /**
   * The filter of an owner's page in a view (and a caller's named filter), with the owner as the
   * placeholder `owner`: made once per view and filter name.
   */
  const pageFilters = new Map<string, SQL>();
  const pageFilter = (view: V | undefined, extra: PageFilter | undefined, asOf = false): SQL => {
    const key = `${view ?? ''}:${asOf ? '@' : ''}:${extra?.name ?? ''}`;
    let filter = pageFilters.get(key);
    if (!filter) {
      filter = sql`${options.owner} = ${sql.placeholder('owner')} and ${live}${view ? sql` and ${viewAt(view, asOf ? AS_OF : NOW)}` : sql``}${
        extra ? sql` and ${extra.where}` : sql``
      }`;
      pageFilters.set(key, filter);
    }
    return filter;
  };

  /**
   * The prepared lookup of live records by id (`find`: the placeholder `id`) or ids (`many`: the
   * uuid[] placeholder `ids`) of the placeholder `owner`, in a view: built once per executor.
   */
  const lookup = (db: Executor, by: 'find' | 'many', view?: V, asOf = false) => {
    const name = `${rootName}_${by}_${view ?? 'live'}${asOf ? '_asof' : ''}`;
    const hit = statements.get<Row>(db, name);
    if (hit) return hit;
    const byId = by === 'find' ? sql`${rootId} = ${sql.placeholder('id')}` : sql`${rootId} = any(${sql.placeholder('ids')}::uuid[])`;
    return statements.set(
      db,
      name,
      db
        .select(columns)
        .from(root as PgTable)
        .where(sql`${byId} and ${pageFilter(view, undefined, asOf)}`)
        .prepare(name),
    );
  };

  const ownedBy = (id: string, ownerId: string) =>
    sql`${rootId} = ${id} and ${options.owner} = ${ownerId}${options.rows ? sql` and ${options.rows}` : sql``}`;

  return {
    root,
    parts: options.parts,
    /** The 409 a unique index answers with (a revert writing rows back). */
    conflict: options.conflict,
    /** The root column naming the owner (tenancy). */
    owner: options.owner,
    /** The select shape for `db.select(agg.columns).from(agg.root)` and paged listings (`rowsAsSelected`). */
    columns: columns as unknown as { [K in keyof Row]: SQL.Aliased<Row[K]> },

    /**
     * The filter of a read: live rows (the default of every read), narrowed by a declared view,
     * read at `at` (SQL of the instant: now by default; `agg.asOfPlaceholder` in a prepared statement).
     */
    filter: (view?: V, at?: SQL): SQL => {
      const narrower = view && options.views?.[view] ? viewAt(view, at) : undefined;
      return sql`${live}${narrower ? sql` and ${narrower}` : sql``}`;
    },

    /** The instant of a prepared statement read at a given time: bind `as_of` (ISO text) to it. */
    asOfPlaceholder: AS_OF,

    /**
     * The live record with its live parts (in a view, when named), or undefined: a prepared
     * primary-key lookup, one statement whatever the depth.
     */
    async find(db: Executor, id: string, ownerId: string, view?: ViewRef<V>): Promise<Row | undefined> {
      const ref = refOf(view);
      const statement = lookup(db, 'find', ref.view, ref.params !== undefined);
      const [row] = await rowsAsSelected(statement, ref.params ? { ...ref.params, id, owner: ownerId } : { id, owner: ownerId });
      return row as Row | undefined;
    },

    /**
     * Whose live record `id` is (in a view, when named), or undefined: the tenant of a record a
     * Public path addresses without naming its media. A prepared primary-key lookup.
     */
    async ownerOf(db: Executor, id: string, view?: V): Promise<string | undefined> {
      const name = `${rootName}_owner_${view ?? 'live'}`;
      let statement = statements.get<{ owner: string }>(db, name);
      if (!statement) {
        const narrower = view ? viewAt(view) : undefined;
        statement = statements.set(
          db,
          name,
          db
            .select({ owner: sql<string>`${options.owner}`.as('owner') })
            .from(root as PgTable)
            .where(sql`${rootId} = ${sql.placeholder('id')} and ${live}${narrower ? sql` and ${narrower}` : sql``}`)
            .limit(1)
            .prepare(name) as unknown as Prepared<{ owner: string }>,
        );
      }
      const [row] = await rowsAsSelected(statement, { id });
      return row?.owner;
    },

    /**
     * The live record matching a caller's named filter (a natural key: `key = :key`), with its
     * parts, in a view when named: one prepared statement per filter name and view.
     */
    async findBy(db: Executor, ownerId: string, filter: PageFilter, view?: V): Promise<Row | undefined> {
      const name = `${rootName}_by_${filter.name}_${view ?? 'live'}`;
      let statement = statements.get<Row>(db, name);
      if (!statement) {
        statement = statements.set(
          db,
          name,
          db
            .select(columns)
            .from(root as PgTable)
            .where(pageFilter(view, filter))
            .limit(1)
            .prepare(name) as unknown as Prepared<Row>,
        );
      }
      const [row] = await rowsAsSelected(statement, { ...filter.params, owner: ownerId });
      return row as Row | undefined;
    },

    /**
     * The owner's live records among `ids` (in a view, when named), in no particular order: a
     * Reader page's assocs. One prepared statement per view whatever the number of ids (they
     * travel as one uuid[] parameter).
     */
    async findMany(db: Executor, ids: string[], ownerId: string, view?: ViewRef<V>): Promise<Row[]> {
      const ref = refOf(view);
      const statement = lookup(db, 'many', ref.view, ref.params !== undefined);
      return (await rowsAsSelected(statement, ref.params ? { ...ref.params, ids, owner: ownerId } : { ids, owner: ownerId })) as Row[];
    },

    /**
     * One page of the owner's live records with their parts (in a view, when named), newest
     * first unless another order is given: a prepared statement per view, order and page
     * shape, its cursors good for this listing and owner only.
     */
    page(
      pager: Paginator,
      db: Executor,
      ownerId: string,
      query: PagingQuery,
      how: { view?: ViewRef<V>; order?: Keyset<Row>; orderName?: string; filter?: PageFilter } = {},
    ): Promise<Page<Row>> {
      const { view, suffix, params: at } = refOf(how.view);
      const order = how.order ?? (defaultOrder as unknown as Keyset<Row> | undefined);
      if (!order) throw new Error(`${rootName} has no inserted_at: give its pages an order`);
      const filter = how.filter;
      const listing = `${view ?? 'live'}${suffix}${how.orderName ? `_${how.orderName}` : ''}${filter ? `_${filter.name}` : ''}`;
      const params = filter?.params ? { ...filter.params, owner: ownerId } : { owner: ownerId };
      return pager.page(
        {
          select: selectOn,
          keyset: order,
          // A filtered listing's cursors carry its filter's values too.
          scope: `${rootName}:${listing}:${ownerId}${filter?.params ? `:${JSON.stringify(filter.params)}` : ''}`,
          where: pageFilter(view, filter, at !== undefined),
          prepared: {
            executor: db,
            name: `${rootName}_page_${listing}`,
            params: at ? Object.assign(params, at) : params,
            rowsAsSelected: true,
            ...(filter?.customPlans && { customPlans: true }),
          },
        },
        query,
      );
    },

    /** Locks the live record for the rest of the transaction; false when there is none. */
    async lock(tx: Executor, id: string, ownerId: string): Promise<boolean> {
      const rows = await tx.execute(
        sql`select 1 from ${root} where ${ownedBy(id, ownerId)}${rootDeleted ? sql` and ${rootDeleted} is null` : sql``} for update`,
      );
      return rowsOf(rows).length > 0;
    },

    /**
     * Makes the live parts at `path` under `parentId` exactly `entries`: matched ones are
     * updated where they differ, new ones inserted, missing ones soft-deleted with their own
     * parts (or removed, for a table without deleted_at). Run it in the caller's transaction.
     */
    async replace(tx: Executor, path: string, parentId: string, entries: PartEntry[]): Promise<void> {
      const chain = lineage(path);
      const def = chain.at(-1)!;
      const table = def.table;
      const deleted = deletedAtOf(table);
      const cols = getTableColumns(table) as Record<string, PgColumn>;
      const parentProp = Object.keys(cols).find((k) => cols[k] === def.parent)!;
      const keyProps = def.match === 'id' ? ['id'] : (def.match as string[]);
      const keyOf = (values: Record<string, unknown>) => JSON.stringify(keyProps.map((k) => values[k] ?? null));

      const current = rowsOf(
        await tx.execute(
          sql`select * from ${table} where ${def.parent} = ${parentId}${deleted ? sql` and ${deleted} is null` : sql``} for update`,
        ),
      ).map((row) => fromSql(cols, row));
      const byKey = new Map(current.map((row) => [keyOf(row), row]));

      const wanted = entries.map((entry, index) => ({
        ...entry,
        ...(def.position && { [def.position]: index }),
        [parentProp]: parentId,
      }));
      if (def.match === 'id') {
        const unknown = wanted.findIndex((e) => e.id !== undefined && !byKey.has(keyOf(e)));
        if (unknown >= 0) {
          throw new AppError(400, 'validation_failed', 'an entry names an id that is not a live entry of this set', [
            { path: `${path.split('.').at(-1)}.${unknown}.id`, message: 'is not an entry of this set; leave id out to create one' },
          ]);
        }
      }
      const keep = new Set(wanted.filter((e) => byKey.has(keyOf(e))).map(keyOf));
      const gone = current.filter((row) => !keep.has(keyOf(row)));

      if (gone.length > 0) {
        const ids = gone.map((row) => row.id as string);
        if (deleted) {
          const stamped = rowsOf(
            await tx.execute(
              sql`update ${table} set ${sql.identifier(deleted.name)} = now() where ${idOf(table)} in ${ids}
                  returning ${isoText(deleted)} as stamp`,
            ),
          );
          const stamp = stamped[0]!.stamp as string;
          await cascadeDelete(tx, def.parts, idList(ids), stamp);
        } else {
          await tx.execute(sql`delete from ${table} where ${idOf(table)} in ${ids}`);
        }
      }

      // Positions are unique per parent: move the kept rows out of the way before renumbering.
      if (def.position && keep.size > 0) {
        const pos = cols[def.position]!;
        await tx.execute(
          sql`update ${table} set ${sql.identifier(pos.name)} = -1 - ${pos}
              where ${def.parent} = ${parentId}${deleted ? sql` and ${deleted} is null` : sql``}`,
        );
      }

      const fresh: Record<string, unknown>[] = [];
      for (const entry of wanted) {
        const existing = byKey.get(keyOf(entry));
        if (!existing) {
          fresh.push(entry);
          continue;
        }
        const changed = Object.keys(entry).filter(
          (k) => k !== 'id' && (def.position === k || JSON.stringify(existing[k] ?? null) !== JSON.stringify(entry[k] ?? null)),
        );
        if (changed.length === 0) continue;
        const set = Object.fromEntries(changed.map((k) => [k, entry[k]]));
        if (cols.updatedAt) set.updatedAt = new Date();
        await uniqueOr(
          tx
            .update(table)
            .set(set as never)
            .where(sql`${idOf(table)} = ${existing.id as string}`),
          options.conflict,
        );
      }
      if (fresh.length > 0) {
        await uniqueOr(tx.insert(table).values(fresh.map(({ id: _id, ...values }) => values) as never), options.conflict);
      }
    },

    /** Soft-deletes the live record and its whole live tree with one stamp; false when there is none. */
    async softDelete(tx: Executor, id: string, ownerId: string): Promise<boolean> {
      if (!rootDeleted) throw new Error(`${rootName} has no deleted_at`);
      const stamped = rowsOf(
        await tx.execute(
          sql`update ${root} set ${sql.identifier(rootDeleted.name)} = now() where ${ownedBy(id, ownerId)} and ${rootDeleted} is null
              returning ${isoText(rootDeleted)} as stamp`,
        ),
      );
      const stamp = stamped[0]?.stamp as string | undefined;
      if (!stamp) return false;
      await cascadeDelete(tx, options.parts, idList([id]), stamp);
      return true;
    },

    /**
     * Brings back a soft-deleted record and exactly the parts its delete stamped, at any
     * depth. Idempotent; a unique key taken meanwhile answers the aggregate's 409.
     */
    async restore(tx: Executor, id: string, ownerId: string): Promise<RestoreOutcome> {
      if (!rootDeleted) throw new Error(`${rootName} has no deleted_at`);
      const rows = rowsOf(
        await tx.execute(sql`select ${isoText(rootDeleted)} as stamp from ${root} where ${ownedBy(id, ownerId)} for update`),
      );
      if (rows.length === 0) return 'not_found';
      const stamp = rows[0]!.stamp as string | null;
      if (!stamp) return 'not_deleted';
      const run = async () => {
        await tx.execute(sql`update ${root} set ${sql.identifier(rootDeleted.name)} = null where ${rootId} = ${id}`);
        for (const chain of descendants(options.parts)) {
          const def = chain.at(-1)!;
          const deleted = deletedAtOf(def.table);
          if (!deleted) continue;
          const parentIds = idsUnder(chain.slice(0, -1), idList([id]), (t) => {
            const d = deletedAtOf(t);
            return d ? sql`${d} is null` : undefined;
          });
          await tx.execute(
            sql`update ${def.table} set ${sql.identifier(deleted.name)} = null
                where ${def.parent} in (${parentIds}) and ${deleted} = ${stamp}::timestamptz`,
          );
        }
      };
      await uniqueOr(run(), options.conflict);
      return 'restored';
    },
  };
}

export type Aggregate<R extends PgTable = PgTable, P extends PartDefs = PartDefs, V extends string = never> = ReturnType<typeof aggregate<R, P, V>>;

/** A raw row (SQL column names) keyed by property names, as `replace` compares entries. */
function fromSql(cols: Record<string, PgColumn>, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [prop, col] of Object.entries(cols)) out[prop] = row[col.name];
  return out;
}
