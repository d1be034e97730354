import { randomBytes, randomUUID } from 'node:crypto';
import { type SQL } from 'drizzle-orm';
import { PgDialect, pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { AppError } from './errors.js';
import { Paginator, newestFirst } from './paging.js';

// A table of the test's own: shared/ knows no module.
const things = pgTable('things', {
  id: uuid('id').primaryKey(),
  insertedAt: timestamp('inserted_at', { withTimezone: true, precision: 3, mode: 'date' }).notNull(),
});
type Thing = { id: string; insertedAt: Date };

const order = newestFirst<Thing>(things);
const dialect = new PgDialect();
const render = (where: SQL | undefined) => (where ? dialect.sqlToQuery(where) : undefined);

const pager = new Paginator(randomBytes(32));
const scope = 'things:media-1';

const thing = (ms: number): Thing => ({ id: randomUUID(), insertedAt: new Date(Date.UTC(2026, 0, 1) + ms) });

/** The 400 invalid_cursor that plan() must throw, never a 500. */
const expectInvalidCursor = (run: () => unknown) => {
  let caught: unknown;
  try {
    run();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(AppError);
  expect(caught).toMatchObject({ statusCode: 400, code: 'invalid_cursor' });
};

describe('Paginator cursors', () => {
  it('round-trips the sort key and id of a row into the keyset condition', () => {
    const row = thing(123);
    const cursor = pager.encode(scope, order.valueOf(row));
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);

    const forward = render(pager.plan(order, scope, { limit: 10, after: cursor }).where)!;
    expect(forward.params).toEqual([row.insertedAt.toISOString(), row.id]);
    expect(forward.sql).toContain('<');

    const backward = render(pager.plan(order, scope, { limit: 10, before: cursor }).where)!;
    expect(backward.params).toEqual([row.insertedAt.toISOString(), row.id]);
    expect(backward.sql).toContain('>');
  });

  it('plans the first page without a condition and asks for one row more than the limit', () => {
    const plan = pager.plan(order, scope, { limit: 3 });
    expect(plan.where).toBeUndefined();
    expect(plan.limit).toBe(4);
  });

  it('refuses a cursor whose payload was changed', () => {
    const cursor = pager.encode(scope, order.valueOf(thing(1)));
    const [, mac] = cursor.split('.');
    const forged = Buffer.from(JSON.stringify(['2030-01-01T00:00:00.000Z', randomUUID()])).toString('base64url');
    expectInvalidCursor(() => pager.plan(order, scope, { limit: 5, after: `${forged}.${mac}` }));
  });

  it('refuses a cursor whose mac was changed, shortened or dropped', () => {
    const cursor = pager.encode(scope, order.valueOf(thing(1)));
    const [payload, mac] = cursor.split('.') as [string, string];
    const flipped = Buffer.from(mac, 'base64url');
    flipped[0] = flipped[0]! ^ 0xff;
    for (const bad of [
      `${payload}.${flipped.toString('base64url')}`,
      `${payload}.${mac.slice(0, -2)}`,
      `${payload}.`,
      payload,
      `${cursor}.extra`,
      'not-a-cursor',
    ]) {
      expectInvalidCursor(() => pager.plan(order, scope, { limit: 5, after: bad }));
    }
  });

  it('refuses a cursor taken from another listing scope', () => {
    const cursor = pager.encode('things:media-2', order.valueOf(thing(1)));
    expectInvalidCursor(() => pager.plan(order, scope, { limit: 5, after: cursor }));
    expectInvalidCursor(() => pager.plan(order, scope, { limit: 5, before: cursor }));
  });

  it('refuses a cursor signed with another secret', () => {
    const other = new Paginator(randomBytes(32));
    const cursor = other.encode(scope, order.valueOf(thing(1)));
    expectInvalidCursor(() => pager.plan(order, scope, { limit: 5, after: cursor }));
  });

  it('refuses a well-signed cursor whose content does not fit the keyset', () => {
    const badSort = pager.encode(scope, { sort: 'yesterday', id: randomUUID() });
    expectInvalidCursor(() => pager.plan(order, scope, { limit: 5, after: badSort }));
    const badId = pager.encode(scope, { sort: new Date(), id: "x' or 1=1 --" });
    expectInvalidCursor(() => pager.plan(order, scope, { limit: 5, after: badId }));
    const numberSort = pager.encode(scope, { sort: 42, id: randomUUID() });
    expectInvalidCursor(() => pager.plan(order, scope, { limit: 5, after: numberSort }));
  });

  it('refuses after and before together with a 400', () => {
    const a = pager.encode(scope, order.valueOf(thing(1)));
    const b = pager.encode(scope, order.valueOf(thing(2)));
    expectInvalidCursor(() => pager.plan(order, scope, { limit: 5, after: a, before: b }));
  });
});

describe('Paginator pages', () => {
  // Newest first: the rows as the database would return them walking forward.
  const rows = [thing(50), thing(40), thing(30), thing(20), thing(10)];

  it('gives next on a full page and no previous on the first page', () => {
    const plan = pager.plan(order, scope, { limit: 2 });
    const page = plan.finish(rows.slice(0, plan.limit));
    expect(page.items).toEqual(rows.slice(0, 2));
    expect(page.previous).toBeNull();
    expect(page.next).toBe(pager.encode(scope, order.valueOf(rows[1]!)));
  });

  it('gives previous but no next on the last page reached forward', () => {
    const after = pager.encode(scope, order.valueOf(rows[2]!));
    const plan = pager.plan(order, scope, { limit: 2, after });
    const page = plan.finish(rows.slice(3));
    expect(page.items).toEqual(rows.slice(3));
    expect(page.next).toBeNull();
    expect(page.previous).toBe(pager.encode(scope, order.valueOf(rows[3]!)));
  });

  it('flips a backward page back into the listing order', () => {
    const before = pager.encode(scope, order.valueOf(rows[3]!));
    const plan = pager.plan(order, scope, { limit: 2, before });
    expect(plan.orderBy.map((o) => dialect.sqlToQuery(o).sql)).toEqual([
      '"things"."inserted_at" asc nulls first',
      '"things"."id" asc nulls first',
    ]);
    // Walking backward the database returns the rows nearest the cursor first.
    const page = plan.finish([rows[2]!, rows[1]!, rows[0]!]);
    expect(page.items).toEqual([rows[1], rows[2]]);
    expect(page.next).toBe(pager.encode(scope, order.valueOf(rows[2]!)));
    expect(page.previous).toBe(pager.encode(scope, order.valueOf(rows[1]!)));
  });

  it('gives no previous when a backward page reaches the start', () => {
    const before = pager.encode(scope, order.valueOf(rows[1]!));
    const page = pager.plan(order, scope, { limit: 2, before }).finish([rows[0]!]);
    expect(page.items).toEqual([rows[0]]);
    expect(page.previous).toBeNull();
    expect(page.next).toBe(pager.encode(scope, order.valueOf(rows[0]!)));
  });
});
