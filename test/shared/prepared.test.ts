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
