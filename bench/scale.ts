/**
 * `BENCH_SCALE=1 npm run bench` (PostgreSQL only, issue 51): search at archive scale. Seeds, set-based,
 * a media of 1,000 contents, then a media of 1,000,000 contents (BENCH_SCALE_CONTENTS) and 100,000
 * people (BENCH_SCALE_PEOPLE), each content with an `en` and an `fr` entry of one block, and prints
 * each search's SQL time (median of `explain analyze` runs of the app's own statement, planning
 * included) and latency (p50 on one connection, p99 at 20) beside a plain Reader first page's. The
 * small media's search is measured before and after the large media arrives (tenant isolation).
 * The database is the bench's own and is dropped at the end.
 */
import type { ChildProcess } from 'node:child_process';
import type { App } from '../src/app.js';
import { systemContext } from '../src/shared/context.js';
import { seedPeople } from './community.js';
import type { BenchDatabase, RawQuery } from './database.js';
import { type CapturedQuery, captureQueries } from './floor.js';
import { runLoad } from './processes.js';

const CONTENTS = Number(process.env.BENCH_SCALE_CONTENTS ?? 1_000_000);
const PEOPLE = Number(process.env.BENCH_SCALE_PEOPLE ?? 100_000);
const SMALL = 1_000;
const CONNECTIONS = 20;
const SQL_RUNS = 7;
const SEQUENTIAL_REQUESTS = 40;

/** Title words: one in 50 titles carries `economy` (2 %), one in 10,000 `zeppelin` (rare); 80 % of bodies carry `report`. */
const TITLE_WORD = 'economy';
const BODY_WORD = 'report';
const RARE_WORD = 'zeppelin';
const MISSPELT = 'econmy';

const EN = ['city', 'council', 'vote', 'river', 'school', 'market', 'festival', 'storm', 'team', 'season', 'museum', 'bridge', 'train',
  'harbour', 'budget', 'mayor', 'health', 'winter', 'summer', 'garden', 'theatre', 'energy', 'street', 'police', 'court',
  'library', 'music', 'film', 'election', 'hospital', 'airport', 'forest', 'village', 'coast', 'farm', 'factory', 'union', 'tax', 'park', 'night'];
const FR = ['ville', 'conseil', 'vote', 'rivière', 'école', 'marché', 'festival', 'tempête', 'équipe', 'saison', 'musée', 'pont', 'train',
  'port', 'budget', 'maire', 'santé', 'hiver', 'été', 'jardin', 'théâtre', 'énergie', 'rue', 'police', 'tribunal',
  'bibliothèque', 'musique', 'film', 'élection', 'hôpital', 'aéroport', 'forêt', 'village', 'côte', 'ferme', 'usine', 'syndicat', 'impôt', 'parc', 'nuit'];
const sqlArray = (words: string[]) => `array[${words.map((w) => `'${w}'`).join(',')}]`;
const words = (vocabulary: string, seed: string, count: number) =>
  `array_to_string(array(select (${vocabulary})[1 + abs(hashtext(${seed} || ':' || i)) % 40] from generate_series(1, ${count}) i), ' ')`;

/**
 * `count` published contents of a media, set-based: an `en` and an `fr` entry each with one
 * richtext block, and the entries' documents as refreshSearch builds them (title A, lead B, body C).
 * The search indexes of the entries are dropped during the load and built again after it.
 */
async function seedScaleContents(query: RawQuery, ids: { mediaId: string; workspaceId: string; statusId: string; templateId: string }, count: number) {
  await query(
    `insert into contents (id, media_id, workspace_id, status_id, template_id, published_at, inserted_at, updated_at)
     select gen_random_uuid(), $1::uuid, $2::uuid, $3::uuid, $4::uuid, ts, ts, ts
     from (select date_trunc('milliseconds', now()) - interval '1 day' + n * interval '50 microseconds' as ts from generate_series(1, $5::int) n) raw`,
    [ids.mediaId, ids.workspaceId, ids.statusId, ids.templateId, count],
  );
  const indexes = await query(
    `select indexname, indexdef from pg_indexes where tablename = 'content_locales' and indexname not like '%pkey' and indexname not like '%_uq'`,
  );
  for (const index of indexes) await query(`drop index ${index.indexname as string}`);
  await query(
    `with c as (select id, inserted_at, row_number() over (order by inserted_at) as seq from contents where media_id = $1::uuid)
     insert into content_locales (id, content_id, media_id, locale, title_html, title_text, lead_html, lead_text, visual_id, visual_type,
       search_config, search, inserted_at, updated_at)
     select gen_random_uuid(), c.id, $1::uuid, l.locale, '<p>' || t.title || '</p>', t.title, '<p>' || t.lead || '</p>', t.lead,
            gen_random_uuid(), 'none', l.config,
            setweight(to_tsvector(l.config::regconfig, t.title), 'A') || setweight(to_tsvector(l.config::regconfig, t.lead), 'B')
              || setweight(to_tsvector(l.config::regconfig, t.body), 'C'),
            c.inserted_at, c.inserted_at
     from c
     cross join (values ('en', 'english', ${sqlArray(EN)}), ('fr', 'french', ${sqlArray(FR)})) as l(locale, config, vocabulary)
     cross join lateral (select
       initcap(${words('l.vocabulary', "c.seq::text || l.locale || 't'", 5)})
         || case when c.seq % 50 = 0 then ' ${TITLE_WORD}' else '' end || case when c.seq % 10000 = 7 then ' ${RARE_WORD}' else '' end as title,
       ${words('l.vocabulary', "c.seq::text || l.locale || 'l'", 12)} as lead,
       ${words('l.vocabulary', "c.seq::text || l.locale || 'b'", 30)} || case when c.seq % 5 <> 0 then ' ${BODY_WORD}' else '' end as body) t`,
    [ids.mediaId],
  );
  await query(`set maintenance_work_mem = '512MB'`);
  for (const index of indexes) await query(index.indexdef as string);
  await query(`reset maintenance_work_mem`);
  await query(
    `insert into content_blocks (id, locale_id, locale, kind, position, fields, search_text, inserted_at, updated_at)
     select gen_random_uuid(), cl.id, cl.locale, 'richtext', 0, jsonb_build_object('content_html', '<p>' || cl.lead_text || '</p>', 'content_text', cl.lead_text),
            cl.lead_text, cl.inserted_at, cl.inserted_at
     from content_locales cl where cl.media_id = $1::uuid`,
    [ids.mediaId],
  );
  for (const table of ['contents', 'content_locales', 'content_blocks']) await query(`vacuum analyze ${table}`);
}

