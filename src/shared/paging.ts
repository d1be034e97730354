import { type KeyObject, createHmac, createSecretKey, hash, timingSafeEqual } from 'node:crypto';
import { type Placeholder, type SQL, and, or, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { AppError } from './errors.js';
import { type Prepared, StatementCache, rowsAsSelected } from './prepared.js';
import type { PagingQuery } from './schemas.js';

/**
 * The SQL type of a sort key. The cursor carries the key's value as the database printed
 * it and casts it back to this type, so that the boundary row compares equal to itself: a
 * `real` full-text rank sent back as `numeric` would not, and rows at a page boundary
 * would repeat or go missing.
 */
export type SortType = 'timestamptz' | 'text' | 'integer' | 'bigint' | 'real' | 'double precision' | 'numeric';

export interface SortKey<Row> {
  /** A column or an SQL expression; it must never be null (wrap a nullable one in coalesce). */
  expr: PgColumn | SQL;
  type: SortType;
  dir: 'asc' | 'desc';
  /** The key's value in a row of the page (select the expression into the row to have it). */
  of: (row: Row) => unknown;
}

/**
 * A total order for a listing: sort keys, then `id` as tie-breaker in the last key's
 * direction, backed by an index declared in the same directions.
 */
export interface Keyset<Row> {
  keys: SortKey<Row>[];
  /** The id column, or an expression naming it (a derived table's id column). */
  id: PgColumn | SQL;
  idOf: (row: Row) => string;
}

export const keyset = <Row extends { id: string }>(keys: SortKey<Row>[], id: PgColumn | SQL): Keyset<Row> => ({
  keys,
  id,
  idOf: (row) => row.id,
});

/** A listing in insertion order: by insertion time, then id, in one direction. */
const byInsertion =
  (dir: 'asc' | 'desc') =>
  <Row extends { insertedAt: Date | string; id: string }>(columns: { insertedAt: PgColumn; id: PgColumn }): Keyset<Row> =>
    keyset<Row>([{ expr: columns.insertedAt, type: 'timestamptz', dir, of: (row) => row.insertedAt }], columns.id);

/** The default order of every listing: newest first. */
export const newestFirst = byInsertion('desc');

/** Oldest first: the order of short editorial lists (topics). */
export const oldestFirst = byInsertion('asc');

/** The order of a ranked search: its `real` rank, most relevant first, then the id. */
export const mostRelevantFirst = <Row extends { id: string; rank: number }>(rank: PgColumn | SQL, id: PgColumn | SQL): Keyset<Row> =>
  keyset<Row>([{ expr: rank, type: 'real', dir: 'desc', of: (row) => row.rank }], id);

export interface Page<Row> {
  items: Row[];
  /** Cursor for the page after this one, or null at the end. */
  next: string | null;
  /** Cursor for the page before this one, or null at the start. */
  previous: string | null;
}

export interface PagePlan<Row> {
  /** Keyset condition to AND into the listing's own filter (undefined on the first page). */
  where: SQL | undefined;
  orderBy: SQL[];
  /** One more than asked, to learn whether another page exists without counting. */
  limit: number;
  /** Which statement this page needs: its SQL depends on nothing else. */
  shape: 'first' | 'after' | 'before';
  /** Placeholder values of a prepared page: `page_limit`, and `cursor_<n>` past the first page. */
  params: Record<string, unknown>;
  finish: (rows: Row[]) => Page<Row>;
}

type PageQuery = Pick<PagingQuery, 'limit' | 'after' | 'before'>;

/** What paging needs of a query: any Drizzle `db.select(...).from(...)` (joins included). */
export interface PageableSelect<Row> {
  where(condition: SQL | undefined): {
    orderBy(...columns: SQL[]): {
      limit(count: number | Placeholder): PromiseLike<Row[]> & { prepare(name: string): Prepared<Row> };
    };
  };
}

/** A listing to page through: the query, its order, and what binds its cursors. */
export interface Listing<Row> {
  /**
   * The select without paging, or a function making it (called only when a statement is built,
   * with the prepared statement's executor): a function of the executor can be made once, not per
   * request (tsx names every function made at run time, a call each).
   */
  select: PageableSelect<Row> | ((executor: object | undefined) => PageableSelect<Row>);
  keyset: Keyset<Row>;
  /** The listing's name and owner (`categories:published:<media id>`): a cursor serves only here. */
  scope: string;
  /** The listing's own filter, or a function making it (called only when a statement is built). */
  where?: SQL | undefined | (() => SQL | undefined);
  /**
   * Prepare the statement once per executor and page shape under this name, and run it
   * with `params` (the values of the `sql.placeholder`s in `where`): hot listings skip
   * Drizzle's query building and PostgreSQL's planning on every request.
   */
  prepared?: {
    executor: object;
    name: string;
    params: Record<string, unknown>;
    /**
     * Every selected field is aliased to its key in the row and needs no decoding (an
     * aggregate's `columns`): the driver's rows are used as they come.
     */
    rowsAsSelected?: boolean;
    /**
     * PostgreSQL plans each execution with its values (the statement is sent unnamed; its SQL is
     * still built once): for a statement whose best plan depends on them, a search's on how
     * common its words are, where a generic plan would serve a rare word and a common one alike.
     */
    customPlans?: boolean;
  };
}

const selectOf = <Row>(listing: Listing<Row>) => (typeof listing.select === 'function' ? listing.select(listing.prepared?.executor) : listing.select);
const whereOf = <Row>(listing: Listing<Row>) => (typeof listing.where === 'function' ? listing.where() : listing.where);

const invalidCursor = () => new AppError(400, 'invalid_cursor', 'the cursor is malformed or belongs to another listing');

const CASTS: Record<SortType, SQL> = {
  timestamptz: sql`::timestamptz`,
  text: sql`::text`,
  integer: sql`::integer`,
  bigint: sql`::bigint`,
  real: sql`::real`,
  'double precision': sql`::double precision`,
  numeric: sql`::numeric`,
};

/** A key's value as the cursor carries it: JSON, exact for every SortType. */
function toCursorValue(value: unknown): string | number {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))) return value;
  if (typeof value === 'bigint') return value.toString();
  throw new Error(`a sort key's value must be a string, a finite number or a Date, got ${typeof value}`);
}

