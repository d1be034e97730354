import { createRequire } from 'node:module';
import { DrizzleQueryError, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Prepared, rowsAsSelected } from '../../src/shared/prepared.js';
import { type TestDatabase, createTestDatabase, statementsDuring } from '../setup/app.js';

// rowsAsSelected hands a node-postgres statement's config to its client itself (Drizzle's `all`
// elsewhere): the rows, the statement sent and a failure must be what `all` gives.
describe('rowsAsSelected', () => {
  let test: TestDatabase;
  let statement: Prepared<{ n: number; at: string; label: string }>;
  const all = (params: Record<string, unknown>) => (statement as unknown as { all(p: Record<string, unknown>): Promise<unknown[]> }).all(params);

  beforeAll(async () => {
    test = await createTestDatabase();
    statement = test.database.db
      .select({
        n: sql<number>`${sql.placeholder('n')}::int`.as('n'),
        at: sql<string>`'2026-11-24 10:00:00.123+00'::timestamptz`.as('at'),
        label: sql<string>`${sql.placeholder('label')}::text`.as('label'),
      })
      .from(sql`(values (1)) as one (x)`)
      .prepare('prepared_test_rows') as unknown as typeof statement;
  });
  afterAll(() => test.drop());

  it('gives the rows all() gives, timestamps left as the driver sent them', async () => {
    const rows = await rowsAsSelected(statement, { n: 7, label: 'seven' });
    expect(rows).toEqual(await all({ n: 7, label: 'seven' }));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.n).toBe(7);
    expect(rows[0]!.label).toBe('seven');
    // Drizzle's own parsers: a timestamptz stays text, never a Date.
    expect(typeof rows[0]!.at).toBe('string');
    expect(new Date(rows[0]!.at).toISOString()).toBe('2026-11-24T10:00:00.123Z');
  });

  it('gives each row its fields in the order selected, one object shape per statement', async () => {
    const [ours] = await rowsAsSelected(statement, { n: 2, label: 'b' });
    const [drizzles] = (await all({ n: 2, label: 'b' })) as Array<Record<string, unknown>>;
    expect(Object.keys(ours!)).toEqual(['n', 'at', 'label']);
    expect(Object.keys(ours!)).toEqual(Object.keys(drizzles!));
    expect(Object.getPrototypeOf(ours)).toBe(Object.prototype);
    const [again] = await rowsAsSelected(statement, { n: 3, label: 'c' });
    expect(again).toEqual({ n: 3, at: ours!.at, label: 'c' });
  });

  it('takes a column named __proto__ for a field, never for the prototype', async () => {
    const odd = test.database.db
      .select({ proto: sql<string>`${sql.placeholder('v')}::text`.as('__proto__'), n: sql<number>`1`.as('n') })
      .from(sql`(values (1)) as one (x)`)
      .prepare('prepared_test_proto') as unknown as Prepared<Record<string, unknown>>;
    const [row] = await rowsAsSelected(odd, { v: 'x' });
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.keys(row!)).toEqual(['__proto__', 'n']);
    expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toBe('x');
    expect(row!.n).toBe(1);
  });

  it('sends the one statement all() sends', async () => {
    const ours = await statementsDuring(test.database, () => rowsAsSelected(statement, { n: 1, label: 'a' }));
    const drizzles = await statementsDuring(test.database, () => all({ n: 1, label: 'a' }));
    expect(ours).toHaveLength(1);
    expect(ours).toEqual(drizzles);
  });

  it('fails as all() fails: a DrizzleQueryError with the query and the driver error as its cause', async () => {
    const ours = await rowsAsSelected(statement, { n: 'x', label: 'a' }).then(() => undefined, (err: unknown) => err);
    const drizzles = await all({ n: 'x', label: 'a' }).then(() => undefined, (err: unknown) => err);
    expect(ours).toBeInstanceOf(DrizzleQueryError);
    expect(drizzles).toBeInstanceOf(DrizzleQueryError);
    const [o, d] = [ours as DrizzleQueryError, drizzles as DrizzleQueryError];
    expect(o.message).toBe(d.message);
    expect(o.query).toBe(d.query);
    expect(o.params).toEqual(['x', 'a']);
    expect((o.cause as { code?: string }).code).toBe('22P02');
    expect((o.cause as { code?: string }).code).toBe((d.cause as { code?: string }).code);
  });
});

// On node-postgres a statement's result is described once (DescribedQuery): later executions, on
// any connection of the pool or in a transaction, send no Describe and still give the same rows.
describe.skipIf(!process.env.TEST_DATABASE_URL)('rowsAsSelected on node-postgres: one Describe per statement', () => {
  let test: TestDatabase;
  const describes: string[] = [];
  const connectionProto = createRequire(import.meta.url)('pg/lib/connection.js').prototype as { describe(msg: { name: string }): void };
  const originalDescribe = connectionProto.describe;

  beforeAll(async () => {
    test = await createTestDatabase();
    connectionProto.describe = function (this: unknown, msg: { name: string }) {
      describes.push(msg.name);
      return originalDescribe.call(this, msg);
    };
  });
  afterAll(async () => {
    connectionProto.describe = originalDescribe;
    await test.drop();
  });

  const statementNamed = (name: string, executor: Pick<typeof test.database.db, 'select'> = test.database.db) =>
    executor
      .select({ n: sql<number>`${sql.placeholder('n')}::int`.as('n'), label: sql<string>`${sql.placeholder('label')}::text`.as('label'), ok: sql<boolean>`true`.as('ok') })
      .from(sql`(values (1)) as one (x)`)
      .prepare(name) as unknown as Prepared<{ n: number; label: string; ok: boolean }>;

  it('describes the first execution only, on every connection of the pool alike', async () => {
    const statement = statementNamed('prepared_test_described_once');
    describes.length = 0;
    expect(await rowsAsSelected(statement, { n: 1, label: 'a' })).toEqual([{ n: 1, label: 'a', ok: true }]);
    expect(describes).toHaveLength(1);
    // Ten at once take several of the pool's connections, which have not parsed the statement yet.
    const many = await Promise.all(Array.from({ length: 10 }, (_, i) => rowsAsSelected(statement, { n: i, label: `l${i}` })));
    expect(many).toEqual(Array.from({ length: 10 }, (_, i) => [{ n: i, label: `l${i}`, ok: true }]));
    expect(describes).toHaveLength(1);
  });

  it('runs a statement inside a transaction on its client, described by its first execution only', async () => {
    describes.length = 0;
    const rows = await test.database.db.transaction(async (tx) => {
      const inTx = statementNamed('prepared_test_described_tx', tx);
      return [await rowsAsSelected(inTx, { n: 2, label: 'b' }), await rowsAsSelected(inTx, { n: 3, label: 'c' })];
    });
    expect(rows).toEqual([[{ n: 2, label: 'b', ok: true }], [{ n: 3, label: 'c', ok: true }]]);
    expect(describes).toEqual(['']); // the first of the two; the portal is unnamed
  });

  it('fails a described execution as all() fails, and the connection goes on answering', async () => {
    const statement = statementNamed('prepared_test_described_error');
    await rowsAsSelected(statement, { n: 1, label: 'a' });
    const err = await rowsAsSelected(statement, { n: 'x', label: 'a' }).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(DrizzleQueryError);
    expect(((err as DrizzleQueryError).cause as { code?: string }).code).toBe('22P02');
    expect(await rowsAsSelected(statement, { n: 5, label: 'e' })).toEqual([{ n: 5, label: 'e', ok: true }]);
  });
});
