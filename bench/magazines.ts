/**
 * The magazines part of `npm run bench` (issue 12): the contents of a section of an issue of
 * 20 sections x 50 contents, through the Reader (`/api/media/v1/sections/{id}/contents`, with
 * assocs) and the deprecated Public interface (`/api/public/docs/v2/sections/{id}/contents`),
 * each beside a floor that replays the app's own statements on the same connection and answers
 * the same JSON. Seeded with SQL. Target: within 1.35x the floor's CPU per request, at least
 * 75 % of its throughput; one statement per page for the contents themselves.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { App } from '../src/app.js';
import { toPublicSectionContent } from '../src/modules/magazines/index.js';
import { systemContext } from '../src/shared/context.js';
import { categorySummary, readerContent, seedContents, templateSummary } from './contents.js';
import type { RawQuery } from './database.js';
import { type CapturedQuery, captureQueries } from './floor.js';
import type { LoadScenario } from './load.js';
import { type MeasuredRow, cpuRatio, expectSameJson } from './rows.js';

const SECTIONS = 20;
const PER_SECTION = 50;
const PAGE = 20;
const TARGET_CPU = 1.35;
const TARGET_THROUGHPUT = 0.75;

const FLOOR_READER = 'floor: section contents (reader)';
const READER = `section contents, ${SECTIONS} x ${PER_SECTION} (reader)`;
const FLOOR_PUBLIC = 'floor: section contents (public)';
const PUBLIC = `section contents, ${SECTIONS} x ${PER_SECTION} (public)`;
export const MAGAZINES_SCENARIOS = [READER, PUBLIC];

type Row = Record<string, unknown>;

/** An issue type, an issue, its sections and their entries: set-based, over the media's published contents. */
async function seed(query: RawQuery, mediaId: string, workspaceId: string): Promise<string[]> {
  const [type] = await query(`insert into issue_types (id, media_id, key, name) values (gen_random_uuid(), $1, 'bench', 'Bench') returning id`, [mediaId]);
  const [issue] = await query(
    `insert into issues (id, media_id, workspace_id, issue_type_id, kind, color) values (gen_random_uuid(), $1, $2, $3, 'regular', '#112233') returning id`,
    [mediaId, workspaceId, type!.id],
  );
  await query(`insert into issue_locales (id, issue_id, locale, name) values (gen_random_uuid(), $1, 'en', 'Bench issue')`, [issue!.id]);
  const sections = await query(
    `insert into sections (id, media_id, issue_id, key, position)
     select gen_random_uuid(), $1, $2, 'section-' || g, g from generate_series(0, $3::int - 1) g returning id`,
    [mediaId, issue!.id, SECTIONS],
  );
  await query(
    `insert into section_locales (id, section_id, locale, name) select gen_random_uuid(), id, 'en', 'Section ' || key from sections where issue_id = $1`,
    [issue!.id],
  );
  // Each section lists PER_SECTION published contents (distinct within the section), in a shuffled order.
  await query(
    `with c as (select id, row_number() over (order by md5(id::text)) - 1 as k from contents
                where media_id = $1 and deleted_at is null and published_at is not null limit $4::int),
          s as (select id, row_number() over (order by position) - 1 as k from sections where issue_id = $2)
     insert into section_contents (id, media_id, issue_id, section_id, content_id, position)
     select gen_random_uuid(), $1, $2, s.id, c.id, (c.k * 7) % $3::int
     from s join c on c.k / $3::int = s.k`,
    [mediaId, issue!.id, PER_SECTION, SECTIONS * PER_SECTION],
  );
  await query('analyze issues, sections, section_locales, section_contents');
  return sections.map((s) => s.id as string);
}

export interface MagazinesBench {
  plan: (base: Omit<LoadScenario, 'url' | 'paths' | 'headers' | 'method'>) => Array<{ name: string; floor?: string; scenario: LoadScenario }>;
  report: (rows: MeasuredRow[]) => void;
  close: () => Promise<void>;
}

/** Public item (spec 2.16) of a seeded content: the hand-written Reader item, reshaped as the route does. */
const publicItem = (r: Row) => toPublicSectionContent(readerContent(r, false) as never);

const cursor = (r: Row) => Buffer.from(JSON.stringify([r.position, r.id])).toString('base64url');

