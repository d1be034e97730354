import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../setup/app.js';
import { type CategoryWire, type Client, client, createCategory, seedMedia } from '../setup/factories.js';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

/** What a client does between two page fetches: its next page size, plus writes by others. */
interface Step {
  limit: number;
  inserts: number;
  /** Picks among the live categories, modulo their count. */
  deletes: number[];
}

const stepArb: fc.Arbitrary<Step> = fc.record({
  limit: fc.integer({ min: 1, max: 4 }),
  inserts: fc.integer({ min: 0, max: 2 }),
  deletes: fc.array(fc.nat({ max: 1000 }), { maxLength: 2 }),
});

// New rows land at the newest end; a budget per walk keeps a backward walk finite.
const INSERT_BUDGET = 4;
const MAX_PAGES = 80;

/** The categories of one media as the test knows them, kept in step with the API. */
class World {
  readonly live: string[] = [];
  constructor(private readonly api: Client) {}

  async insert(): Promise<string> {
    const created = await createCategory(this.api);
    this.live.push(created.id);
    return created.id;
  }

  async remove(pick: number): Promise<string | undefined> {
    if (this.live.length === 0) return undefined;
    const [id] = this.live.splice(pick % this.live.length, 1);
    const res = await this.api.delete(`/core/v2/categories/${id}`);
    expect(res.statusCode).toBe(204);
    return id;
  }
}

interface Walk {
  /** Live ids when the walk began (before its first fetch). */
  start: Set<string>;
  deleted: Set<string>;
  pages: CategoryWire[][];
}

const withLimit = (link: string, limit: number) => {
  const url = new URL(link, 'http://local');
  url.searchParams.set('limit', String(limit));
  return `${url.pathname}${url.search}`;
};

/** Follows meta[direction] until it is null, letting `steps` write between fetches. */
async function walk(
  world: World,
  api: Client,
  first: { url: string } | { page: CategoryWire[]; link: string | null },
  direction: 'next' | 'previous',
  steps: Step[],
): Promise<Walk> {
  const result: Walk = { start: new Set(world.live), deleted: new Set(), pages: [] };
  let budget = INSERT_BUDGET;
  let link: string | null;
  if ('url' in first) {
    link = first.url;
  } else {
    result.pages.push(first.page);
    link = first.link;
    if (link) link = await between(0);
  }

  async function between(i: number): Promise<string> {
    const step = steps[i % steps.length]!;
    for (let n = 0; n < step.inserts && budget > 0; n++, budget--) await world.insert();
    for (const pick of step.deletes) {
      const id = await world.remove(pick);
      if (id) result.deleted.add(id);
    }
    return withLimit(link!, steps[(i + 1) % steps.length]!.limit);
  }

  for (let i = result.pages.length; link; i++) {
    if (i > MAX_PAGES) throw new Error(`the ${direction} walk did not end after ${MAX_PAGES} pages`);
    const res = await api.get(link);
    expect(res.statusCode, link).toBe(200);
    const body = res.json() as { data: CategoryWire[]; meta: { next: string | null; previous: string | null } };
    for (const item of body.data) {
      expect(result.deleted.has(item.id), `deleted category ${item.id} listed on page ${i}`).toBe(false);
    }
    result.pages.push(body.data);
    link = body.meta[direction];
    if (link) link = await between(i);
  }
  return result;
}

const newer = (a: CategoryWire, b: CategoryWire) => a.inserted_at > b.inserted_at || (a.inserted_at === b.inserted_at && a.id > b.id);

/** Every survivor of the start seen exactly once, nothing twice, newest first throughout. */
function check(result: Walk, inListingOrder: CategoryWire[][]) {
  const seen = inListingOrder.flat();
  const ids = seen.map((c) => c.id);
  expect(new Set(ids).size, 'an id was listed twice').toBe(ids.length);

  const survivors = [...result.start].filter((id) => !result.deleted.has(id));
  const missing = survivors.filter((id) => !ids.includes(id));
  expect(missing, 'categories that existed throughout but were never listed').toEqual([]);

  for (let i = 1; i < seen.length; i++) {
    const [a, b] = [seen[i - 1]!, seen[i]!];
    expect(newer(a, b), `${a.id}@${a.inserted_at} should come before ${b.id}@${b.inserted_at}`).toBe(true);
  }
}

describe('GET /core/v2/categories cursor paging under concurrent writes', () => {
  it('lists every surviving category exactly once, newest first, walking forward and backward', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 8 }),
        fc.array(stepArb, { minLength: 1, maxLength: 8 }),
        async (initial, steps) => {
          const seeded = await seedMedia(ctx.app);
          const api = client(ctx.app, seeded.keys.editor);
          const world = new World(api);
          for (let i = 0; i < initial; i++) await world.insert();

          // Forward from the first page: rows inserted meanwhile land before the cursor.
          const forward = await walk(world, api, { url: `/core/v2/categories?limit=${steps[0]!.limit}` }, 'next', steps);
          check(forward, forward.pages);

          // To the end without interference, then backward from the last page.
          let res = await api.get(`/core/v2/categories?limit=${steps[0]!.limit}`);
          while (res.json().meta.next) res = await api.get(res.json().meta.next);
          const last = res.json() as { data: CategoryWire[]; meta: { previous: string | null } };
          const backward = await walk(world, api, { page: last.data, link: last.meta.previous }, 'previous', steps);
          // Backward pages arrive oldest first; each page is itself newest first.
          check(backward, [...backward.pages].reverse());
        },
      ),
      { numRuns: 20 },
    );
  });
});
