import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { pgTable, real, uuid } from 'drizzle-orm/pg-core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { newId } from '../../src/db/columns.js';
import { Paginator, keyset } from '../../src/shared/paging.js';
import { type TestDatabase, createTestDatabase } from '../setup/app.js';

// A listing ranked by a `real` expression, as a full-text search is: many ties, values
// that a numeric or float8 round trip would not compare equal to, and rows inserted
// between page fetches anywhere in the order.
const hits = pgTable('t_hits', {
  id: uuid('id').primaryKey().$defaultFn(newId),
  owner: uuid('owner').notNull(),
  score: real('score').notNull(),
});
const rank = sql<number>`(${hits.score} / 3)::real`;
const order = keyset<{ id: string; rank: number }>([{ expr: rank, type: 'real', dir: 'desc', of: (row) => row.rank }], hits.id);

let test: TestDatabase;
let database: Database;
const pager = new Paginator(randomBytes(32));

beforeAll(async () => {
  test = await createTestDatabase();
  database = test.database;
  await database.db.execute(sql.raw('create table t_hits (id uuid primary key, owner uuid not null, score real not null)'));
});
afterAll(async () => {
  await test?.database.close();
  await test?.drop();
});

// Few distinct scores, so that ties are the rule; thirds make values like 0.33333334.
// Rows inserted ahead of the cursor are walked too: a budget keeps the listing finite.
const INSERT_BUDGET = 12;
const scoreArb = fc.integer({ min: 0, max: 6 }).map((n) => n / 7);

const page = (owner: string, query: { limit: number; after?: string; before?: string }) =>
  pager.page(
    {
      select: database.db.select({ id: hits.id, rank }).from(hits),
      keyset: order,
      scope: `hits:${owner}`,
      where: sql`${hits.owner} = ${owner}`,
    },
    query,
  );

describe('paging through a listing ranked by a real expression', () => {
  it('never shows a row twice nor misses one present from start to end, with ties and inserts between pages', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(scoreArb, { minLength: 1, maxLength: 30 }),
        fc.array(fc.record({ limit: fc.integer({ min: 1, max: 4 }), inserts: fc.array(scoreArb, { maxLength: 3 }) }), {
          minLength: 1,
          maxLength: 40,
        }),
        async (initial, steps) => {
          const owner = randomUUID();
          await database.db.insert(hits).values(initial.map((score) => ({ owner, score })));
          const present = new Set(
            (await database.db.select({ id: hits.id }).from(hits).where(sql`${hits.owner} = ${owner}`)).map((r) => r.id),
          );
          const seen: string[] = [];
          const ranks: number[] = [];
          let after: string | undefined;
          let budget = INSERT_BUDGET;
          for (let i = 0; ; i++) {
            const step = steps[i % steps.length]!;
            const result = await page(owner, { limit: step.limit, ...(after && { after }) });
            seen.push(...result.items.map((r) => r.id));
            ranks.push(...result.items.map((r) => r.rank));
            if (!result.next) break;
            after = result.next;
            // Others write between two fetches: rows land anywhere in the order.
            const batch = step.inserts.slice(0, budget);
            budget -= batch.length;
            if (batch.length > 0) await database.db.insert(hits).values(batch.map((score) => ({ owner, score })));
            // Every page holds at least one row never seen before, unless the walk goes round in circles.
            if (i > initial.length + INSERT_BUDGET) throw new Error(`the walk did not end after ${i} pages`);
          }
          expect(new Set(seen).size).toBe(seen.length);
          for (const id of present) expect(seen).toContain(id);
          // The walk followed the order: ranks never increase.
          for (let i = 1; i < ranks.length; i++) expect(ranks[i]!).toBeLessThanOrEqual(ranks[i - 1]!);
        },
      ),
      // A failure is reported as found: shrinking would replay hundreds of walks.
      { numRuns: 25, endOnFailure: true },
    );
  });

  it('walks back from the end to the start over the same rows, in the same order', async () => {
    const owner = randomUUID();
    await database.db.insert(hits).values(Array.from({ length: 23 }, (_, i) => ({ owner, score: (i % 4) / 7 })));
    const forward: string[] = [];
    let result = await page(owner, { limit: 5 });
    forward.push(...result.items.map((r) => r.id));
    for (let pages = 1; result.next; pages++) {
      if (pages > 5) throw new Error('the forward walk did not end after 5 pages of 23 rows');
      result = await page(owner, { limit: 5, after: result.next });
      forward.push(...result.items.map((r) => r.id));
    }
    const backward: string[][] = [result.items.map((r) => r.id)];
    for (let pages = 1; result.previous; pages++) {
      if (pages > 5) throw new Error('the backward walk did not end after 5 pages of 23 rows');
      result = await page(owner, { limit: 5, before: result.previous });
      backward.unshift(result.items.map((r) => r.id));
    }
    expect(backward.flat()).toEqual(forward);
    expect(forward).toHaveLength(23);
  });
});
