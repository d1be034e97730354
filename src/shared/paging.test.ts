import { createHmac, hash, randomBytes, randomUUID } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { PgDialect, pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { AppError } from './errors.js';
import { Paginator, keyset, newestFirst } from './paging.js';

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
    const cursor = pager.encode(scope, order, row);
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
    const cursor = pager.encode(scope, order, thing(1));
    const [, mac] = cursor.split('.');
    const forged = Buffer.from(JSON.stringify(['2030-01-01T00:00:00.000Z', randomUUID()])).toString('base64url');
    expectInvalidCursor(() => pager.plan(order, scope, { limit: 5, after: `${forged}.${mac}` }));
  });

  it('refuses a cursor whose mac was changed, shortened or dropped', () => {
    const cursor = pager.encode(scope, order, thing(1));
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
    const cursor = pager.encode('things:media-2', order, thing(1));
    expectInvalidCursor(() => pager.plan(order, scope, { limit: 5, after: cursor }));
    expectInvalidCursor(() => pager.plan(order, scope, { limit: 5, before: cursor }));
  });

  it('refuses a cursor signed with another secret', () => {
    const other = new Paginator(randomBytes(32));
    const cursor = other.encode(scope, order, thing(1));
    expectInvalidCursor(() => pager.plan(order, scope, { limit: 5, after: cursor }));
  });

  it('signs a cursor with the first 22 base64url characters of SHA3-256(hex secret, NUL, scope, NUL, payload)', () => {
    const secret = randomBytes(32);
    const [payload, mac] = new Paginator(secret).encode(scope, order, thing(7)).split('.');
    const expected = hash('sha3-256', `${secret.toString('hex')}\0${scope}\0${payload}`, 'base64url').slice(0, 22);
    expect(mac).toBe(expected);
    const same = new Paginator(Buffer.from(secret));
    expect(same.plan(order, scope, { limit: 5, after: `${payload}.${expected}` }).shape).toBe('after');
    // One character off, at either end, or one short, is refused.
    for (const at of [0, 21]) {
      const flipped = `${expected.slice(0, at)}${expected[at] === 'A' ? 'B' : 'A'}${expected.slice(at + 1)}`;
      expectInvalidCursor(() => same.plan(order, scope, { limit: 5, after: `${payload}.${flipped}` }));
    }
    expectInvalidCursor(() => same.plan(order, scope, { limit: 5, after: `${payload}.${expected.slice(0, 21)}` }));
  });

  it('still accepts the cursors of earlier releases, signed with the first 16 bytes of HMAC-SHA256(secret, scope NUL payload)', () => {
    // A deploy of the SHA-3 tag broke no client's paging: what it handed out before still verifies.
    const secret = randomBytes(32);
    const [payload] = new Paginator(secret).encode(scope, order, thing(7)).split('.');
    const earlier = createHmac('sha256', secret).update(`${scope}\0${payload}`).digest().subarray(0, 16).toString('base64url');
    const accepted = new Paginator(Buffer.from(secret)).plan(order, scope, { limit: 5, after: `${payload}.${earlier}` });
    expect(accepted.shape).toBe('after');
    // Under another secret or scope it is refused like any foreign cursor.
    expectInvalidCursor(() => pager.plan(order, scope, { limit: 5, after: `${payload}.${earlier}` }));
    expectInvalidCursor(() => new Paginator(secret).plan(order, `${scope}x`, { limit: 5, after: `${payload}.${earlier}` }));
  });

  it('refuses a well-signed cursor whose content does not fit the keyset', () => {
    // Signed with the same secret and scope, but carrying values of other types.
    const loose = <T>(of: (row: T) => unknown) => keyset<T & { id: string }>([{ expr: things.insertedAt, type: 'text', dir: 'desc', of }], things.id);
    const badSort = pager.encode(scope, loose(() => 'yesterday'), { id: randomUUID() });
    expectInvalidCursor(() => pager.plan(order, scope, { limit: 5, after: badSort }));
    const badId = pager.encode(scope, loose(() => new Date().toISOString()), { id: "x' or 1=1 --" });
    expectInvalidCursor(() => pager.plan(order, scope, { limit: 5, after: badId }));
    const numberSort = pager.encode(scope, loose(() => 42), { id: randomUUID() });
    expectInvalidCursor(() => pager.plan(order, scope, { limit: 5, after: numberSort }));
    const twoKeys = keyset<Thing>([order.keys[0]!, { expr: things.id, type: 'text', dir: 'desc', of: (r) => r.id }], things.id);
    expectInvalidCursor(() => pager.plan(order, scope, { limit: 5, after: pager.encode(scope, twoKeys, thing(1)) }));
  });

  it('refuses after and before together with a 400', () => {
    const a = pager.encode(scope, order, thing(1));
    const b = pager.encode(scope, order, thing(2));
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
    expect(page.next).toBe(pager.encode(scope, order, rows[1]!));
  });

  it('gives previous but no next on the last page reached forward', () => {
    const after = pager.encode(scope, order, rows[2]!);
    const plan = pager.plan(order, scope, { limit: 2, after });
    const page = plan.finish(rows.slice(3));
    expect(page.items).toEqual(rows.slice(3));
    expect(page.next).toBeNull();
    expect(page.previous).toBe(pager.encode(scope, order, rows[3]!));
  });

  it('flips a backward page back into the listing order', () => {
    const before = pager.encode(scope, order, rows[3]!);
    const plan = pager.plan(order, scope, { limit: 2, before });
    expect(plan.orderBy.map((o) => dialect.sqlToQuery(o).sql)).toEqual([
      '"things"."inserted_at" asc nulls first',
      '"things"."id" asc nulls first',
    ]);
    // Walking backward the database returns the rows nearest the cursor first.
    const page = plan.finish([rows[2]!, rows[1]!, rows[0]!]);
    expect(page.items).toEqual([rows[1], rows[2]]);
    expect(page.next).toBe(pager.encode(scope, order, rows[2]!));
    expect(page.previous).toBe(pager.encode(scope, order, rows[1]!));
  });

  it('gives no previous when a backward page reaches the start', () => {
    const before = pager.encode(scope, order, rows[1]!);
    const page = pager.plan(order, scope, { limit: 2, before }).finish([rows[0]!]);
    expect(page.items).toEqual([rows[0]]);
    expect(page.previous).toBeNull();
    expect(page.next).toBe(pager.encode(scope, order, rows[0]!));
  });
});