interface Measured {
  name: string;
  sqlMs: number;
  nextSqlMs?: number;
  p50Ms: number;
  p99Ms: number;
  rps: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The median time of a statement, planning included, over SQL_RUNS runs of `explain analyze` on the pool's session settings. */
async function sqlTime(bench: BenchDatabase, statement: CapturedQuery): Promise<{ ms: number; jit: boolean; spilled: boolean }> {
  const client = await bench.database.pool!.connect();
  try {
    const times: number[] = [];
    let jit = false;
    let spilled = false;
    for (let i = 0; i < SQL_RUNS; i++) {
      const res = await client.query(`explain (analyze, format json) ${statement.text}`, statement.values);
      const out = (res.rows[0] as { 'QUERY PLAN': Array<{ 'Planning Time': number; 'Execution Time': number; JIT?: unknown }> })['QUERY PLAN'][0]!;
      times.push(out['Planning Time'] + out['Execution Time']);
      jit ||= out.JIT !== undefined;
      spilled ||= /external merge|"Sort Space Type":"Disk"/.test(JSON.stringify(out));
    }
    if (process.env.BENCH_SCALE_PLANS) {
      const res = await client.query(`explain (analyze, buffers) ${statement.text}`, statement.values);
      console.log(res.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n'));
    }
    return { ms: median(times), jit, spilled };
  } finally {
    client.release();
  }
}

/**
 * The scale mode of the bench: returns the lines it printed. `appUrl` serves the app over
 * `bench`'s database; `loader` is the load generator process.
 */
export async function runScaleBench(options: {
  app: App;
  bench: BenchDatabase;
  appUrl: string;
  loader: ChildProcess;
  reader: (mediaId: string) => Promise<Record<string, string>>;
}) {
  const { app, bench, appUrl, loader } = options;
  const query = bench.query;
  const tenancy = app.services.core.tenancy;
  const docs = app.services.docs;

  const newMedia = async (name: string) => {
    const { media, workspace } = await tenancy.createMedia({ name, defaultLocale: 'en', locales: ['en', 'fr'] });
    const ctx = systemContext(app.db, media.id);
    const type = await docs.contentTypes.create(ctx, { key: 'article', name: 'Article' });
    const template = await docs.templates.create(ctx, { content_type_id: type.id as string, key: 'standard', name: 'Standard', block_kinds: ['richtext'], metadata_keys: [] });
    const [status] = await query(`select id from statuses where media_id = $1::uuid and key = 'published'`, [media.id]);
    return { mediaId: media.id, workspaceId: workspace.id, statusId: status!.id as string, templateId: template.id, ctx, headers: await options.reader(media.id) };
  };

  const get = async (headers: Record<string, string>, path: string) => {
    const res = await fetch(appUrl + path, { headers });
    if (!res.ok) throw new Error(`GET ${path} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
    return (await res.json()) as { data: unknown[]; meta: { next: string | null } };
  };

  /** The SQL of a Reader read: the statement the app sends for `path`'s page (the one naming contents or profiles, ordered). */
  const pageStatement = async (headers: Record<string, string>, path: string) => {
    const captured = await captureQueries(bench.driver, () => get(headers, path));
    const page = captured.find((q) => /^select/i.test(q.text) && /order by/i.test(q.text) && /limit/i.test(q.text));
    if (!page) throw new Error(`no page statement captured for ${path}`);
    return page;
  };

  const measure = async (name: string, headers: Record<string, string>, path: string): Promise<Measured & { jit: boolean; spilled: boolean; found: number }> => {
    const first = await get(headers, path);
    const statement = await pageStatement(headers, path);
    const sql = await sqlTime(bench, statement);
    let nextSqlMs: number | undefined;
    if (first.meta.next) {
      const next = new URL(first.meta.next);
      const nextStatement = await pageStatement(headers, next.pathname + next.search);
      nextSqlMs = (await sqlTime(bench, nextStatement)).ms;
    }
    const base = { url: appUrl, method: 'GET' as const, headers, paths: [path], durationSeconds: 0, warmupSeconds: 0 };
    const sequential = await runLoad(loader, { ...base, connections: 1, perTurn: SEQUENTIAL_REQUESTS });
    const loaded = await runLoad(loader, { ...base, connections: CONNECTIONS, perTurn: CONNECTIONS * 5 });
    return {
      name,
      sqlMs: sql.ms,
      ...(nextSqlMs !== undefined && { nextSqlMs }),
      p50Ms: sequential.p50Ms,
      p99Ms: loaded.p99Ms,
      rps: loaded.requestsPerSecond,
      jit: sql.jit,
      spilled: sql.spilled,
      found: first.data.length,
    };
  };

  const lines: string[] = [];
  const print = (line: string) => {
    console.log(line);
    lines.push(line);
  };
  const row = (m: Awaited<ReturnType<typeof measure>>, plain?: Measured) =>
    print(
      `  ${m.name.padEnd(46)} SQL ${m.sqlMs.toFixed(1).padStart(7)} ms${m.nextSqlMs !== undefined ? ` (next ${m.nextSqlMs.toFixed(1)})` : ''}` +
        `${plain ? ` = ${(Math.max(m.sqlMs, m.nextSqlMs ?? 0) / plain.sqlMs).toFixed(1)}x plain` : ''}, p50 ${m.p50Ms} ms, p99 (${CONNECTIONS} conn.) ${m.p99Ms} ms` +
        `${plain ? ` = ${(m.p99Ms / plain.p99Ms).toFixed(1)}x plain` : ''}, ${Math.round(m.rps)} req/s, ${m.found} on page 1${m.jit ? ', JIT!' : ''}${m.spilled ? ', spilled!' : ''}`,
    );

  const contentSearches = (q: string) => [
    [`search "${q}" (relevance)`, `/api/media/v1/contents/search?q=${encodeURIComponent(q)}&limit=20`],
    [`search "${q}" (newest)`, `/api/media/v1/contents/search?q=${encodeURIComponent(q)}&limit=20&sort=newest`],
  ] as const;

  // The small media alone, then beside the large one.
  const small = await newMedia('Scale small media');
  await seedScaleContents(query, small, SMALL);
  const smallPath = `/api/media/v1/contents/search?q=${TITLE_WORD}&limit=20`;
  const smallAlone = await sqlTime(bench, await pageStatement(small.headers, smallPath));

  const large = await newMedia('Scale large media');
  let started = Date.now();
  await seedScaleContents(query, large, CONTENTS);
  print(`\nSearch at scale (issue 51): ${CONTENTS.toLocaleString('en')} contents x 2 locales x 1 block seeded in ${((Date.now() - started) / 1000).toFixed(0)} s`);

  const plain = await measure('Reader contents first page (plain)', large.headers, '/api/media/v1/contents?limit=20');
  row(plain);
  for (const q of [TITLE_WORD, BODY_WORD, MISSPELT, RARE_WORD]) for (const [name, path] of contentSearches(q)) row(await measure(name, large.headers, path), plain);
  const smallBeside = await sqlTime(bench, await pageStatement(small.headers, smallPath));
  print(
    `  a ${SMALL.toLocaleString('en')}-content media's search "${TITLE_WORD}": SQL ${smallAlone.ms.toFixed(2)} ms alone, ` +
      `${smallBeside.ms.toFixed(2)} ms beside the large media (${(smallBeside.ms / smallAlone.ms).toFixed(2)}x)`,
  );

  if (PEOPLE > 0) {
    const ctx = large.ctx;
    const type = await app.services.community.profileTypes.create(ctx, { kind: 'person', key: 'scale-person', name: 'Person', has_email: true, metadata: [] });
    started = Date.now();
    await seedPeople(query, { mediaId: large.mediaId, workspaceId: large.workspaceId, statusId: large.statusId, profileTypeId: type.id }, PEOPLE);
    print(`\n${PEOPLE.toLocaleString('en')} people x 2 locales seeded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    const people = '/api/media/v1/community/people';
    const plainPeople = await measure('Reader people first page (plain)', large.headers, `${people}?limit=20`);
    row(plainPeople);
    for (const q of ['Ada', 'Lovelace', 'Lovelase']) {
      for (const sort of ['relevance', 'newest']) row(await measure(`people search "${q}" (${sort})`, large.headers, `${people}/search?q=${q}&limit=20&sort=${sort}`), plainPeople);
    }
  }
  return lines;
}
