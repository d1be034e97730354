/**
 * The contents part of `npm run bench` (issue 10), on PostgreSQL only: 50,000 published contents
 * of two locales and five blocks each, read through the Reader (first and a deep page with their
 * assocs, one content with its blocks) beside a floor that replays the app's own statements and
 * answers the same JSON, and a search for a common word at 20 connections (p99 target).
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { App } from '../src/app.js';
import { systemContext } from '../src/shared/context.js';
import type { RawQuery } from './database.js';
import { type CapturedQuery, captureQueries } from './floor.js';
import type { LoadScenario } from './load.js';
import { type MeasuredRow, cpuRatio, expectSameJson } from './rows.js';

export const CONTENTS = 50_000;
/** Rows skipped before the deep page: 500 pages of 20. */
const DEEP_ROWS = 10_000;
const BY_ID_SAMPLE = 100;
const SEARCH_CONNECTIONS = 20;
/** Titles carrying the common word: one content in 50 (its body words are another vocabulary). */
const COMMON_EVERY = 50;
export const COMMON_WORD = 'economy';

const TARGET_CPU = 1.35;
const TARGET_THROUGHPUT = 0.75;
const TARGET_SEARCH_P99_MS = 50;

const FLOOR_LIST = 'floor: contents first page';
const LIST = 'contents first page (reader)';
const FLOOR_DEEP = 'floor: contents deep page';
const DEEP = 'contents deep page (reader)';
const FLOOR_BY_ID = 'floor: content by id';
const BY_ID = 'content by id with blocks (reader)';
const SEARCH = `contents search "${COMMON_WORD}" (${SEARCH_CONNECTIONS} conn.)`;
/** The search's lower bound on this machine: the floor serving a plain first page (no matching, no ranking) at the search's connections. */
const FLOOR_AT_SEARCH_CONNECTIONS = `contents search lower bound: floor's plain first page (${SEARCH_CONNECTIONS} conn.)`;

/** The scenarios this file adds, so that `BENCH_ONLY` can skip the seeding when it picks none of them. */
export const CONTENTS_SCENARIOS = [LIST, DEEP, BY_ID, SEARCH, FLOOR_AT_SEARCH_CONNECTIONS];

// Vocabularies without the common word: body text never matches it, so a search finds the
// titles that carry it (about 2 %) and ranks those, as a real common-word search does.
const EN = ['city', 'council', 'vote', 'river', 'school', 'market', 'festival', 'storm', 'team', 'season', 'museum', 'bridge', 'train',
  'harbour', 'budget', 'mayor', 'report', 'health', 'winter', 'summer', 'garden', 'theatre', 'energy', 'street', 'police', 'court',
  'library', 'music', 'film', 'election', 'hospital', 'airport', 'forest', 'village', 'coast', 'farm', 'factory', 'union', 'tax', 'park'];
const FR = ['ville', 'conseil', 'vote', 'rivière', 'école', 'marché', 'festival', 'tempête', 'équipe', 'saison', 'musée', 'pont', 'train',
  'port', 'budget', 'maire', 'rapport', 'santé', 'hiver', 'été', 'jardin', 'théâtre', 'énergie', 'rue', 'police', 'tribunal',
  'bibliothèque', 'musique', 'film', 'élection', 'hôpital', 'aéroport', 'forêt', 'village', 'côte', 'ferme', 'usine', 'syndicat', 'impôt', 'parc'];

const sqlArray = (words: string[]) => `array[${words.map((w) => `'${w}'`).join(',')}]`;
/** `count` words of a vocabulary, picked by a hash of `seed` (an SQL text expression). */
const words = (vocabulary: string, seed: string, count: number) =>
  `array_to_string(array(select (${vocabulary})[1 + abs(hashtext(${seed} || ':' || i)) % 40] from generate_series(1, ${count}) i), ' ')`;