export async function prepareMagazinesBench(options: {
  app: App;
  query: RawQuery;
  driver: object;
  mediaId: string;
  workspaceId: string;
  appUrl: string;
  bearer: Record<string, string>;
  host: string;
}): Promise<MagazinesBench> {
  const { app, query, mediaId, appUrl, bearer } = options;
  const ctx = systemContext(app.db, mediaId);
  const [{ n }] = (await query(`select count(*)::int as n from contents where media_id = $1 and published_at is not null`, [mediaId])) as [{ n: number }];
  if (n < SECTIONS * PER_SECTION) {
    // Without the contents scenarios' 50,000, a thousand of the same contents.
    const docs = app.services.docs;
    const type = await docs.contentTypes.create(ctx, { key: 'magazine-article', name: 'Article' });
    const template = await docs.templates.create(ctx, { content_type_id: type.id, key: 'magazine', name: 'Magazine', block_kinds: ['richtext'], metadata_keys: [] });
    const [status] = await query(`select id from statuses where media_id = $1::uuid and key = 'published'`, [mediaId]);
    await seedContents(query, { mediaId, workspaceId: options.workspaceId, statusId: status!.id as string, templateId: template.id }, SECTIONS * PER_SECTION);
  }
  const sectionIds = await seed(query, mediaId, options.workspaceId);
  const sample = sectionIds[0]!;

  // The statements each interface sends for a page, captured from the services its route calls.
  const { issues } = app.services.magazines;
  const docs = app.services.docs;
  const view = { locale: undefined, fallback: 'en', collect: {} } as never;
  const readerCaptured = await captureQueries(options.driver, async () => {
    const page = await issues.publishedSectionContents(ctx, sample, { limit: PAGE });
    await docs.categorySummaries(ctx.db, mediaId, [...new Set(page.items.flatMap((r) => r.categories.map((c) => c.categoryId)))], view);
    await docs.templates.summaries(ctx.db, mediaId, [...new Set(page.items.map((r) => r.templateId))]);
  });
  // The Public tree finds the section's media (sectionMediaOf), then the route pages its contents.
  const publicCaptured = await captureQueries(options.driver, async () => {
    await issues.sectionMediaOf(sample);
    await issues.publicSectionContents(ctx, sample, { limit: PAGE });
  });
  const pages = [...readerCaptured, ...publicCaptured].filter((q) => /"listed"|as listed/i.test(q.text));
  if (pages.length !== 2) throw new Error(`expected one page statement per interface, captured: ${readerCaptured.map((q) => q.text.slice(0, 60)).join(' | ')}`);
  if (readerCaptured.length !== 4 || publicCaptured.length !== 2) {
    throw new Error(`a Reader page ran ${readerCaptured.length} statements (4 expected), a Public one ${publicCaptured.length} (2 expected)`);
  }
  const [readerSection, readerPage, categories, templates] = readerCaptured as [CapturedQuery, CapturedQuery, CapturedQuery, CapturedQuery];

  /** A captured statement for another section (and the assoc ids of its page). */
  const replay = (q: CapturedQuery, sectionId: string, ids?: string[]) =>
    query(
      q.text,
      q.values.map((v) => (v === sample ? sectionId : Array.isArray(v) && ids ? ids : v)),
      q.name,
    );

  const floor: FastifyInstance = Fastify({ logger: false });
  floor.get<{ Params: { id: string } }>('/reader/:id', async (req) => {
    const base = `http://127.0.0.1/api/media/v1/sections/${req.params.id}/contents?limit=${PAGE}`;
    await replay(readerSection, req.params.id);
    const rows = await replay(readerPage, req.params.id);
    const items = rows.slice(0, PAGE);
    const [cats, tpls] = await Promise.all([
      replay(categories, req.params.id, [...new Set(items.flatMap((r) => (r.categories as Array<{ categoryId: string }>).map((c) => c.categoryId)))]),
      replay(templates, req.params.id, [...new Set(items.map((r) => r.templateId as string))]),
    ]);
    const last = items[items.length - 1];
    return {
      data: items.map((r) => readerContent(r, false)),
      assocs: { categories: cats.map(categorySummary), templates: tpls.map(templateSummary) },
      meta: { base, next: rows.length > PAGE && last ? `${base}&after=${cursor(last)}` : null, previous: null, locales: { current: 'en', available: ['en', 'fr'] } },
    };
  });
  floor.get<{ Params: { id: string } }>('/public/:id', async (req) => {
    const base = `/api/public/docs/v2/sections/${req.params.id}/contents?limit=${PAGE}`;
    await replay(publicCaptured[0]!, req.params.id);
    const rows = await replay(publicCaptured[1]!, req.params.id);
    const items = rows.slice(0, PAGE);
    const last = items[items.length - 1];
    return { meta: { base, next: rows.length > PAGE && last ? `${base}&after=${cursor(last)}` : null, previous: null }, data: items.map(publicItem), assocs: {} };
  });
  await floor.listen({ host: options.host, port: 0 });
  const address = floor.server.address();
  const floorUrl = `http://${options.host}:${typeof address === 'object' && address ? address.port : 0}`;

  // The floor answers the same JSON as the app (data and assocs), for two sections: checked, not assumed.
  for (const id of [sample, sectionIds[SECTIONS - 1]!]) {
    for (const [floorPath, appPath, headers] of [
      [`/reader/${id}`, `/api/media/v1/sections/${id}/contents?limit=${PAGE}`, bearer],
      [`/public/${id}`, `/api/public/docs/v2/sections/${id}/contents?limit=${PAGE}`, {}],
    ] as const) {
      const fromFloor = (await (await fetch(floorUrl + floorPath)).json()) as { data: unknown[]; assocs: unknown };
      const res = await fetch(appUrl + appPath, { headers });
      if (!res.ok) throw new Error(`GET ${appPath} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
      const fromApp = (await res.json()) as { data: unknown[]; assocs: unknown };
      if (fromApp.data.length !== PAGE) throw new Error(`${appPath} served ${fromApp.data.length} contents, not ${PAGE}`);
      for (const part of ['data', 'assocs'] as const) {
        expectSameJson(`the magazines floor's ${floorPath} does not answer the app's ${part}`, fromFloor[part], fromApp[part]);
      }
    }
  }

  return {
    plan: (base) => {
      const at = (url: string, paths: string[], headers: Record<string, string> = {}): LoadScenario => ({ ...base, url, method: 'GET', headers, paths });
      return [
        { name: FLOOR_READER, scenario: at(floorUrl, sectionIds.map((id) => `/reader/${id}`)) },
        { name: READER, floor: FLOOR_READER, scenario: at(appUrl, sectionIds.map((id) => `/api/media/v1/sections/${id}/contents?limit=${PAGE}`), bearer) },
        { name: FLOOR_PUBLIC, scenario: at(floorUrl, sectionIds.map((id) => `/public/${id}`)) },
        { name: PUBLIC, floor: FLOOR_PUBLIC, scenario: at(appUrl, sectionIds.map((id) => `/api/public/docs/v2/sections/${id}/contents?limit=${PAGE}`)) },
      ];
    },
    report: (rows) => {
      const byName = new Map(rows.map((r) => [r.name, r]));
      console.log(`\nMagazines (issue 12): an issue of ${SECTIONS} sections x ${PER_SECTION} contents, pages of ${PAGE}`);
      for (const [name, floorName] of [
        [READER, FLOOR_READER],
        [PUBLIC, FLOOR_PUBLIC],
      ] as const) {
        const row = byName.get(name);
        const f = byName.get(floorName);
        if (!row || !f) continue;
        const clean = row.result.non2xx + row.result.errors + row.result.timeouts === 0;
        const cpu = cpuRatio(row, f);
        const throughput = row.result.requestsPerSecond / f.result.requestsPerSecond;
        console.log(
          `  ${clean && cpu <= TARGET_CPU && throughput >= TARGET_THROUGHPUT ? 'PASS' : 'FAIL'}  ${name}: CPU ${Math.round(row.cpuUsPerRequest)} us/req = ${cpu.toFixed(2)} x floor (target <= ${TARGET_CPU} x), ` +
            `throughput ${Math.round(100 * throughput)} % of floor (target >= ${100 * TARGET_THROUGHPUT} %)${clean ? '' : ' (failed requests)'}`,
        );
      }
    },
    close: () => floor.close(),
  };
}
