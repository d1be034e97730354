import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../setup/app.js';
import { createContent, docsFixture } from '../setup/docs.js';
import { type SeededMedia, client, seedMedia } from '../setup/factories.js';
import { createIssue, createIssueType, createSection } from '../setup/magazines.js';
import { clientToken, readerClient, registerClient } from '../setup/reader.js';
import { type CapturedStatement, type PlanNode, captureStatements, nodes, onPostgres } from '../setup/plans.js';

describe.skipIf(!onPostgres)('a section contents page walks the section’s index and reads contents by primary key', () => {
  let ctx: TestContext;
  let media: SeededMedia;
  let reader: ReturnType<typeof readerClient>;
  let sectionId: string;
  const captured: CapturedStatement[] = [];

  beforeAll(async () => {
    ctx = await createTestApp({}, {}, { fresh: true });
    media = await seedMedia(ctx.app);
    const api = client(ctx.app, media.keys.editor);
    const fx = await docsFixture(api, media.workspaceId);
    await createContent(api, fx);
    const issue = await createIssue(api, media.workspaceId, (await createIssueType(api)).id);
    sectionId = (await createSection(api, issue.id)).id;
    const pool = ctx.database.pool!;
    // 10,000 published contents; 20 sections of 500 entries each (this one among them).
    await pool.query(
      `insert into contents (id, media_id, workspace_id, status_id, template_id, published_at, inserted_at, updated_at)
       select gen_random_uuid(), $1, $2, $3, $4, now() - n * interval '1 minute', now(), now() from generate_series(1, 10000) n`,
      [media.mediaId, fx.workspaceId, fx.statuses.published, fx.templateId],
    );
    await pool.query(
      `insert into content_locales (id, content_id, media_id, locale, title_html, title_text, visual_id, search_config)
       select gen_random_uuid(), id, media_id, 'en', 'Story', 'Story', gen_random_uuid(), 'english' from contents c
       where media_id = $1 and not exists (select 1 from content_locales l where l.content_id = c.id)`,
      [media.mediaId],
    );
    await pool.query(
      `insert into sections (id, media_id, issue_id, key, position)
       select gen_random_uuid(), $1, $2, 'bulk-' || g, g from generate_series(1, 19) g`,
      [media.mediaId, issue.id],
    );
    await pool.query(
      `with c as (select id, row_number() over (order by id) - 1 as k from contents where media_id = $1),
            s as (select id, row_number() over (order by position, id) - 1 as k from sections where issue_id = $2)
       insert into section_contents (id, media_id, issue_id, section_id, content_id, position)
       select gen_random_uuid(), $1, $2, s.id, c.id, c.k % 500 from s join c on c.k / 500 = s.k`,
      [media.mediaId, issue.id],
    );
    for (const table of ['contents', 'content_locales', 'sections', 'section_contents']) await pool.query(`analyze ${table}`);
    const token = (await clientToken(ctx.app, await registerClient(ctx.app, media.keys.admin, ['media:read']))).access_token;
    reader = readerClient(ctx.app, media.mediaId, token);
    captureStatements(pool, /as listed/, captured);
  });
  afterAll(() => ctx?.close());

  const explain = async (text: string, values: unknown[]) => {
    const connection = await ctx.database.pool!.connect();
    try {
      const res = await connection.query(`explain (analyze, format json) ${text}`, values);
      return nodes((res.rows[0] as { 'QUERY PLAN': Array<{ Plan: PlanNode }> })['QUERY PLAN'][0]!.Plan);
    } finally {
      connection.release();
    }
  };

  it('first page and a page after a cursor: one statement, about a page of entries, contents by primary key', async () => {
    captured.length = 0;
    const first = (await reader.get(`/api/media/v1/sections/${sectionId}/contents?limit=20`)).json();
    expect(first.data).toHaveLength(20);
    await reader.get(first.meta.next.replace(/^https?:\/\/[^/]+/, ''));
    expect(captured).toHaveLength(2);
    for (const query of captured) {
      const plan = await explain(query.text, query.values);
      const entries = plan.filter((n) => n['Relation Name'] === 'section_contents');
      // The index holds every column the listing reads: an index-only scan when the visibility map allows.
      expect(entries.map((n) => [n['Node Type'].replace('Index Only Scan', 'Index Scan'), n['Index Name']]), query.text).toEqual([
        ['Index Scan', 'section_contents_section_order_idx'],
      ]);
      expect(entries[0]!['Actual Rows']).toBeLessThanOrEqual(21);
      const contents = plan.filter((n) => n['Relation Name'] === 'contents');
      expect(contents.map((n) => [n['Node Type'], n['Index Name']])).toEqual([['Index Scan', 'contents_pkey']]);
      expect(contents[0]!['Actual Loops']).toBeLessThanOrEqual(21);
    }
  });
});
