/**
 * The publisher part of `npm run bench` (issue 15), on either database: a menu by key (a three-level
 * tree in two languages) and an RSS feed of 20 of 200 published contents, each beside a floor that
 * replays the app's own statements on the same connection and writes the same answer (the same JSON
 * for the menu; the same RSS writer for the RSS). The RSS feed runs twice: uncached (a full
 * answer) and cached (a feed reader's conditional request answered 304 by its ETag).
 * Target for the menu: within 1.35x the floor's CPU per request, at least 75 % of its throughput.
 */
import { isDeepStrictEqual } from 'node:util';
import Fastify, { type FastifyInstance } from 'fastify';
import type { App } from '../src/app.js';
import { rss2 } from '../src/modules/publisher/sitemaps/rss.js';
import { escapeHtml } from '../src/shared/html.js';
import { systemContext } from '../src/shared/context.js';
import type { RawQuery } from './database.js';
import { type CapturedQuery, captureQueries } from './floor.js';
import type { LoadScenario } from './load.js';
import { type MeasuredRow, cpuRatio } from './rows.js';

const CONTENTS = 200;
const TARGET_CPU = 1.35;
const TARGET_THROUGHPUT = 0.75;

const MENU = 'publisher menu by key (reader)';
const RSS = 'publisher rss feed uncached';
const RSS_CACHED = 'publisher rss feed cached (304)';
const floorName = (name: string) => `floor: ${name}`;
export const PUBLISHER_SCENARIOS = [MENU, RSS, RSS_CACHED];

type Row = Record<string, unknown>;
interface LocaleRow {
  id: string;
  locale: string;
  items: unknown;
  deletedAt: string | null;
}

/** The Reader's menu (spec 2.15), written by hand from the row of the app's statement. */
const readerMenu = (r: Row, locale: string) => {
  const locales = r.locales as LocaleRow[];
  const entry = locales.find((l) => l.locale === locale) ?? locales[0];
  return {
    id: r.id,
    key: r.key,
    name: r.name,
    localized: entry ? { id: entry.id, locale: entry.locale, items: entry.items } : null,
    meta: { locales: { current: entry?.locale ?? null, available: locales.map((l) => l.locale) } },
    inserted_at: r.insertedAt,
    updated_at: r.updatedAt,
  };
};

const tree = (prefix: string, depth: number): unknown[] =>
  Array.from({ length: depth === 1 ? 6 : 3 }, (_, i) => ({
    name: `${prefix} ${i + 1}`,
    url: `/${prefix.toLowerCase()}/${i + 1}`,
    ...(depth < 3 && { items: tree(`${prefix}-${i + 1}`, depth + 1) }),
  }));

export interface PublisherBench {
  plan: (base: Omit<LoadScenario, 'url' | 'paths' | 'headers' | 'method'>) => Array<{ name: string; floor?: string; scenario: LoadScenario }>;
  report: (rows: MeasuredRow[]) => void;
  close: () => Promise<void>;
}