/** A UUIDv7 from an instant, as the uuidv7 package makes them (48-bit ms time, version 7, variant 10). */
const uuidv7 = (ts: string, random: string, n: string) =>
  `(lpad(to_hex(floor(extract(epoch from ${ts}) * 1000)::bigint), 12, '0') || '7' || substr(${random}, 1, 3)
     || substr('89ab', 1 + ${n} % 4, 1) || substr(${random}, 4, 15))::uuid`;

/**
 * Seeds the contents set-based: contents (published a millisecond apart), one or two of the
 * media's categories each, an `en` and an `fr` entry each with five richtext blocks, and the
 * entries' search documents built from them as the repository's refreshSearch builds them.
 */
export async function seedContents(
  query: RawQuery,
  ids: { mediaId: string; workspaceId: string; statusId: string; templateId: string },
  count = CONTENTS,
) {
  const { mediaId, workspaceId, statusId, templateId } = ids;
  await query(
    `insert into contents (id, media_id, workspace_id, status_id, template_id, canonical_url, canonical_domain,
       is_archived, show_publication_datetime, is_advertising, is_sponsored, published_at, inserted_at, updated_at)
     select ${uuidv7('ts', 'r', 'n')}, $1::uuid, $2::uuid, $3::uuid, $4::uuid, 'https://news.example.test/a/' || n, 'news.example.test',
            false, true, false, false, ts, ts, ts
     from (select n, md5(random()::text || n::text) as r,
                  date_trunc('milliseconds', now()) - interval '2 hours' + n * interval '1 millisecond' as ts
           from generate_series(1, $5::int) as n) raw`,
    [mediaId, workspaceId, statusId, templateId, count],
  );
  await query(
    `with c as (select id, row_number() over (order by inserted_at) as seq from contents where media_id = $1::uuid),
          cat as (select id, row_number() over (order by inserted_at) - 1 as k from (select id, inserted_at from categories where media_id = $1::uuid order by inserted_at limit 50) x)
     insert into content_categories (id, content_id, category_id, position)
     select gen_random_uuid(), c.id, cat.id, p.position
     from c cross join (values (0), (1)) as p(position)
     join cat on cat.k = (c.seq + p.position * 25) % 50
     where p.position = 0 or c.seq % 2 = 0`,
    [mediaId],
  );
  await query(
    `with c as (select id, inserted_at, row_number() over (order by inserted_at) as seq from contents where media_id = $1::uuid)
     insert into content_locales (id, content_id, media_id, locale, title_html, title_text, lead_html, lead_text, visual_id, visual_type,
       search_config, inserted_at, updated_at)
     select gen_random_uuid(), c.id, $1::uuid, l.locale, '<p>' || t.title || '</p>', t.title, '<p>' || t.lead || '</p>', t.lead,
            gen_random_uuid(), 'none', l.config, c.inserted_at, c.inserted_at
     from c
     cross join (values ('en', 'english', ${sqlArray(EN)}, '${COMMON_WORD}'), ('fr', 'french', ${sqlArray(FR)}, 'économie'))
       as l(locale, config, vocabulary, common)
     cross join lateral (select
       initcap(${words('l.vocabulary', "c.seq::text || l.locale || 't'", 5)}) || case when c.seq % ${COMMON_EVERY} = 0 then ' ' || l.common else '' end as title,
       ${words('l.vocabulary', "c.seq::text || l.locale || 'l'", 16)} as lead) t`,
    [mediaId],
  );
  await query(
    `insert into content_blocks (id, locale_id, locale, kind, position, fields, search_text, inserted_at, updated_at)
     select gen_random_uuid(), cl.id, cl.locale, 'richtext', b.k, jsonb_build_object('content_html', '<p>' || t.body || '</p>', 'content_text', t.body),
            t.body, cl.inserted_at, cl.inserted_at
     from content_locales cl join contents c on c.id = cl.content_id and c.media_id = $1::uuid
     cross join generate_series(0, 4) as b(k)
     cross join lateral (select ${words(`case cl.locale when 'en' then ${sqlArray(EN)} else ${sqlArray(FR)} end`, "cl.id::text || b.k", 40)} as body) t`,
    [mediaId],
  );
  // The document refreshSearch writes: title A, subtitle and lead B, the blocks' text C.
  await query(
    `update content_locales cl set search =
       setweight(to_tsvector(cl.search_config::regconfig, coalesce(cl.title_text, '')), 'A')
       || setweight(to_tsvector(cl.search_config::regconfig, coalesce(concat_ws(' ', cl.subtitle_text, cl.lead_text), '')), 'B')
       || setweight(to_tsvector(cl.search_config::regconfig, coalesce(b.body, '')), 'C')
     from (select locale_id, string_agg(search_text, ' ' order by position) as body from content_blocks group by locale_id) b,
          contents c
     where b.locale_id = cl.id and c.id = cl.content_id and c.media_id = $1::uuid`,
    [mediaId],
  );
  for (const table of ['contents', 'content_categories', 'content_locales', 'content_blocks']) await query(`vacuum analyze ${table}`);
}

