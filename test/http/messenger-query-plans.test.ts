import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../setup/app.js';
import { createContent, docsFixture } from '../setup/docs.js';
import { type SeededMedia, client, seedMedia } from '../setup/factories.js';
import { type CapturedStatement, type PlanNode, captureStatements, nodes, onPostgres } from '../setup/plans.js';

describe.skipIf(!onPostgres)('the messenger queries walk their indexes', () => {
  let ctx: TestContext;
  let media: SeededMedia;
  let listId: string;
  const captured: CapturedStatement[] = [];

  beforeAll(async () => {
    ctx = await createTestApp({}, {}, { fresh: true });
    media = await seedMedia(ctx.app);
    const api = client(ctx.app, media.keys.messenger);
    listId = (await api.post('/messenger/v2/mailing-lists', { locales: [{ locale: 'en', name: 'Big' }] })).json().data.id;
    const other = (await api.post('/messenger/v2/mailing-lists', { locales: [{ locale: 'en', name: 'Other' }] })).json().data.id;
    const pool = ctx.database.pool!;
    // 20,000 addresses over two lists, a tenth of them unsubscribed; 20,000 messages already sent.
    for (const id of [listId, other]) {
      await pool.query(
        `insert into subscriptions (id, media_id, mailing_list_id, email, status, inserted_at, updated_at)
         select gen_random_uuid(), $1, $2::uuid, 'a' || n || '@' || $2::text || '.example', case when n % 10 = 0 then 'unsubscribed' else 'subscribed' end,
                now() - n * interval '1 second', now()
         from generate_series(1, 10000) n`,
        [media.mediaId, id],
      );
    }
    await pool.query(
      `insert into outbox_messages (id, media_id, kind, recipients, subject, html, text, state, inserted_at, updated_at, sent_at)
       select gen_random_uuid(), $1, 'mailer', array['x' || n || '@example.com'], 's', 'h', 't', 'sent', now() - n * interval '1 second', now(), now()
       from generate_series(1, 20000) n`,
      [media.mediaId],
    );
    for (const table of ['subscriptions', 'outbox_messages']) await pool.query(`analyze ${table}`);

    captureStatements(pool, /"subscriptions"|"outbox_messages"/, captured);
  }, 120_000);
  afterAll(() => ctx?.close());

  const explain = async (text: string, values: unknown[], analyze = true) => {
    const res = await ctx.database.pool!.query(`explain (${analyze ? 'analyze, ' : ''}format json) ${text}`, values);
    return nodes((res.rows[0] as { 'QUERY PLAN': Array<{ Plan: PlanNode }> })['QUERY PLAN'][0]!.Plan);
  };
  const scansOf = (plan: PlanNode[], table: string) => plan.filter((n) => n['Relation Name'] === table).map((n) => [n['Node Type'], n['Index Name']]);

  it('a list of subscriptions, all or in one status, walks its own index', async () => {
    const api = client(ctx.app, media.keys.messenger);
    for (const [query, index] of [
      ['', 'subscriptions_list_page_idx'],
      ['&status=unsubscribed', 'subscriptions_list_status_page_idx'],
    ] as const) {
      captured.length = 0;
      const first = (await api.get(`/messenger/v2/mailing-lists/${listId}/subscriptions?limit=20${query}`)).json();
      await api.get(first.meta.next);
      const pages = captured.filter((q) => /^select/.test(q.text) && /order by/.test(q.text));
      expect(pages).toHaveLength(2);
      for (const page of pages) expect(scansOf(await explain(page.text, page.values), 'subscriptions'), query).toEqual([['Index Scan', index]]);
    }
  });

  it('the outbox pages by outbox_media_page_idx', async () => {
    captured.length = 0;
    await client(ctx.app, media.keys.messenger).get('/messenger/v2/outbox?limit=20');
    const page = captured.find((q) => /order by/.test(q.text))!;
    expect(scansOf(await explain(page.text, page.values), 'outbox_messages')).toEqual([['Index Scan', 'outbox_media_page_idx']]);
  });

  it('the send run claims by the partial indexes, never scanning the outbox', async () => {
    const editor = client(ctx.app, media.keys.editor);
    const content = await createContent(editor, await docsFixture(editor, media.workspaceId));
    captured.length = 0;
    const sent = await client(ctx.app, media.keys.messenger).post(`/messenger/v2/mailing-lists/${listId}/newsletters`, { content_id: content.id });
    expect(sent.json().data.recipients.total).toBe(9000);
    const deadline = Date.now() + 60_000;
    while (!captured.some((q) => /with due as/.test(q.text)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const claim = captured.find((q) => /with due as/.test(q.text))!;
    // Without analyze: explaining the claim must not run it.
    const scans = scansOf(await explain(claim.text, claim.values, false), 'outbox_messages');
    expect(scans.some(([type]) => type === 'Seq Scan')).toBe(false);
    expect(scans.map(([, index]) => index)).toEqual(expect.arrayContaining(['outbox_due_idx', 'outbox_leased_idx']));
  });
});