export async function preparePublisherBench(options: {
  app: App;
  query: RawQuery;
  driver: object;
  mediaId: string;
  workspaceId: string;
  appUrl: string;
  bearer: Record<string, string>;
  host: string;
}): Promise<PublisherBench> {
  const { app, query, mediaId, appUrl, bearer } = options;
  const ctx = systemContext(app.db, mediaId);
  const publisher = app.services.publisher;

  // A menu of 6 x 3 x 3 items in two languages, made through the service as the Backoffice does.
  const menu = await publisher.menus.create(ctx, {
    key: 'bench-main',
    name: 'Main',
    locales: [
      { locale: 'en', items: tree('News', 1) },
      { locale: 'fr', items: tree('Actu', 1) },
    ],
  });

  // 200 published contents of one template (set-based), and a feed of their latest 20.
  const docs = app.services.docs;
  const type = await docs.contentTypes.create(ctx, { key: 'bench-feed-article', name: 'Article' });
  const template = await docs.templates.create(ctx, { content_type_id: type.id, key: 'bench-feed', name: 'Feed', block_kinds: ['richtext'], metadata_keys: [] });
  const [status] = await query(`select id from statuses where media_id = $1::uuid and key = 'published'`, [mediaId]);
  await query(
    `insert into contents (id, media_id, workspace_id, status_id, template_id, canonical_url, published_at, inserted_at, updated_at)
     select gen_random_uuid(), $1::uuid, $2::uuid, $3::uuid, $4::uuid, 'https://news.example.test/feed/' || g,
            now() - g * interval '1 minute', now() - g * interval '1 minute', now() - g * interval '1 minute'
     from generate_series(1, $5::int) g`,
    [mediaId, options.workspaceId, status!.id, template.id, CONTENTS],
  );
  await query(
    `insert into content_locales (id, content_id, media_id, locale, title_html, title_text, lead_html, lead_text, search_config, visual_id)
     select gen_random_uuid(), c.id, c.media_id, 'en', 'Story &amp; more ' || c.canonical_url, 'Story & more ' || c.canonical_url,
            '<p>A lead</p>', 'A lead', 'english', gen_random_uuid()
     from contents c where c.template_id = $1::uuid`,
    [template.id],
  );
  await query('analyze contents, content_locales');
  const feed = (await publisher.rssFeeds.create(ctx, { key: 'bench-feed', template_ids: [template.id], locales: [{ locale: 'en', title: 'Bench & news', description: 'Latest' }] }));

  // The statements the app sends for each read, captured from its services.
  const menuStatements = await captureQueries(options.driver, () => publisher.menus.getByKey(ctx, 'bench-main'));
  const menuSelect = menuStatements.find((q) => /from "menus"/i.test(q.text));
  if (!menuSelect || menuStatements.length !== 1) throw new Error(`expected one menu statement, captured ${menuStatements.length}`);
  const feedRecord = await captureQueries(options.driver, () => publisher.rssFeeds.get(ctx, feed.id));
  const feedItems = await captureQueries(options.driver, () =>
    publisher.feeds.contents(ctx.db, mediaId, { categoryIds: [], templateIds: [template.id], limit: 20 }),
  );
  const run = (q: CapturedQuery) => query(q.text, q.values, q.name);

  const floor: FastifyInstance = Fastify({ logger: false });
  floor.get('/menu', async () => ({ data: readerMenu((await run(menuSelect))[0]!, 'en') }));
  floor.get('/rss', async (_req, reply) => {
    const [record] = await run(feedRecord[0]!);
    const items = await run(feedItems[0]!);
    const locale = (record!.locales as Array<{ title: string; description: string | null }>)[0]!;
    const rssItems = items.map((item) => {
      const entry = (item.locales as Array<{ title: string; leadHtml: string | null }>)[0];
      const published = new Date(item.publishedAt as string);
      return { title: escapeHtml(entry?.title ?? ''), link: item.canonicalUrl as string, guid: item.id as string, published, description: entry?.leadHtml ?? null };
    });
    const channel = { title: escapeHtml(locale.title), description: escapeHtml(locale.description ?? ''), link: appUrl, self: appUrl, language: 'en', updated: null };
    return reply.type('application/rss+xml; charset=utf-8').send(rss2(channel, rssItems));
  });
  await floor.listen({ host: options.host, port: 0 });
  const address = floor.server.address();
  const floorUrl = `http://${options.host}:${typeof address === 'object' && address ? address.port : 0}`;

  // The floor answers the app's menu, checked, not assumed; the feeds both list 20 items.
  const menuPath = '/api/media/v1/menus/bench-main?locale=en';
  const rssPath = `/api/media/v1/rss/${feed.id}?media_id=${mediaId}`;
  const fromApp = (await (await fetch(appUrl + menuPath, { headers: bearer })).json()) as { data: unknown };
  const fromFloor = (await (await fetch(`${floorUrl}/menu`)).json()) as { data: unknown };
  // jsonb keeps an item's keys in its own order: the same data, compared as data.
  if (!isDeepStrictEqual(fromApp.data, fromFloor.data)) {
    throw new Error(`the floor's menu differs from the app's:\n${JSON.stringify(fromApp.data).slice(0, 300)}\n${JSON.stringify(fromFloor.data).slice(0, 300)}`);
  }
  const rssRes = await fetch(appUrl + rssPath);
  const etag = rssRes.headers.get('etag');
  const appItems = ((await rssRes.text()).match(/<item>/g) ?? []).length;
  const floorItems = ((await (await fetch(`${floorUrl}/rss`)).text()).match(/<item>/g) ?? []).length;
  if (!etag || appItems !== 20 || floorItems !== 20) throw new Error(`rss: etag ${etag}, app ${appItems} items, floor ${floorItems} items`);
  void menu;

  return {
    plan: (base) => {
      const at = (url: string, path: string, headers: Record<string, string> = {}): LoadScenario => ({ ...base, url, method: 'GET', headers, paths: [path] });
      return [
        { name: floorName(MENU), scenario: at(floorUrl, '/menu') },
        { name: MENU, floor: floorName(MENU), scenario: at(appUrl, menuPath, bearer) },
        { name: floorName(RSS), scenario: at(floorUrl, '/rss') },
        { name: RSS, floor: floorName(RSS), scenario: at(appUrl, rssPath) },
        { name: RSS_CACHED, floor: floorName(RSS), scenario: at(appUrl, rssPath, { 'if-none-match': etag }) },
      ];
    },
    report: (rows) => {
      const byName = new Map(rows.map((r) => [r.name, r]));
      console.log(`\nPublisher (issue 15): a menu of 6 x 3 x 3 items in 2 languages; an RSS feed of the latest 20 of ${CONTENTS} contents`);
      for (const name of PUBLISHER_SCENARIOS) {
        const row = byName.get(name);
        const bare = byName.get(floorName(name === RSS_CACHED ? RSS : name));
        if (!row || !bare) continue;
        const cpu = cpuRatio(row, bare);
        const throughput = row.result.requestsPerSecond / bare.result.requestsPerSecond;
        // The cached scenario answers 304 by design: it is clean when nothing failed otherwise.
        const clean = row.result.errors + row.result.timeouts + row.result.non2xx - (name === RSS_CACHED ? row.result.notModified : 0) === 0;
        const line =
          `${name}: CPU ${Math.round(row.cpuUsPerRequest)} us/req = ${cpu.toFixed(2)} x floor's ${Math.round(bare.cpuUsPerRequest)} us, ` +
          `${Math.round(row.result.requestsPerSecond)} req/s = ${Math.round(100 * throughput)} % of floor's ${Math.round(bare.result.requestsPerSecond)}, p99 ${row.result.p99Ms} ms`;
        const target = name === MENU ? cpu <= TARGET_CPU && throughput >= TARGET_THROUGHPUT : true;
        console.log(`  ${name === MENU ? (clean && target ? 'PASS' : 'FAIL') : clean ? 'INFO' : 'FAIL'}  ${line}`);
      }
      console.log(`  (menu target: <= ${TARGET_CPU} x the floor's CPU per request and >= ${100 * TARGET_THROUGHPUT} % of its throughput)`);
    },
    close: () => floor.close(),
  };
}