type Row = Record<string, unknown>;
interface LocaleJson {
  id: string;
  locale: string;
  location: string | null;
  titleHtml: string;
  titleText: string;
  subtitleHtml: string | null;
  subtitleText: string | null;
  leadHtml: string | null;
  leadText: string | null;
  seoTitle: string | null;
  seoDescription: string | null;
  visualId: string;
  visualType: string;
  authors: Array<{ profileId: string }>;
  blocks?: Array<{ id: string; kind: string; position: number; fields: { content_html: string; content_text: string } }>;
}

// The Reader's wire shapes, written out by hand for the seeded data (no visual, richtext blocks).
export const readerContent = (r: Row, blocks: boolean) => {
  const locales = r.locales as LocaleJson[];
  const e = locales.find((l) => l.locale === 'en') ?? locales[0]!;
  const item = {
    id: r.id,
    template_id: r.templateId,
    canonical_url: r.canonicalUrl,
    canonical_domain: r.canonicalDomain,
    show_publication_datetime: r.showPublicationDatetime,
    is_advertising: r.isAdvertising,
    is_sponsored: r.isSponsored,
    category_ids: (r.categories as Array<{ categoryId: string }>).map((c) => c.categoryId),
    published_at: r.publishedAt,
    released_at: r.releasedAt,
    released_at_timezone: r.releasedAtTimezone,
    updated_at: r.updatedAt,
    locale: e.locale,
    location: e.location,
    title_html: e.titleHtml,
    title_text: e.titleText,
    subtitle_html: e.subtitleHtml,
    subtitle_text: e.subtitleText,
    lead_html: e.leadHtml,
    lead_text: e.leadText,
    seo: { title: e.seoTitle, description: e.seoDescription },
    visual: { id: e.visualId, type: e.visualType, image: null, video: null, slideshow: null },
    author_ids: e.authors.map((a) => a.profileId),
    meta: { locales: { current: e.locale, available: locales.map((l) => l.locale) } },
  };
  if (!blocks) return item;
  return {
    ...item,
    blocks: (e.blocks ?? []).map((b) => ({ id: b.id, kind: b.kind, position: b.position, content_html: b.fields.content_html, content_text: b.fields.content_text })),
  };
};

interface CategoryLocale {
  locale: string;
  name: string;
  description: string | null;
}
export const categorySummary = (r: Row) => {
  const locales = r.locales as CategoryLocale[];
  const e = locales.find((l) => l.locale === 'en') ?? locales[0];
  return {
    id: r.id,
    name: e?.name ?? null,
    description: e?.description ?? null,
    svg_icon: r.svgIcon,
    meta: { locales: { current: e?.locale ?? null, available: locales.map((l) => l.locale) } },
    updated_at: r.updatedAt,
  };
};
export const templateSummary = (r: Row) => ({ id: r.id, content_type_id: r.contentTypeId, key: r.key, name: r.name, updated_at: r.updatedAt });

