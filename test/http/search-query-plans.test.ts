import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_CANDIDATES } from '../../src/shared/search.js';
import { type TestContext, createTestApp } from '../setup/app.js';
import { type DocsFixture, createContent, docsFixture } from '../setup/docs.js';
import { type SeededMedia, client, seedMedia } from '../setup/factories.js';
import { type CapturedStatement, type PlanNode, captureAppStatements, explainPlan, onPostgres } from '../setup/plans.js';
import { clientToken, readerClient, registerClient } from '../setup/reader.js';

/** Contents per media: two media, so that a search shows it reads its own media's entries only. */
const CONTENTS = 30_000;

/**
 * The shapes of a search (issue 51) on both databases: `relevance` ranks a bounded candidate set
 * (each arm at most SEARCH_CANDIDATES entries, walked on the media's newest entries when the word
 * is common, found through the documents' GIN index when it is rare), `newest` walks the Reader's
 * own index; no plan compiles with JIT (PostgreSQL) and no sort spills.
 */
describe('search plans: top-k candidates, the recency walk, no JIT and no spill', () => {
  let ctx: TestContext;
  let media: SeededMedia;
  let fx: DocsFixture;
  let reader: ReturnType<typeof readerClient>;
  const captured: CapturedStatement[] = [];

  beforeAll(async () => {
    ctx = await createTestApp({}, {}, { fresh: true });
    media = await seedMedia(ctx.app);
    const api = client(ctx.app, media.keys.editor);
    fx = await docsFixture(api, media.workspaceId);
    await createContent(api, fx, { locales: [{ locale: 'en', title_html: 'The economy grows' }] });
    const other = await seedMedia(ctx.app);
    const otherFx = await docsFixture(client(ctx.app, other.keys.editor), other.workspaceId);
    const db = ctx.database;
    const run = async (text: string, values: unknown[] = []) => {
      if (db.pool) await db.pool.query(text, values);
      else await (db.db as unknown as { $client: { query(t: string, v: unknown[]): Promise<unknown> } }).$client.query(text, values);
    };
    for (const [m, f] of [
      [media.mediaId, fx],
      [other.mediaId, otherFx],
    ] as const) {
      await run(
        `insert into contents (id, media_id, workspace_id, status_id, template_id, published_at, inserted_at, updated_at)
         select gen_random_uuid(), $1, $2, $3, $4, now() - n * interval '1 minute', now() - n * interval '1 second', now()
         from generate_series(1, ${CONTENTS}) n`,
        [m, f.workspaceId, f.statuses.published, f.templateId],
      );
    }
    // Every title says "weather" (a common word); one in 300 says "economy" (a rare one).
    await run(
      `insert into content_locales (id, content_id, media_id, locale, title_html, title_text, visual_id, search_config, search, inserted_at)
       select gen_random_uuid(), c.id, c.media_id, 'en', 'Story ' || n, t.title, gen_random_uuid(), 'english', to_tsvector('english', t.title), c.inserted_at
       from (select id, media_id, inserted_at, row_number() over () as n from contents c where not exists (select 1 from content_locales l where l.content_id = c.id)) c
       cross join lateral (select 'Story ' || n || ' weather' || case when n % 300 = 0 then ' economy' else '' end as title) t`,
    );
    for (const table of ['contents', 'content_locales', 'content_categories', 'content_blocks', 'statuses']) await run(`analyze ${table}`);
    const token = (await clientToken(ctx.app, await registerClient(ctx.app, media.keys.admin, ['media:read']))).access_token;
    reader = readerClient(ctx.app, media.mediaId, token);
    captureAppStatements(db, /"contents"/, captured);
  }, 300_000);
  afterAll(() => ctx?.close());

  /** The plan of the page statement a search sends, checked for JIT and spills. */
  const searchPlan = async (path: string, rows: number) => {
    captured.length = 0;
    const res = await reader.get(path);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toHaveLength(rows);
    const page = captured.find((q) => /order by/.test(q.text) && /content_locales/.test(q.text));
    expect(page, captured.map((q) => q.text.slice(0, 80)).join('\n')).toBeDefined();
    const plan = await explainPlan(ctx.database, page!.text, page!.values);
    expect(plan.jit, 'JIT compiled').toBe(false);
    expect(plan.spilled, 'a sort spilled to disk').toBe(false);
    const seqScans = plan.nodes.filter((n) => n['Node Type'] === 'Seq Scan' && /^content(s|_locales)$/.test(n['Relation Name'] ?? ''));
    expect(seqScans, JSON.stringify(seqScans.map(({ Plans: _, ...n }) => n))).toEqual([]);
    return plan.nodes;
  };
  /** The indexes a plan reads of a table (plain and bitmap index scans; a bitmap index scan names no relation). */
  const scansOf = (plan: PlanNode[], relation: string) =>
    plan
      .filter((n) => (n['Relation Name'] === relation && /Index/.test(n['Node Type'])) || (n['Node Type'] === 'Bitmap Index Scan' && n['Index Name']?.startsWith(`${relation}_`)))
      .map((n) => n['Index Name']);
  /** The rows each candidate arm kept (its Limit under the ranking). */
  const armLimits = (plan: PlanNode[]) => plan.filter((n) => n['Node Type'] === 'Limit' && n['Actual Rows'] !== undefined && (n.Plans ?? []).some((c) => /Sort|Scan/.test(c['Node Type']) && nodes(c).some((d) => d['Relation Name'] === 'content_locales')));
  const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];

  it('relevance, a common word: the documents arm walks the media\'s newest entries (content_locales_recent_idx) and ranks at most the candidates', async () => {
    const plan = await searchPlan('/api/media/v1/contents/search?q=weather&limit=20', 20);
    expect(scansOf(plan, 'content_locales')).toContain('content_locales_recent_idx');
    for (const limit of armLimits(plan)) expect(limit['Actual Rows']).toBeLessThanOrEqual(SEARCH_CANDIDATES);
    // Each hit's content by primary key, until the page is full.
    expect(scansOf(plan, 'contents')).toEqual(['contents_pkey']);
    expect(plan.find((n) => n['Index Name'] === 'contents_pkey')!['Actual Loops']).toBeLessThanOrEqual(21);
  });

  it('relevance, a rare word: its entries come from the documents\' GIN index led by the media (content_locales_search_idx)', async () => {
    const plan = await searchPlan('/api/media/v1/contents/search?q=economy&limit=5', 5);
    expect(scansOf(plan, 'content_locales')).toContain('content_locales_search_idx');
    expect(scansOf(plan, 'contents')).toEqual(['contents_pkey']);
  });

  it('newest, a common word: walks contents_reader_idx for about a page, each content probed by content_locales_content_idx', async () => {
    const plan = await searchPlan('/api/media/v1/contents/search?q=weather&limit=20&sort=newest', 20);
    const walk = plan.filter((n) => n['Relation Name'] === 'contents' && n['Index Name'] === 'contents_reader_idx');
    expect(walk).toHaveLength(1);
    expect(walk[0]!['Actual Rows']).toBeLessThanOrEqual(25);
    expect(scansOf(plan, 'content_locales')).toContain('content_locales_content_idx');
  });

  it('newest pages are exact: no repeats, no gaps, newest publication first', async () => {
    const seen: string[] = [];
    let path: string | null = '/api/media/v1/contents/search?q=economy&limit=4&sort=newest';
    while (path) {
      const body = (await reader.get(path)).json() as { data: Array<{ id: string; published_at: string }>; meta: { next: string | null } };
      seen.push(...body.data.map((c) => c.id));
      path = body.meta.next ? body.meta.next.replace(/^https?:\/\/[^/]+/, '') : null;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toHaveLength(CONTENTS / 300 + 1);
  });

  it.skipIf(!onPostgres)('pool sessions run without JIT', async () => {
    expect((await ctx.database.pool!.query('show jit')).rows[0].jit).toBe('off');
  });
});