const INTEGER = /^-?\d{1,19}$/;
const NUMERIC = /^-?\d{1,100}(\.\d{1,100})?$/;

/** Whether a decoded cursor value can be the given type; the MAC makes this belt and braces. */
function fits(type: SortType, value: unknown): boolean {
  switch (type) {
    case 'timestamptz':
      return typeof value === 'string' && !Number.isNaN(Date.parse(value));
    case 'text':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'bigint':
      return (typeof value === 'number' && Number.isInteger(value)) || (typeof value === 'string' && INTEGER.test(value));
    case 'real':
    case 'double precision':
      return typeof value === 'number' && Number.isFinite(value);
    case 'numeric':
      return (typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && NUMERIC.test(value));
  }
}

/** A cursor's tag: 22 base64url characters, 132 bits of its MAC. */
const TAG_LENGTH = 22;

/**
 * Whether two strings of ASCII are equal, in a time that does not depend on where they differ.
 * crypto.timingSafeEqual does the same for bytes; a tag is a string here, and making two Buffers of
 * it on every cursor read would be the allocations the one-shot tag was meant to save.
 */
function sameTag(given: string, expected: string): boolean {
  if (given.length !== expected.length) return false;
  let diff = 0;
  for (let i = 0; i < given.length; i++) diff |= given.charCodeAt(i) ^ expected.charCodeAt(i);
  return diff === 0;
}

/**
 * Keyset pagination with opaque cursors. A cursor is base64url(JSON [key values..., id])
 * plus a MAC over the listing's scope, so a tampered cursor, or one taken from another
 * listing or another media, is refused with a 400 before it reaches SQL.
 *
 * The MAC is SHA3-256 over the secret, the scope and the payload, its first 132 bits (22
 * base64url characters). SHA-3 has no length extension, so a secret put before the message
 * makes it a MAC without HMAC's nesting (the construction NIST's KMAC standardises); the secret
 * goes in as hex, of fixed length per secret and without a NUL, so where it ends is never in
 * doubt. It is one call into OpenSSL, where an HMAC is four and a key set-up each time, and a
 * page signs or checks up to three cursors.
 * Cursors of the releases before, signed with the first 16 bytes of HMAC-SHA256, still verify,
 * so a deploy of this change broke no client's paging.
 */
