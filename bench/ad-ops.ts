/**
 * The ad-ops part of `npm run bench` (issue 13): `GET /api/media/v1/ads/random?count=3` with
 * 1,000 running ads (and 1,000 ended ones beside them), beside a floor that replays the app's
 * own draw statement on the same connection and writes the same JSON shape.
 * Target: within 1.35x the floor's CPU per request, at least 75 % of its throughput.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { App } from '../src/app.js';
import { systemContext } from '../src/shared/context.js';
import type { RawQuery } from './database.js';
import { captureQueries } from './floor.js';
import type { LoadScenario } from './load.js';
import { type MeasuredRow, cpuRatio } from './rows.js';

const RUNNING = 1_000;
const ENDED = 1_000;
const COUNT = 3;
const TARGET_CPU = 1.35;
const TARGET_THROUGHPUT = 0.75;

const FLOOR = 'floor: random ads';
const RANDOM = `random ads x${COUNT} of ${RUNNING} running (reader)`;
export const AD_OPS_SCENARIOS = [RANDOM];

/** Advertisers, a category, ads (running and ended), one HTML creative and one media placement each: set-based. */
async function seed(query: RawQuery, mediaId: string) {
  await query(
    `insert into advertisers (id, media_id, name, is_active) select gen_random_uuid(), $1, 'Advertiser ' || g, true from generate_series(1, 20) g`,
    [mediaId],
  );
  const [category] = await query(`insert into ad_categories (id, media_id, name) values (gen_random_uuid(), $1, 'Bench') returning id`, [mediaId]);
  await query(
    `insert into ads (id, media_id, advertiser_id, name, priority, category_id, starts_at, ends_at, timezone)
     select gen_random_uuid(), $1, (select id from advertisers where media_id = $1 order by id offset (g % 20) limit 1),
       'Ad ' || g, 1 + (g * 37) % 100, $2,
       case when g <= $3 then now() - interval '30 days' else now() - interval '60 days' end,
       case when g <= $3 then now() + interval '365 days' else now() - interval '1 day' end, 'Europe/Paris'
     from generate_series(1, $4::int) g`,
    [mediaId, category!.id, RUNNING, RUNNING + ENDED],
  );
  await query(
    `insert into ad_creatives (id, media_id, ad_id, name, kind, click_url, html, width, height)
     select gen_random_uuid(), $1, id, 'Creative', 'html', 'https://advertiser.example/' || id, '<p>' || name || '</p>', 300, 250
     from ads where media_id = $1`,
    [mediaId],
  );
  await query(
    `insert into ad_placements (id, media_id, ad_id, target) select gen_random_uuid(), $1, id, 'media' from ads where media_id = $1`,
    [mediaId],
  );
  await query('analyze advertisers, ads, ad_creatives, ad_placements');
}

export interface AdOpsBench {
  plan: (base: Omit<LoadScenario, 'url' | 'paths' | 'headers' | 'method'>) => Array<{ name: string; floor?: string; scenario: LoadScenario }>;
  report: (rows: MeasuredRow[]) => void;
  close: () => Promise<void>;
}

type Row = Record<string, unknown>;

/** The Reader's ad, written by hand from a row of the draw (no schema serializer). */
const readerAd = (r: Row) => ({
  id: r.id,
  name: r.name,
  advertiser_id: r.advertiser_id,
  category: r.category,
  creative: {
    id: r.creative_id,
    kind: r.kind,
    url: r.file_key ? `/assets/${r.file_key as string}` : null,
    click_url: r.click_url,
    alt_text: r.alt_text,
    width: r.width,
    height: r.height,
    html: r.html,
  },
});

export async function prepareAdOpsBench(options: {
  app: App;
  query: RawQuery;
  driver: object;
  mediaId: string;
  appUrl: string;
  bearer: Record<string, string>;
  host: string;
}): Promise<AdOpsBench> {
  const { app, query, mediaId, appUrl, bearer } = options;
  await seed(query, mediaId);

  // The floor replays the statement the app sends, with a fresh `now` on each request.
  const captured = await captureQueries(options.driver, () => app.services.adOps.ads.random(systemContext(app.db, mediaId), { count: COUNT }));
  const draw = captured.find((q) => /from ads a/i.test(q.text));
  if (!draw) throw new Error(`the draw statement was not captured: ${captured.map((q) => q.text.slice(0, 60)).join(' | ')}`);
  const nowIndex = draw.values.findIndex((v) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v));
  if (nowIndex < 0) throw new Error('the draw statement does not carry now as a parameter');

  const floor: FastifyInstance = Fastify({ logger: false });
  floor.get('/random', async () => {
    const values = [...draw.values];
    values[nowIndex] = new Date().toISOString();
    return { data: (await query(draw.text, values, draw.name)).map(readerAd) };
  });
  await floor.listen({ host: options.host, port: 0 });
  const address = floor.server.address();
  const floorUrl = `http://${options.host}:${typeof address === 'object' && address ? address.port : 0}`;

  // Both answer COUNT running ads of the same shape (the draw is random: the ids differ).
  const path = `/api/media/v1/ads/random?count=${COUNT}`;
  const fromApp = (await (await fetch(appUrl + path, { headers: bearer })).json()) as { data: Row[] };
  const fromFloor = (await (await fetch(`${floorUrl}/random`)).json()) as { data: Row[] };
  const shape = (body: { data: Row[] }) => JSON.stringify(body.data.map((ad) => [Object.keys(ad), Object.keys(ad.creative as Row)]));
  if (fromApp.data.length !== COUNT || shape(fromApp) !== shape(fromFloor)) {
    throw new Error(`the floor does not answer the app's shape:\n${JSON.stringify(fromApp).slice(0, 400)}\n${JSON.stringify(fromFloor).slice(0, 400)}`);
  }

  return {
    plan: (base) => [
      { name: FLOOR, scenario: { ...base, url: floorUrl, method: 'GET', headers: {}, paths: ['/random'] } },
      { name: RANDOM, floor: FLOOR, scenario: { ...base, url: appUrl, method: 'GET', headers: bearer, paths: [path] } },
    ],
    report: (rows) => {
      const app = rows.find((r) => r.name === RANDOM);
      const bare = rows.find((r) => r.name === FLOOR);
      if (!app || !bare) return;
      const clean = app.result.non2xx + app.result.errors + app.result.timeouts === 0;
      const cpu = cpuRatio(app, bare);
      const throughput = app.result.requestsPerSecond / bare.result.requestsPerSecond;
      const verdict = (ok: boolean) => (clean && ok ? 'PASS' : 'FAIL');
      console.log(`\nRandom ads (issue 13): ${RUNNING} running and ${ENDED} ended ads, ${COUNT} drawn a request`);
      console.log(`  ${verdict(cpu <= TARGET_CPU)}  CPU ${Math.round(app.cpuUsPerRequest)} us/req = ${cpu.toFixed(2)} x floor's ${Math.round(bare.cpuUsPerRequest)} us (target <= ${TARGET_CPU} x)`);
      console.log(`  ${verdict(throughput >= TARGET_THROUGHPUT)}  throughput ${Math.round(100 * throughput)} % of floor (target >= ${100 * TARGET_THROUGHPUT} %)`);
    },
    close: () => floor.close(),
  };
}
