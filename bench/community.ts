/**
 * The community part of `npm run bench` (issue 11), on PostgreSQL only: 100,000 published people
 * of two locales, searched through the Reader at 20 connections for a common first name, a typo
 * of a surname, and with filters only (a profile type and categories, no text); each beside a
 * floor that replays the app's own statements (the search page and its assocs) on bare Fastify.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { App } from '../src/app.js';
import { systemContext } from '../src/shared/context.js';
import type { RawQuery } from './database.js';
import { type CapturedQuery, captureQueries } from './floor.js';
import type { LoadScenario } from './load.js';
import type { MeasuredRow } from './rows.js';

export const PEOPLE = 100_000;
const CONNECTIONS = 20;
const TARGET_P99_MS = 50;
/** 40 first names: each is carried by one person in 40 (2,500 people, 5,000 language entries). */
const FIRST_NAMES = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances', 'John', 'Margaret', 'Tim', 'Radia', 'Ken',
  'Dennis', 'Linus', 'Guido', 'Bjarne', 'Niklaus', 'Tony', 'Leslie', 'Shafi', 'Silvio', 'Judea', 'Whitfield', 'Martin', 'Vint',
  'Robert', 'Ivan', 'Fran', 'Jean', 'Sophie', 'Hedy', 'Katherine', 'Dorothy', 'Mary', 'Karen', 'Lynn', 'Adele', 'Jeannette', 'Susan', 'Cynthia'];
export const COMMON_NAME = 'Ada';
/** One person in 1,000 is a Lovelace; the typo finds them by trigram similarity. */
export const TYPO = 'Lovelase';

const scenarioNames = {
  common: `people search "${COMMON_NAME}" (${CONNECTIONS} conn.)`,
  typo: `people search typo "${TYPO}" (${CONNECTIONS} conn.)`,
  filters: `people search filters only (${CONNECTIONS} conn.)`,
};
const floorName = (name: string) => `floor: ${name}`;
/** The searches' lower bound on this machine: the floor serving a plain first page of people (no text, no filter) at the same connections. */
const LOWER_BOUND = `people search lower bound: floor's plain first page (${CONNECTIONS} conn.)`;

export const COMMUNITY_SCENARIOS = [...Object.values(scenarioNames), LOWER_BOUND];

const sqlArray = (words: string[]) => `array[${words.map((w) => `'${w}'`).join(',')}]`;

/**
 * Seeds the people set-based: the profile rows (inserted a millisecond apart), one of the
 * media's first 50 categories each, an `en` and an `fr` entry each with its summary, names
 * and search document as the repository's refreshSearch builds them.
 */
export async function seedPeople(query: RawQuery, ids: { mediaId: string; workspaceId: string; statusId: string; profileTypeId: string }, count = PEOPLE) {
  await query(
    `insert into profiles (id, media_id, kind, workspace_id, status_id, profile_type_id, first_name, last_name, canonical_url, canonical_domain,
       inserted_at, updated_at)
     select gen_random_uuid(), $1::uuid, 'person', $2::uuid, $3::uuid, $4::uuid,
            (${sqlArray(FIRST_NAMES)})[1 + n % ${FIRST_NAMES.length}],
            case when n % 1000 = 7 then 'Lovelace' else 'Surname' || n end,
            'https://news.example.test/people/' || n, 'news.example.test', ts, ts
     from (select n, date_trunc('milliseconds', now()) - interval '2 hours' + n * interval '1 millisecond' as ts
           from generate_series(1, $5::int) as n) raw`,
    [ids.mediaId, ids.workspaceId, ids.statusId, ids.profileTypeId, count],
  );
  await query(
    `with p as (select id, row_number() over (order by inserted_at) as seq from profiles where media_id = $1::uuid and kind = 'person'),
          cat as (select id, row_number() over (order by inserted_at) - 1 as k from (select id, inserted_at from categories where media_id = $1::uuid order by inserted_at limit 50) x)
     insert into profile_categories (id, profile_id, category_id, position)
     select gen_random_uuid(), p.id, cat.id, 0 from p join cat on cat.k = p.seq % 50`,
    [ids.mediaId],
  );
  await query(
    `insert into profile_locales (id, profile_id, media_id, locale, summary_html, summary_text, name_text, search_config, search, inserted_at, updated_at)
     select gen_random_uuid(), p.id, p.media_id, l.locale, '<p>' || l.summary || '</p>', l.summary, p.first_name || ' ' || p.last_name, l.config,
            setweight(to_tsvector(l.config::regconfig, p.first_name || ' ' || p.last_name), 'A')
              || setweight(to_tsvector(l.config::regconfig, l.summary), 'B'),
            p.inserted_at, p.inserted_at
     from profiles p cross join (values ('en', 'english', 'Writer and engineer'), ('fr', 'french', 'Écrivain et ingénieur')) as l(locale, config, summary)
     where p.media_id = $1::uuid and p.kind = 'person'`,
    [ids.mediaId],
  );
  for (const table of ['profiles', 'profile_locales', 'profile_categories']) await query(`analyze ${table}`);
}

