import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { type SeededMedia, client, seedMedia } from '../../setup/factories.js';
import { type CapturedStatement, type PlanNode, captureStatements, nodes, onPostgres } from '../../setup/plans.js';

const HASH = (n: number) => n.toString(16).padStart(64, '0');

describe.skipIf(!onPostgres)('the asset image queries walk their indexes', () => {
  let ctx: TestContext;
  let media: SeededMedia;
  const captured: CapturedStatement[] = [];
  const keyOf = (n: number) => `${media.mediaId}_${HASH(n)}.jpg`;

  beforeAll(async () => {
    ctx = await createTestApp({}, {}, { fresh: true });
    media = await seedMedia(ctx.app);
    const other = await seedMedia(ctx.app);
    const pool = ctx.database.pool!;
    // 100 files of each media, 30 image records over each: a sort or a scan would read thousands.
    for (const m of [media.mediaId, other.mediaId]) {
      await pool.query(
        `insert into assets (id, media_id, file_key, file_hash, content_type, size, width, height)
         select gen_random_uuid(), $1::uuid, $1 || '_' || lpad(to_hex(n), 64, '0') || '.jpg', lpad(to_hex(n), 64, '0'), 'image/jpeg', 1, 1, 1
         from generate_series(1, 100) n`,
        [m],
      );
      await pool.query(
        `insert into asset_images (id, media_id, asset_id, file_key, file_hash, name, inserted_at, updated_at)
         select gen_random_uuid(), a.media_id, a.id, a.file_key, a.file_hash, 'img', now() - (n * 100 + r) * interval '1 second', now()
         from assets a, generate_series(1, 30) r, lateral (select ('x' || right(a.file_hash, 8))::bit(32)::int as n) h
         where a.media_id = $1::uuid`,
        [m],
      );
    }
    await pool.query('analyze assets');
    await pool.query('analyze asset_images');
    await pool.query('analyze asset_image_locales');
    captureStatements(pool, /from "asset_images"/, captured);
  });
  afterAll(() => ctx?.close());

  const explain = async (query: { text: string; values: unknown[] }) => {
    const res = await ctx.database.pool!.query(`explain (analyze, format json) ${query.text}`, query.values);
    return nodes((res.rows[0] as { 'QUERY PLAN': Array<{ Plan: PlanNode }> })['QUERY PLAN'][0]!.Plan).filter(
      (n) => n['Relation Name'] === 'asset_images',
    );
  };

  it('a page of the list reads about a page of rows from asset_images_media_page_idx', async () => {
    const api = client(ctx.app, media.keys.viewer);
    const first = (await api.get('/core/v2/assets/images?limit=20')).json();
    await api.get(first.meta.next);
    const pages = captured.filter((q) => /order by "asset_images"."inserted_at"/.test(q.text));
    expect(pages.length).toBeGreaterThanOrEqual(2);
    for (const page of pages) {
      const scans = await explain(page);
      expect(scans.map((s) => s['Index Name'])).toEqual(['asset_images_media_page_idx']);
      expect(scans[0]!['Actual Rows']).toBeLessThanOrEqual(21);
    }
  });

  it('by key, by hash and the delivery lookup read one row from their index', async () => {
    captured.length = 0;
    const api = client(ctx.app, media.keys.viewer);
    expect((await api.get(`/core/v2/assets/images/by-key/${keyOf(7)}`)).statusCode).toBe(200);
    expect((await api.get(`/core/v2/assets/images/by-hash/${HASH(8)}`)).statusCode).toBe(200);
    // The file exists in storage nowhere: a 500 after the lookup is fine, the query is what counts.
    await ctx.app.inject({ method: 'GET', url: `/assets/${keyOf(9)}` });
    const expected = [/"file_key" = \$2/, /"file_hash" = \$2/, /inner join "assets"/];
    const indexes = ['asset_images_media_key_idx', 'asset_images_media_hash_idx', 'asset_images_media_key_idx'];
    for (const [i, pattern] of expected.entries()) {
      const query = captured.find((q) => pattern.test(q.text));
      expect(query, String(pattern)).toBeDefined();
      const scans = await explain(query!);
      expect(scans.map((s) => s['Index Name']), query!.text).toEqual([indexes[i]]);
      expect(scans[0]!["Actual Rows"], query!.text).toBe(1);
    }
  });
});
