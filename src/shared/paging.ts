import { createHmac, timingSafeEqual } from 'node:crypto';
import { type Placeholder, type SQL, and, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { AppError } from './errors.js';
import type { PagingQuery } from './schemas.js';

type SortKind = 'timestamp' | 'text' | 'number';
type SortValue = Date | string | number;

/**
 * A total order for a listing: one sort column plus `id` as tie-breaker, backed by an index
 * declared in the same direction (`.desc()` on both columns for 'desc', plain for 'asc').
 */
export interface Keyset<Row> {
  sort: PgColumn;
  id: PgColumn;
  kind: SortKind;
  direction: 'asc' | 'desc';
  valueOf: (row: Row) => { sort: SortValue; id: string };
}

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
  finish: (rows: Row[]) => Page<Row>;
}

type PageQuery = Pick<PagingQuery, 'limit' | 'after' | 'before'>;

/** What paging needs of a query: any Drizzle `db.select(...).from(...)` (joins included). */
interface PageableSelect<Row> {
  where(condition: SQL | undefined): { orderBy(...columns: SQL[]): { limit(count: number): PromiseLike<Row[]> } };
}

export interface PreparedPagePlan<Row> extends PagePlan<Row> {
  /** Which statement this page needs: the first page, or a page after or before a cursor. */
  shape: 'first' | 'after' | 'before';
  /** Values for the placeholders: page_limit, and cursor_sort/cursor_id past the first page. */
  params: Record<string, unknown>;
  limitParam: Placeholder;
}

const invalidCursor = () => new AppError(400, 'invalid_cursor', 'the cursor is malformed or belongs to another listing');

/**
 * Keyset pagination with opaque cursors. A cursor is base64url(JSON [sort, id]) plus an
 * HMAC over the listing's scope, so a tampered cursor, or one taken from another listing
 * or another media, is refused with a 400 before it reaches SQL.
 */
export class Paginator {
  constructor(private readonly secret: Buffer) {}

  plan<Row>(keyset: Keyset<Row>, scope: string, query: PageQuery): PagePlan<Row> {
    return this.build(keyset, scope, query, false);
  }

  /**
   * One page of a listing in one query: the listing's own `filter` and the keyset condition,
   * in keyset order, one row more than asked to learn whether another page exists.
   */
  async page<Row>(
    select: PageableSelect<Row>,
    keyset: Keyset<Row>,
    scope: string,
    query: PageQuery,
    filter: SQL | undefined,
  ): Promise<Page<Row>> {
    const plan = this.plan(keyset, scope, query);
    return plan.finish(await select.where(and(filter, plan.where)).orderBy(...plan.orderBy).limit(plan.limit));
  }

  /**
   * plan() with the cursor position and the limit as placeholders: the SQL depends only on
   * `shape`, so a repository can prepare one statement per shape and execute it with `params`.
   */
  preparedPlan<Row>(keyset: Keyset<Row>, scope: string, query: PageQuery): PreparedPagePlan<Row> {
    return this.build(keyset, scope, query, true);
  }

  private build<Row>(keyset: Keyset<Row>, scope: string, query: PageQuery, prepared: boolean): PreparedPagePlan<Row> {
    if (query.after && query.before) {
      throw new AppError(400, 'invalid_cursor', 'use either after or before, not both');
    }
    const backward = Boolean(query.before);
    const token = query.after ?? query.before;
    const position = token ? this.decode(scope, token, keyset.kind) : undefined;
    const params: Record<string, unknown> = { page_limit: query.limit + 1 };
    if (position) Object.assign(params, { cursor_sort: position.sort, cursor_id: position.id });

    // Paging backward walks the order in reverse and flips the rows back afterwards.
    const walkDesc = (keyset.direction === 'desc') !== backward;
    const cast = keyset.kind === 'timestamp' ? sql`::timestamptz` : keyset.kind === 'number' ? sql`::numeric` : sql`::text`;
    const at = (name: 'cursor_sort' | 'cursor_id') => (prepared ? sql.placeholder(name) : params[name]);
    const where = position
      ? walkDesc
        ? sql`(${keyset.sort}, ${keyset.id}) < (${at('cursor_sort')}${cast}, ${at('cursor_id')}::uuid)`
        : sql`(${keyset.sort}, ${keyset.id}) > (${at('cursor_sort')}${cast}, ${at('cursor_id')}::uuid)`
      : undefined;
    // drizzle-kit makes .desc() index columns DESC NULLS LAST, and PostgreSQL serves an ORDER BY
    // from an index only when the null placement matches too, even on NOT NULL columns (which
    // keyset columns are). Without it every page sorts all of the listing's rows.
    const dir = walkDesc ? sql`desc` : sql`asc`;
    const nulls = backward ? sql`nulls first` : sql`nulls last`;
    const orderBy = [sql`${keyset.sort} ${dir} ${nulls}`, sql`${keyset.id} ${dir} ${nulls}`];

    return {
      where,
      orderBy,
      limit: query.limit + 1,
      limitParam: sql.placeholder('page_limit'),
      shape: position ? (backward ? 'before' : 'after') : 'first',
      params,
      finish: (rows) => {
        const more = rows.length > query.limit;
        const items = more ? rows.slice(0, query.limit) : rows;
        if (backward) items.reverse();
        const first = items[0];
        const last = items[items.length - 1];
        const cursorOf = (row: Row | undefined) => (row ? this.encode(scope, keyset.valueOf(row)) : null);
        if (backward) {
          // We came from the page after this one, so it exists.
          return { items, next: cursorOf(last), previous: more ? cursorOf(first) : null };
        }
        return { items, next: more ? cursorOf(last) : null, previous: token ? cursorOf(first) : null };
      },
    };
  }

  private sign(scope: string, payload: string): Buffer {
    return createHmac('sha256', this.secret).update(scope).update('\0').update(payload).digest().subarray(0, 16);
  }

  encode(scope: string, value: { sort: SortValue; id: string }): string {
    const sort = value.sort instanceof Date ? value.sort.toISOString() : value.sort;
    const payload = Buffer.from(JSON.stringify([sort, value.id])).toString('base64url');
    return `${payload}.${this.sign(scope, payload).toString('base64url')}`;
  }

  private decode(scope: string, token: string, kind: SortKind): { sort: string | number; id: string } {
    const [payload, mac, extra] = token.split('.');
    if (!payload || !mac || extra !== undefined) throw invalidCursor();
    const given = Buffer.from(mac, 'base64url');
    const expected = this.sign(scope, payload);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalidCursor();
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      throw invalidCursor();
    }
    // The MAC makes these checks belt and braces: only we sign cursors.
    if (!Array.isArray(parsed) || parsed.length !== 2) throw invalidCursor();
    const [sort, id] = parsed as [unknown, unknown];
    if (typeof id !== 'string' || !/^[0-9a-f-]{36}$/i.test(id)) throw invalidCursor();
    if (kind === 'number' ? typeof sort !== 'number' : typeof sort !== 'string') throw invalidCursor();
    if (kind === 'timestamp' && Number.isNaN(Date.parse(sort as string))) throw invalidCursor();
    return { sort: sort as string | number, id };
  }
}

/** The default order of every listing: newest first, by insertion time then id. */
export function newestFirst<Row extends { insertedAt: Date; id: string }>(columns: {
  insertedAt: PgColumn;
  id: PgColumn;
}): Keyset<Row> {
  return {
    sort: columns.insertedAt,
    id: columns.id,
    kind: 'timestamp',
    direction: 'desc',
    valueOf: (row) => ({ sort: row.insertedAt, id: row.id }),
  };
}