export interface CommunityBench {
  plan: (base: Omit<LoadScenario, 'url' | 'paths' | 'headers' | 'method'>) => Array<{ name: string; floor?: string; scenario: LoadScenario }>;
  report: (rows: MeasuredRow[]) => void;
  close: () => Promise<void>;
  seedSeconds: number;
  /** EXPLAIN ANALYZE of each search's statement, for the README. */
  plans: Record<string, string>;
}

export async function prepareCommunityBench(options: {
  app: App;
  query: RawQuery;
  driver: object;
  mediaId: string;
  workspaceId: string;
  appUrl: string;
  bearer: Record<string, string>;
  host: string;
}): Promise<CommunityBench> {
  const { app, query, mediaId, appUrl, bearer } = options;
  const ctx = systemContext(app.db, mediaId);
  const type = await app.services.community.profileTypes.create(ctx, { kind: 'person', key: 'bench-person', name: 'Person', has_email: true, metadata: [] });
  const [status] = await query(`select id from statuses where media_id = $1::uuid and key = 'published'`, [mediaId]);
  const started = Date.now();
  await seedPeople(query, { mediaId, workspaceId: options.workspaceId, statusId: status!.id as string, profileTypeId: type.id });
  const seedSeconds = (Date.now() - started) / 1000;
  const [someCategory] = await query(`select category_id from profile_categories pc join profiles p on p.id = pc.profile_id where p.media_id = $1::uuid limit 1`, [mediaId]);

  const paths = {
    common: `/api/media/v1/community/people/search?q=${COMMON_NAME}&limit=20`,
    typo: `/api/media/v1/community/people/search?q=${TYPO}&limit=20`,
    filters: `/api/media/v1/community/people/search?profile_type_ids[]=${type.id}&category_ids[]=${someCategory!.category_id as string}&limit=20`,
  };
  const get = async <T>(path: string): Promise<T> => {
    const res = await fetch(appUrl + path, { headers: bearer });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  for (const [key, path] of Object.entries(paths)) {
    const found = await get<{ data: unknown[] }>(path);
    if (found.data.length !== 20) throw new Error(`the people search ${key} found ${found.data.length} on its first page`);
  }

  // The statements of each search (the page, the categories and the profile types of its assocs), captured from the services.
  const profiles = app.services.community.profiles;
  const media = { locales: ['en', 'fr'] };
  const captureSearch = async (q: string | undefined, filters: Record<string, string[] | undefined>) =>
    captureQueries(options.driver, async () => {
      const page = await profiles.search(ctx, 'people', { limit: 20, q, locale: undefined, ...filters } as never, media.locales);
      const view = { locale: undefined, fallback: 'en', collect: {} } as never;
      await app.services.community.categorySummaries(ctx.db, mediaId, [...new Set(page.items.flatMap((r) => r.categories.map((c) => c.categoryId)))], view);
      await app.services.community.profileTypes.summaries(ctx.db, mediaId, [...new Set(page.items.map((r) => r.profileTypeId))], view, media.locales);
    });
  const statements: Record<keyof typeof paths, CapturedQuery[]> = {
    common: await captureSearch(COMMON_NAME, {}),
    typo: await captureSearch(TYPO, {}),
    filters: await captureSearch(undefined, { 'profile_type_ids[]': [type.id], 'category_ids[]': [someCategory!.category_id as string] }),
  };
  const plain = await captureSearch(undefined, {});

  const plans: Record<string, string> = {};
  for (const [key, captured] of Object.entries(statements)) {
    const page = captured[0]!;
    const rows = await query(`explain (analyze, costs off, timing off, summary on) ${page.text}`, page.values);
    plans[key] = rows.map((r) => r['QUERY PLAN'] as string).join('\n');
  }

  // The floor: the same statements, on bare Fastify and pg, answering their rows as they come.
  const floor: FastifyInstance = Fastify({ logger: false });
  const run = (q: CapturedQuery) => query(q.text, q.values, q.name);
  for (const [key, captured] of [...Object.entries(statements), ['plain', plain] as const]) {
    floor.get(`/${key}`, async () => {
      const [page, ...assocs] = captured;
      const rows = await run(page!);
      const [categories, types] = await Promise.all(assocs.map(run));
      return { data: rows.slice(0, 20), assocs: { categories, profile_types: types } };
    });
  }
  await floor.listen({ host: options.host, port: 0 });
  const address = floor.server.address();
  const floorUrl = `http://${options.host}:${typeof address === 'object' && address ? address.port : 0}`;

  return {
    seedSeconds,
    plans,
    plan: (base) => {
      const at = (url: string, path: string, headers: Record<string, string> = {}): LoadScenario => ({ ...base, url, method: 'GET', headers, paths: [path], connections: CONNECTIONS });
      // The text searches rank thousands of hits (a quarter to a whole second a request at 20
      // connections on a slow machine): their turns are counted in requests, not cut by the clock.
      const counted = (key: keyof typeof paths, scenario: LoadScenario): LoadScenario =>
        key === 'filters' ? scenario : { ...scenario, perTurn: CONNECTIONS * 4 };
      return [
        ...(Object.keys(paths) as Array<keyof typeof paths>).flatMap((key) => [
          { name: floorName(scenarioNames[key]), scenario: counted(key, at(floorUrl, `/${key}`)) },
          { name: scenarioNames[key], floor: floorName(scenarioNames[key]), scenario: counted(key, at(appUrl, paths[key], bearer)) },
        ]),
        { name: LOWER_BOUND, scenario: at(floorUrl, '/plain') },
      ];
    },
    report: (rows) => {
      const byName = new Map(rows.map((r) => [r.name, r]));
      console.log(`\nCommunity (issue 11): ${PEOPLE.toLocaleString('en')} people x 2 locales, seeded in ${seedSeconds.toFixed(1)} s`);
      for (const name of Object.values(scenarioNames)) {
        const row = byName.get(name);
        if (!row) continue;
        const floorRow = byName.get(floorName(name));
        const clean = row.result.non2xx + row.result.errors + row.result.timeouts === 0;
        console.log(
          `  ${clean && row.result.p99Ms < TARGET_P99_MS ? 'PASS' : 'FAIL'}  ${name}: p99 ${row.result.p99Ms} ms (target < ${TARGET_P99_MS} ms), ` +
            `${Math.round(row.result.requestsPerSecond)} req/s, CPU ${Math.round(row.cpuUsPerRequest)} us/req` +
            (floorRow ? `; floor p99 ${floorRow.result.p99Ms} ms, ${Math.round(floorRow.result.requestsPerSecond)} req/s` : ''),
        );
      }
      // What the machine allows: 20 people of a plain first page, without any matching, ranking or
      // filter, served by the floor (bare Fastify and pg, rows as they come) at the same connections.
      const bound = byName.get(LOWER_BOUND);
      if (bound) {
        console.log(
          `        ${LOWER_BOUND}: p99 ${bound.result.p99Ms} ms, ${Math.round(bound.result.requestsPerSecond)} req/s, CPU ${Math.round(bound.cpuUsPerRequest)} us/req` +
            (bound.result.p99Ms >= TARGET_P99_MS ? ' (at or above the target without any search)' : ''),
        );
      }
      if (process.env.BENCH_PLANS) for (const [key, plan] of Object.entries(plans)) console.log(`\n  plan of the ${key} search:\n${plan.replace(/^/gm, '    ')}`);
    },
    close: () => floor.close(),
  };
}
