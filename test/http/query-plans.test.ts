import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../setup/app.js';
import { type SeededMedia, client, seedMedia } from '../setup/factories.js';
import { type CapturedStatement, type PlanNode, captureStatements, nodes, onPostgres } from '../setup/plans.js';

describe.skipIf(!onPostgres)('the category queries are index scans, not sorts', () => {
  let ctx: TestContext;
  let media: SeededMedia;
  const captured: CapturedStatement[] = [];

  beforeAll(async () => {
    ctx = await createTestApp({}, {}, { fresh: true });
    media = await seedMedia(ctx.app);
    const pool = ctx.database.pool!;
    // Enough rows, over two media, that a sort would cost more than walking the index.
    await pool.query(
      `insert into categories (id, media_id, inserted_at, updated_at)
       select gen_random_uuid(), m, now() - n * interval '1 second', now()
       from generate_series(1, 3000) n, (values ($1::uuid), ($2::uuid)) as v(m)`,
      [media.mediaId, (await seedMedia(ctx.app)).mediaId],
    );
    await pool.query('analyze categories');
    await pool.query('analyze category_locales');
    captureStatements(pool, /from "categories"/, captured);
  });
  afterAll(() => ctx?.close());

  const explain = async (text: string, values: unknown[]) => {
    const res = await ctx.database.pool!.query(`explain (analyze, format json) ${text}`, values);
    return nodes((res.rows[0] as { 'QUERY PLAN': Array<{ Plan: PlanNode }> })['QUERY PLAN'][0]!.Plan);
  };

  it('first page, a page after a cursor and a page before one read about a page of rows from categories_media_page_idx', async () => {
    const api = client(ctx.app, media.keys.viewer);
    let page = (await api.get('/core/v2/categories?limit=20')).json();
    for (let i = 0; i < 10; i++) page = (await api.get(page.meta.next)).json();
    await api.get(page.meta.previous);
    const pages = captured.filter((q) => /order by "categories"."inserted_at"/.test(q.text));
    expect(pages.length).toBe(12);
    for (const query of [pages[0]!, pages[10]!, pages[11]!]) {
      const scans = (await explain(query.text, query.values)).filter((n) => n['Relation Name'] === 'categories');
      expect(scans, query.text).toHaveLength(1);
      // Walking the index in order reads one page (plus one row); sorting would read all 3,000.
      expect(scans[0]!['Index Name'], query.text).toBe('categories_media_page_idx');
      expect(scans[0]!['Actual Rows'], query.text).toBeLessThanOrEqual(21);
    }
  });

  it('a category by id is a primary-key lookup', async () => {
    captured.length = 0;
    const first = (await client(ctx.app, media.keys.viewer).get('/core/v2/categories?limit=1')).json();
    await client(ctx.app, media.keys.viewer).get(`/core/v2/categories/${first.data[0].id}`);
    const byId = captured.find((q) => /"categories"."id" = \$1/.test(q.text))!;
    const scans = (await explain(byId.text, byId.values)).filter((n) => n['Relation Name'] === 'categories');
    expect(scans.map((n) => [n['Node Type'], n['Index Name']])).toEqual([['Index Scan', 'categories_pkey']]);
  });
});
