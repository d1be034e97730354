import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../../src/shared/context.js';
import { type TestContext, createTestApp } from '../setup/app.js';
import { type SeededMedia, seedMedia } from '../setup/factories.js';
import { type PlanNode, captureStatements, nodes, onPostgres } from '../setup/plans.js';

describe.skipIf(!onPostgres)('the random ads draw walks indexes, never a scan of ads, placements or creatives', () => {
  let ctx: TestContext;
  let media: SeededMedia;

  beforeAll(async () => {
    ctx = await createTestApp({}, {}, { fresh: true });
    media = await seedMedia(ctx.app);
    const other = await seedMedia(ctx.app);
    const pool = ctx.database.pool!;
    // Per media: 1,000 running ads beside 5,000 ended ones, each with a creative and a placement.
    for (const mediaId of [media.mediaId, other.mediaId]) {
      const [advertiser] = (await pool.query(`insert into advertisers (id, media_id, name) values (gen_random_uuid(), $1, 'A') returning id`, [mediaId])).rows;
      const [category] = (await pool.query(`insert into ad_categories (id, media_id, name) values (gen_random_uuid(), $1, 'C') returning id`, [mediaId])).rows;
      await pool.query(
        `insert into ads (id, media_id, advertiser_id, name, priority, category_id, starts_at, ends_at, timezone)
         select gen_random_uuid(), $1, $2, 'Ad ' || g, 1 + g % 100, $3, now() - interval '90 days',
                case when g <= 1000 then now() + interval '30 days' else now() - interval '1 day' * (1 + g % 60) end, 'UTC'
         from generate_series(1, 6000) g`,
        [mediaId, advertiser.id, category.id],
      );
      await pool.query(
        `insert into ad_creatives (id, media_id, ad_id, name, kind, click_url, html)
         select gen_random_uuid(), $1, id, 'C', 'html', 'https://a.example', '<p>x</p>' from ads where media_id = $1`,
        [mediaId],
      );
      await pool.query(`insert into ad_placements (id, media_id, ad_id, target) select gen_random_uuid(), $1, id, 'media' from ads where media_id = $1`, [
        mediaId,
      ]);
    }
    for (const table of ['advertisers', 'ads', 'ad_creatives', 'ad_placements']) await pool.query(`analyze ${table}`);
  });
  afterAll(() => ctx.close());

  it('reads running ads through ads_running_idx and probes placements and creatives by ad', async () => {
    const pool = ctx.database.pool!;
    const { captured, stop } = captureStatements(pool, /from ads a/);
    try {
      const drawn = await ctx.app.services.adOps.ads.random(systemContext(ctx.app.db, media.mediaId), { count: 3 });
      expect(drawn).toHaveLength(3);
    } finally {
      stop();
    }
    expect(captured).toHaveLength(1);
    const { rows } = await pool.query(`explain (format json) ${captured[0]!.text}`, captured[0]!.values);
    const plan = nodes((rows[0]['QUERY PLAN'] as Array<{ Plan: PlanNode }>)[0]!.Plan);
    const scans = plan.filter((n) => n['Relation Name']);
    const on = (table: string) => scans.filter((n) => n['Relation Name'] === table);
    const indexes = (table: string) => on(table).flatMap((n) => nodes(n).map((m) => m['Index Name']).filter(Boolean));
    const where = JSON.stringify(scans.map((n) => [n['Node Type'], n['Relation Name'], ...nodes(n).map((m) => m['Index Name'])]));
    // The media's ads that have not ended, by range; never the ended ones nor another media's.
    expect(indexes('ads'), where).toContain('ads_running_idx');
    // Each drawn candidate's placements and creatives are probed by its id.
    // (both indexes of ad_placements lead with ad_id)
    expect(indexes('ad_placements').length, where).toBe(1);
    expect(indexes('ad_placements')[0], where).toMatch(/^ad_placements_(place_uq|ad_page_idx)$/);
    expect(indexes('ad_creatives'), where).toEqual(['ad_creatives_ad_idx', 'ad_creatives_ad_idx']);
    for (const table of ['ads', 'ad_placements', 'ad_creatives']) expect(on(table).some((n) => n['Node Type'] === 'Seq Scan'), where).toBe(false);
  });
});