export class Paginator {
  private readonly statements = new StatementCache();
  /** The secret as SHA3's key prefix: hex, then NUL. */
  private readonly keyPrefix: string;
  /**
   * The secret for the earlier cursors' HMAC, as a KeyObject made once: given a Buffer, Node 24's
   * createHmac first asks whether it is a KeyObject, then a CryptoKey, each by a brand check that
   * throws and catches an error, on every HMAC (Node 20 asks without throwing).
   */
  private readonly hmacKey: KeyObject;

  constructor(secret: Buffer) {
    this.keyPrefix = `${secret.toString('hex')}\0`;
    this.hmacKey = createSecretKey(secret);
  }

  /**
   * One page of a listing in one statement: its filter and the keyset condition, in keyset
   * order, one row more than asked to learn whether another page exists.
   */
  async page<Row>(listing: Listing<Row>, query: PageQuery): Promise<Page<Row>> {
    const prepared = listing.prepared;
    if (!prepared) {
      const plan = this.plan(listing.keyset, listing.scope, query, false);
      return plan.finish(await selectOf(listing).where(and(whereOf(listing), plan.where)).orderBy(...plan.orderBy).limit(plan.limit));
    }
    // A prepared page builds no SQL once its statement exists: it decodes the cursor into
    // the placeholders' values and runs the statement of its shape. No closure is made per
    // request on this path.
    const at = this.position(listing.keyset, listing.scope, query);
    const key = `${prepared.name}:${at.shape}`;
    let statement = this.statements.get<Row>(prepared.executor, key);
    if (!statement) {
      const plan = this.plan(listing.keyset, listing.scope, query, true);
      statement = selectOf(listing)
        .where(and(whereOf(listing), plan.where))
        .orderBy(...plan.orderBy)
        .limit(sql.placeholder('page_limit'))
        .prepare(prepared.customPlans ? '' : `${prepared.name}_${at.shape}`);
      this.statements.set(prepared.executor, key, statement);
    }
    const values = Object.assign({}, prepared.params, at.params);
    const rows = prepared.rowsAsSelected ? await rowsAsSelected(statement, values) : await statement.execute(values);
    return this.finish(listing.keyset, listing.scope, query, at.backward, rows);
  }

  /** Where a page starts: its shape and the placeholders' values. */
  private position<Row>(keyset: Keyset<Row>, scope: string, query: PageQuery) {
    if (query.after && query.before) {
      throw new AppError(400, 'invalid_cursor', 'use either after or before, not both');
    }
    const backward = Boolean(query.before);
    const token = query.after ?? query.before;
    const position = token ? this.decode(keyset, scope, token) : undefined;
    const params: Record<string, unknown> = { page_limit: query.limit + 1 };
    if (position) for (let i = 0; i < position.length; i++) params[`cursor_${i}`] = position[i];
    const shape: PagePlan<Row>['shape'] = position ? (backward ? 'before' : 'after') : 'first';
    return { backward, position, params, shape };
  }

  /** The page of `rows` (one more than asked when another page exists), with its cursors. */
  private finish<Row>(keyset: Keyset<Row>, scope: string, query: PageQuery, backward: boolean, rows: Row[]): Page<Row> {
    const more = rows.length > query.limit;
    const items = more ? rows.slice(0, query.limit) : rows;
    if (backward) items.reverse();
    const first = items[0];
    const last = items[items.length - 1];
    if (backward) {
      // We came from the page after this one, so it exists.
      return { items, next: this.cursorAt(scope, keyset, last), previous: more ? this.cursorAt(scope, keyset, first) : null };
    }
    const from = Boolean(query.after);
    return { items, next: more ? this.cursorAt(scope, keyset, last) : null, previous: from ? this.cursorAt(scope, keyset, first) : null };
  }

  private cursorAt<Row>(scope: string, keyset: Keyset<Row>, row: Row | undefined): string | null {
    return row ? this.encode(scope, keyset, row) : null;
  }