const cursor = (r: Row) => Buffer.from(JSON.stringify([r.publishedAt, r.id])).toString('base64url');

/** The three statements of a Reader page: the page, then the categories and templates it names. */
function pageStatements(captured: CapturedQuery[]) {
  const find = (pattern: RegExp) => {
    const found = captured.filter((q) => /^select\b/i.test(q.text) && pattern.test(q.text));
    if (found.length !== 1) throw new Error(`expected one statement matching ${pattern}, captured: ${captured.map((q) => q.text.slice(0, 60)).join(' | ')}`);
    return found[0]!;
  };
  if (captured.length !== 3) throw new Error(`a Reader page ran ${captured.length} statements, not 3`);
  return { page: find(/from "contents"/), categories: find(/from "categories"/), templates: find(/from "templates"/) };
}

export interface ContentsBench {
  plan: (base: Omit<LoadScenario, 'url' | 'paths' | 'headers' | 'method'>) => Array<{ name: string; floor?: string; scenario: LoadScenario }>;
  report: (rows: MeasuredRow[]) => void;
  close: () => Promise<void>;
  seedSeconds: number;
}

/**
 * Seeds the contents, checks them through the Reader, captures the app's statements for the
 * pages and the by-id read, and starts the floor that replays them.
 */
export async function prepareContentsBench(options: {
  app: App;
  query: RawQuery;
  driver: object;
  mediaId: string;
  workspaceId: string;
  appUrl: string;
  bearer: Record<string, string>;
  host: string;
}): Promise<ContentsBench> {
  const { app, query, mediaId, appUrl, bearer } = options;
  const ctx = systemContext(app.db, mediaId);
  const docs = app.services.docs;
  const type = await docs.contentTypes.create(ctx, { key: 'article', name: 'Article' });
  const template = await docs.templates.create(ctx, {
    content_type_id: type.id,
    key: 'standard',
    name: 'Standard',
    block_kinds: ['richtext'],
    metadata_keys: [],
  });
  const [status] = await query(`select id from statuses where media_id = $1::uuid and key = 'published'`, [mediaId]);
  const started = Date.now();
  await seedContents(query, { mediaId, workspaceId: options.workspaceId, statusId: status!.id as string, templateId: template.id });
  const seedSeconds = (Date.now() - started) / 1000;

  const get = async <T>(path: string): Promise<T> => {
    const res = await fetch(appUrl + path, { headers: bearer });
    if (!res.ok) throw new Error(`GET ${path} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
    return (await res.json()) as T;
  };
  type ListBody = { data: Array<{ id: string; locale: string }>; assocs: unknown; meta: { next: string | null } };
  const first = await get<ListBody>('/api/media/v1/contents?limit=20');
  if (first.data.length !== 20) throw new Error('the Reader does not list 20 seeded contents');

  // The deep page: follow meta.next until DEEP_ROWS rows lie behind.
  let path = '/api/media/v1/contents?limit=100';
  for (let seen = 0; seen < DEEP_ROWS; ) {
    const page = await get<ListBody>(path);
    seen += page.data.length;
    path = new URL(page.meta.next!).pathname + new URL(page.meta.next!).search;
  }
  const deepUrl = new URL(path, appUrl);
  deepUrl.searchParams.set('limit', '20');
  const deepPath = deepUrl.pathname + deepUrl.search;
  const deepCursor = deepUrl.searchParams.get('after')!;
  const ids = (await query('select id from contents where media_id = $1::uuid order by md5(id::text) limit $2', [mediaId, BY_ID_SAMPLE])).map(
    (r) => r.id as string,
  );

  // The statements the app sends for each read, captured from the services the routes call.
  const contents = docs.contents;
  const view = { locale: undefined, fallback: 'en' } as const;
  const capturePage = async (after?: string) => {
    const pageQuery = { limit: 20, ...(after && { after }), 'category_ids[]': undefined, 'template_ids[]': undefined };
    return pageStatements(
      await captureQueries(options.driver, async () => {
        const page = await contents.listPublished(ctx, pageQuery);
        const categoryIds = [...new Set(page.items.flatMap((r) => r.categories.map((c) => c.categoryId)))];
        await docs.categorySummaries(ctx.db, mediaId, categoryIds, { ...view, collect: {} } as never);
        await docs.templates.summaries(ctx.db, mediaId, [...new Set(page.items.map((r) => r.templateId))]);
      }),
    );
  };
  const firstPage = await capturePage();
  const deepPage = await capturePage(deepCursor);
  const byIdCaptured = await captureQueries(options.driver, () => contents.getPublished(ctx, ids[0]!));
  if (byIdCaptured.length !== 1) throw new Error(`a content by id ran ${byIdCaptured.length} statements, not 1`);
  const byId = byIdCaptured[0]!;
  const idIndex = byId.values.indexOf(ids[0]!);
  if (idIndex < 0) throw new Error('the by-id statement does not carry the id as a parameter');

  const run = (q: CapturedQuery) => query(q.text, q.values, q.name);
  const floor: FastifyInstance = Fastify({ logger: false });
  const listing = async (statements: ReturnType<typeof pageStatements>, base: string, backward: boolean) => {
    const [rows, categories, templates] = await Promise.all([run(statements.page), run(statements.categories), run(statements.templates)]);
    const items = rows.slice(0, 20);
    const last = items[items.length - 1];
    return {
      data: items.map((r) => readerContent(r, false)),
      assocs: { categories: categories.map(categorySummary), templates: templates.map(templateSummary) },
      meta: {
        base,
        next: rows.length > 20 && last ? `${base}&after=${cursor(last)}` : null,
        previous: backward && items[0] ? `${base}&before=${cursor(items[0])}` : null,
        locales: { current: 'en', available: ['en', 'fr'] },
      },
    };
  };
  floor.get('/contents', () => listing(firstPage, 'http://127.0.0.1/api/media/v1/contents?limit=20', false));
  floor.get('/deep', () => listing(deepPage, 'http://127.0.0.1/api/media/v1/contents?limit=20', true));
  floor.get<{ Params: { id: string } }>('/contents/:id', async (req, reply) => {
    const values = [...byId.values];
    values[idIndex] = req.params.id;
    const [row] = await query(byId.text, values, byId.name);
    if (!row) return reply.status(404).send({ error: 'not found' });
    return { data: readerContent(row, true) };
  });
  await floor.listen({ host: options.host, port: 0 });
  const address = floor.server.address();
  const floorUrl = `http://${options.host}:${typeof address === 'object' && address ? address.port : 0}`;

  // The floor answers the same JSON as the app (data and assocs): checked, not assumed.
  for (const [floorPath, appPath] of [
    ['/contents', '/api/media/v1/contents?limit=20'],
    ['/deep', deepPath],
    [`/contents/${ids[0]}`, `/api/media/v1/contents/${ids[0]}`],
  ] as const) {
    const fromFloor = (await (await fetch(floorUrl + floorPath)).json()) as { data: unknown; assocs?: unknown };
    const fromApp = await get<{ data: unknown; assocs?: unknown }>(appPath);
    for (const part of ['data', 'assocs'] as const) {
      expectSameJson(`the contents floor's ${floorPath} does not answer the app's ${part} for ${appPath}`, fromFloor[part], fromApp[part]);
    }
  }
  const found = await get<ListBody>(`/api/media/v1/contents/search?q=${COMMON_WORD}&limit=20`);
  if (found.data.length !== 20) throw new Error(`the search for ${COMMON_WORD} found ${found.data.length} contents on its first page`);

  return {
    seedSeconds,
    plan: (base) => {
      const at = (url: string, paths: string[], headers: Record<string, string> = {}): LoadScenario => ({ ...base, url, method: 'GET', headers, paths });
      return [
        { name: FLOOR_LIST, scenario: at(floorUrl, ['/contents']) },
        { name: LIST, floor: FLOOR_LIST, scenario: at(appUrl, ['/api/media/v1/contents?limit=20'], bearer) },
        { name: FLOOR_DEEP, scenario: at(floorUrl, ['/deep']) },
        { name: DEEP, floor: FLOOR_DEEP, scenario: at(appUrl, [deepPath], bearer) },
        { name: FLOOR_BY_ID, scenario: at(floorUrl, ids.map((id) => `/contents/${id}`)) },
        { name: BY_ID, floor: FLOOR_BY_ID, scenario: at(appUrl, ids.map((id) => `/api/media/v1/contents/${id}`), bearer) },
        { name: FLOOR_AT_SEARCH_CONNECTIONS, scenario: { ...at(floorUrl, ['/contents']), connections: SEARCH_CONNECTIONS } },
        {
          name: SEARCH,
          // Ranked hits take a good part of a second at 20 connections on a slow machine: turns counted in requests.
          scenario: { ...at(appUrl, [`/api/media/v1/contents/search?q=${COMMON_WORD}&limit=20`], bearer), connections: SEARCH_CONNECTIONS, perTurn: SEARCH_CONNECTIONS * 4 },
        },
      ];
    },
    report: (rows) => {
      const byName = new Map(rows.map((r) => [r.name, r]));
      console.log(`\nContents (issue 10): ${CONTENTS.toLocaleString('en-US')} contents x 2 locales x 5 blocks, seeded in ${seedSeconds.toFixed(1)} s`);
      for (const [name, floorName] of [
        [LIST, FLOOR_LIST],
        [DEEP, FLOOR_DEEP],
        [BY_ID, FLOOR_BY_ID],
      ] as const) {
        const row = byName.get(name);
        const f = byName.get(floorName);
        if (!row || !f) continue;
        const clean = row.result.non2xx + row.result.errors + row.result.timeouts === 0;
        const cpu = cpuRatio(row, f);
        const throughput = row.result.requestsPerSecond / f.result.requestsPerSecond;
        console.log(
          `  ${clean && cpu <= TARGET_CPU && throughput >= TARGET_THROUGHPUT ? 'PASS' : 'FAIL'}  ${name}: CPU ${cpu.toFixed(2)} x floor (target <= ${TARGET_CPU} x), ` +
            `throughput ${Math.round(100 * throughput)} % of floor (target >= ${100 * TARGET_THROUGHPUT} %)${clean ? '' : ' (failed requests)'}`,
        );
      }
      const search = byName.get(SEARCH);
      if (search) {
        const clean = search.result.non2xx + search.result.errors + search.result.timeouts === 0;
        console.log(
          `  ${clean && search.result.p99Ms < TARGET_SEARCH_P99_MS ? 'PASS' : 'FAIL'}  ${SEARCH}: p99 ${search.result.p99Ms} ms ` +
            `(target < ${TARGET_SEARCH_P99_MS} ms), ${Math.round(search.result.requestsPerSecond)} req/s, CPU ${Math.round(search.cpuUsPerRequest)} us/req`,
        );
        // What the machine allows: the same 20 contents of a plain first page, without any matching
        // or ranking, served by the floor (bare Fastify and pg) at the same connections.
        const bound = byName.get(FLOOR_AT_SEARCH_CONNECTIONS);
        if (bound) {
          console.log(
            `        ${FLOOR_AT_SEARCH_CONNECTIONS}: p99 ${bound.result.p99Ms} ms, ${Math.round(bound.result.requestsPerSecond)} req/s, ` +
              `CPU ${Math.round(bound.cpuUsPerRequest)} us/req${bound.result.p99Ms >= TARGET_SEARCH_P99_MS ? ' (at or above the target without any search)' : ''}`,
          );
        }
      }
    },
    close: () => floor.close(),
  };
}