describe('keysets on several typed keys', () => {
  const ranked = pgTable('ranked', {
    id: uuid('id').primaryKey(),
    insertedAt: timestamp('inserted_at', { withTimezone: true, precision: 3, mode: 'date' }).notNull(),
  });
  type Hit = { id: string; rank: number; insertedAt: Date };
  const rank = sql`ts_rank(doc, query)`;
  const byRank = keyset<Hit>(
    [
      { expr: rank, type: 'real', dir: 'desc', of: (r) => r.rank },
      { expr: ranked.insertedAt, type: 'timestamptz', dir: 'desc', of: (r) => r.insertedAt },
    ],
    ranked.id,
  );
  const hit: Hit = { id: randomUUID(), rank: 0.0607927, insertedAt: new Date(Date.UTC(2026, 5, 1)) };

  it('compares one row tuple when every key walks one way, casting each value to its own type', () => {
    const plan = pager.plan(byRank, scope, { limit: 5, after: pager.encode(scope, byRank, hit) });
    const where = render(plan.where)!;
    expect(where.sql).toBe('(ts_rank(doc, query), "ranked"."inserted_at", "ranked"."id") < ($1::real, $2::timestamptz, $3::uuid)');
    // The real travels as the number the database printed, so ::real gives back the same float4.
    expect(where.params).toEqual([0.0607927, hit.insertedAt.toISOString(), hit.id]);
    expect(plan.orderBy.map((o) => dialect.sqlToQuery(o).sql)).toEqual([
      'ts_rank(doc, query) desc nulls last',
      '"ranked"."inserted_at" desc nulls last',
      '"ranked"."id" desc nulls last',
    ]);
  });

  it('expands mixed directions into "after on the first key, or equal and after on the next"', () => {
    type Slot = { id: string; position: number; name: string };
    const mixed = keyset<Slot>(
      [
        { expr: sql`position`, type: 'integer', dir: 'asc', of: (r) => r.position },
        { expr: sql`name`, type: 'text', dir: 'desc', of: (r) => r.name },
      ],
      ranked.id,
    );
    const cursor = pager.encode(scope, mixed, { id: hit.id, position: 3, name: 'b' });
    const forward = render(pager.plan(mixed, scope, { limit: 5, after: cursor }).where)!;
    expect(forward.sql).toBe(
      '(position > $1::integer or (position = $2::integer and name < $3::text) or (position = $4::integer and name = $5::text and "ranked"."id" < $6::uuid))',
    );
    expect(forward.params).toEqual([3, 3, 'b', 3, 'b', hit.id]);
    const backward = render(pager.plan(mixed, scope, { limit: 5, before: cursor }).where)!;
    expect(backward.sql).toContain('position < $1::integer');
    expect(backward.sql).toContain('name > $3::text');
  });

  it('leaves the cursor and limit as named placeholders for a prepared page', () => {
    const plan = pager.plan(byRank, scope, { limit: 5, after: pager.encode(scope, byRank, hit) }, true);
    expect(render(plan.where)!.sql).toBe('(ts_rank(doc, query), "ranked"."inserted_at", "ranked"."id") < ($1::real, $2::timestamptz, $3::uuid)');
    expect(plan.params).toEqual({ page_limit: 6, cursor_0: 0.0607927, cursor_1: hit.insertedAt.toISOString(), cursor_2: hit.id });
    expect(plan.shape).toBe('after');
  });

  it('refuses a rank that is not a finite number', () => {
    const text = keyset<{ id: string; rank: unknown }>([{ expr: rank, type: 'text', dir: 'desc', of: (r) => r.rank }], ranked.id);
    expectInvalidCursor(() => pager.plan(byRank, scope, { limit: 5, after: pager.encode(scope, text, { id: hit.id, rank: '0.5' }) }));
  });
});