  /** The parts of a page's statement; `placeholders` leaves the cursor and limit as named placeholders. */
  plan<Row>(keyset: Keyset<Row>, scope: string, query: PageQuery, placeholders = false): PagePlan<Row> {
    const { backward, position, params, shape } = this.position(keyset, scope, query);
    const finish = (rows: Row[]) => this.finish(keyset, scope, query, backward, rows);

    const columns = [...keyset.keys.map((k) => k.expr), keyset.id];
    const casts = [...keyset.keys.map((k) => CASTS[k.type]), sql`::uuid`];
    // Paging backward walks the order in reverse and flips the rows back afterwards. The id
    // follows the direction of the last key.
    const dirs = [...keyset.keys.map((k) => k.dir), keyset.keys.at(-1)?.dir ?? 'asc'];
    const walksDesc = dirs.map((dir) => (dir === 'desc') !== backward);
    const at = (i: number) => sql`${placeholders ? sql.placeholder(`cursor_${i}`) : position![i]}${casts[i]!}`;

    let where: SQL | undefined;
    if (position) {
      if (walksDesc.every((d) => d === walksDesc[0])) {
        // One direction: a row comparison, which an index in that order serves directly.
        const op = walksDesc[0] ? sql`<` : sql`>`;
        where = sql`(${sql.join(columns, sql`, `)}) ${op} (${sql.join(columns.map((_, i) => at(i)), sql`, `)})`;
      } else {
        // Mixed directions: (a after x) or (a = x and b after y) or ...
        where = or(
          ...columns.map((column, i) =>
            and(
              ...columns.slice(0, i).map((earlier, j) => sql`${earlier} = ${at(j)}`),
              walksDesc[i] ? sql`${column} < ${at(i)}` : sql`${column} > ${at(i)}`,
            ),
          ),
        );
      }
    }
    // drizzle-kit makes index columns NULLS LAST in either direction, and PostgreSQL serves an
    // ORDER BY from an index only when the null placement matches too, even on NOT NULL
    // columns (which keyset columns are). Without it every page sorts all of the listing's rows.
    const nulls = backward ? sql`nulls first` : sql`nulls last`;
    const orderBy = columns.map((column, i) => sql`${column} ${walksDesc[i] ? sql`desc` : sql`asc`} ${nulls}`);

    return { where, orderBy, limit: query.limit + 1, shape, params, finish };
  }

  private tag(scope: string, payload: string): string {
    return hash('sha3-256', `${this.keyPrefix}${scope}\0${payload}`, 'base64url').slice(0, TAG_LENGTH);
  }

  /** Whether `mac` is the earlier releases' tag of the payload: the first 16 bytes of HMAC-SHA256(secret, scope NUL payload). */
  private isEarlierTag(scope: string, payload: string, mac: string): boolean {
    const given = Buffer.from(mac, 'base64url');
    const expected = createHmac('sha256', this.hmacKey).update(`${scope}\0${payload}`).digest().subarray(0, 16);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** The cursor that points at `row` in the listing `scope`. */
  encode<Row>(scope: string, keyset: Keyset<Row>, row: Row): string {
    const values = [...keyset.keys.map((k) => toCursorValue(k.of(row))), keyset.idOf(row)];
    const payload = Buffer.from(JSON.stringify(values)).toString('base64url');
    return `${payload}.${this.tag(scope, payload)}`;
  }

  private decode<Row>(keyset: Keyset<Row>, scope: string, token: string): unknown[] {
    const [payload, mac, extra] = token.split('.');
    if (!payload || !mac || extra !== undefined) throw invalidCursor();
    if (!sameTag(mac, this.tag(scope, payload)) && !this.isEarlierTag(scope, payload, mac)) throw invalidCursor();
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      throw invalidCursor();
    }
    // The MAC makes these checks belt and braces: only we sign cursors.
    if (!Array.isArray(parsed) || parsed.length !== keyset.keys.length + 1) throw invalidCursor();
    const id = parsed.at(-1);
    if (typeof id !== 'string' || !/^[0-9a-f-]{36}$/i.test(id)) throw invalidCursor();
    keyset.keys.forEach((key, i) => {
      if (!fits(key.type, parsed[i])) throw invalidCursor();
    });
    return parsed;
  }
}
