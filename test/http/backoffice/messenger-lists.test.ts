import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../../../src/shared/context.js';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { withAuditRefused } from '../../setup/audit.js';
import { ISO_MS, UUID, expectError } from '../../setup/expect.js';
import { type Client, type SeededMedia, client, seedMedia } from '../../setup/factories.js';

let ctx: TestContext;
let media: SeededMedia;
let other: SeededMedia;
let api: Client;

beforeAll(async () => {
  ctx = await createTestApp();
  media = await seedMedia(ctx.app);
  other = await seedMedia(ctx.app);
  api = client(ctx.app, media.keys.messenger);
});
afterAll(async () => {
  const { queue } = ctx.app.services.messenger;
  await ctx.close();
  // app.close() stopped the send queue's pg-boss workers and timers with the app.
  expect(queue.started).toBe(false);
});

const createList = async (body: Record<string, unknown> = {}) => {
  const res = await api.post('/messenger/v2/mailing-lists', { locales: [{ locale: 'en', name: 'Morning brief' }], ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: string };
};

describe('/messenger/v2/mailing-lists', () => {
  it('creates a list with its locales and defaults, reads, lists, updates it', async () => {
    const res = await api.post('/messenger/v2/mailing-lists', {
      locales: [
        { locale: 'en', name: 'Morning brief', description: 'Every weekday' },
        { locale: 'fr', name: 'Le matin' },
      ],
      is_public: true,
    });
    expect(res.statusCode).toBe(201);
    const list = res.json().data;
    expect(list).toEqual({
      id: expect.stringMatching(UUID),
      locales: [
        { id: expect.stringMatching(UUID), locale: 'en', name: 'Morning brief', description: 'Every weekday', deleted_at: null },
        { id: expect.stringMatching(UUID), locale: 'fr', name: 'Le matin', description: null, deleted_at: null },
      ],
      is_public: true,
      double_opt_in: true,
      inserted_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
      deleted_at: null,
    });
    expect((await api.get(`/messenger/v2/mailing-lists/${list.id}`)).json().data).toEqual(list);
    const listed = await api.get('/messenger/v2/mailing-lists?limit=100');
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data.find((l: { id: string }) => l.id === list.id)).toEqual(list);
    expect(listed.json().meta).toMatchObject({ base: '/messenger/v2/mailing-lists?limit=100', previous: null });

    const patched = await api.patch(`/messenger/v2/mailing-lists/${list.id}`, { double_opt_in: false, locales: [{ locale: 'en', name: 'Brief' }] });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().data).toMatchObject({ double_opt_in: false, is_public: true, locales: [{ locale: 'en', name: 'Brief', description: null }] });
  });

  it('soft-deletes with its locales and restores exactly them', async () => {
    const list = await createList();
    expect((await api.delete(`/messenger/v2/mailing-lists/${list.id}`)).statusCode).toBe(204);
    expectError(await api.get(`/messenger/v2/mailing-lists/${list.id}`), 404, 'mailing_list_not_found');
    expectError(await api.get(`/messenger/v2/mailing-lists/${list.id}/subscriptions`), 404, 'mailing_list_not_found');
    const restored = await api.post(`/messenger/v2/mailing-lists/${list.id}/restore`);
    expect(restored.statusCode).toBe(200);
    expect(restored.json().data).toMatchObject({ id: list.id, deleted_at: null, locales: [{ locale: 'en', name: 'Morning brief', deleted_at: null }] });
    expect((await api.post(`/messenger/v2/mailing-lists/${list.id}/restore`)).statusCode).toBe(200);
  });

  it('refuses unknown fields, a locale the media lacks, and answers 404 for other media and unknown ids', async () => {
    expectError(await api.post('/messenger/v2/mailing-lists', { locales: [{ locale: 'en', name: 'x' }], colour: 'red' }), 400, 'validation_failed');
    expect((await api.post('/messenger/v2/mailing-lists', { locales: [{ locale: 'de', name: 'x' }] })).statusCode).toBe(400);
    expectError(await api.post('/messenger/v2/mailing-lists', { locales: [] }), 400, 'validation_failed');
    const list = await createList();
    const stranger = client(ctx.app, other.keys.admin);
    expectError(await stranger.get(`/messenger/v2/mailing-lists/${list.id}`), 404, 'mailing_list_not_found');
    expectError(await stranger.patch(`/messenger/v2/mailing-lists/${list.id}`, { is_public: true }), 404, 'mailing_list_not_found');
    expectError(await stranger.delete(`/messenger/v2/mailing-lists/${list.id}`), 404, 'mailing_list_not_found');
    expectError(await api.get(`/messenger/v2/mailing-lists/${randomUUID()}`), 404, 'mailing_list_not_found');
    expect((await api.get('/messenger/v2/mailing-lists/not-a-uuid')).statusCode).toBe(400);
  });

  it('leaves a list as it was when the audit entry of its update cannot be written: one transaction', async () => {
    const list = await createList();
    const before = (await api.get(`/messenger/v2/mailing-lists/${list.id}`)).json().data;
    await withAuditRefused(ctx.database.db, 'updateMailingList', async () => {
      expectError(await api.patch(`/messenger/v2/mailing-lists/${list.id}`, { is_public: true, locales: [{ locale: 'en', name: 'Never stored' }] }), 500, 'internal');
    });
    expect((await api.get(`/messenger/v2/mailing-lists/${list.id}`)).json().data).toEqual(before);
  });

  it('needs messenger:read to read and messenger:write to write', async () => {
    expectError(await client(ctx.app).get('/messenger/v2/mailing-lists'), 401, 'missing_api_key');
    expectError(await client(ctx.app, media.keys.editor).get('/messenger/v2/mailing-lists'), 403, 'forbidden');
    expect((await client(ctx.app, media.keys.viewer).get('/messenger/v2/mailing-lists')).statusCode).toBe(200);
    expectError(await client(ctx.app, media.keys.viewer).post('/messenger/v2/mailing-lists', { locales: [{ locale: 'en', name: 'x' }] }), 403, 'forbidden');
    expect((await client(ctx.app, media.keys.admin).post('/messenger/v2/mailing-lists', { locales: [{ locale: 'en', name: 'x' }] })).statusCode).toBe(201);
  });
});

describe('/messenger/v2/mailing-lists/{id}/subscriptions', () => {
  it('imports 1,000 rows with duplicates, invalid and suppressed addresses, and pages them by status', async () => {
    const list = await createList();
    // Suppressed first: one unsubscribed, one bounced, one complained.
    const seed = await api.post(`/messenger/v2/mailing-lists/${list.id}/subscriptions/bulk`, {
      subscriptions: [
        { email: 'gone@example.com', status: 'unsubscribed' },
        { email: 'bounced@example.com' },
        { email: 'complained@example.com' },
        { email: 'kept@example.com', locale: 'en' },
      ],
    });
    expect(seed.json().data).toEqual({ created: 4, updated: 0, unchanged: 0, refused: 0, refusals: [] });
    await ctx.app.services.messenger.subscriptions.suppress(systemContext(ctx.app.db, media.mediaId), ['bounced@example.com'], 'bounced');
    await ctx.app.services.messenger.subscriptions.suppress(systemContext(ctx.app.db, media.mediaId), ['complained@example.com'], 'complained');

    const rows: Array<{ email: string; locale?: string; status?: string }> = [];
    for (let i = 0; i < 990; i++) rows.push({ email: ` Reader${i}@Example.com ` });
    rows.push({ email: 'reader5@example.com' }); // duplicate of row 5 once normalised
    rows.push({ email: 'READER6@example.com' }); // duplicate
    rows.push({ email: 'not an address' });
    rows.push({ email: 'a@b' });
    rows.push({ email: 'gone@example.com' });
    rows.push({ email: 'bounced@example.com' });
    rows.push({ email: 'complained@example.com', status: 'subscribed' });
    rows.push({ email: 'kept@example.com', locale: 'en' }); // unchanged
    rows.push({ email: 'bounced@example.com', status: 'unsubscribed' }); // duplicate within the request
    rows.push({ email: 'new-fr@example.com', locale: 'fr' });
    expect(rows).toHaveLength(1000);
    const res = await api.post(`/messenger/v2/mailing-lists/${list.id}/subscriptions/bulk`, { subscriptions: rows });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({
      created: 991,
      updated: 0,
      unchanged: 1,
      refused: 8,
      refusals: [
        { index: 990, email: 'reader5@example.com', reason: 'duplicate' },
        { index: 991, email: 'reader6@example.com', reason: 'duplicate' },
        { index: 992, email: 'not an address', reason: 'invalid_email' },
        { index: 993, email: 'a@b', reason: 'invalid_email' },
        { index: 994, email: 'gone@example.com', reason: 'suppressed' },
        { index: 995, email: 'bounced@example.com', reason: 'suppressed' },
        { index: 996, email: 'complained@example.com', reason: 'suppressed' },
        { index: 998, email: 'bounced@example.com', reason: 'duplicate' },
      ],
    });

    // A second import changes a locale and unsubscribes one: updated, the rest unchanged.
    const again = await api.post(`/messenger/v2/mailing-lists/${list.id}/subscriptions/bulk`, {
      subscriptions: [{ email: 'reader1@example.com', locale: 'fr' }, { email: 'reader2@example.com', status: 'unsubscribed' }, { email: 'reader3@example.com' }],
    });
    expect(again.json().data).toMatchObject({ created: 0, updated: 2, unchanged: 1, refused: 0 });

    const page = await api.get(`/messenger/v2/mailing-lists/${list.id}/subscriptions?status=bounced`);
    expect(page.statusCode).toBe(200);
    expect(page.json().data).toEqual([
      {
        id: expect.stringMatching(UUID),
        mailing_list_id: list.id,
        email: 'bounced@example.com',
        locale: null,
        status: 'bounced',
        reader_id: null,
        inserted_at: expect.stringMatching(ISO_MS),
        updated_at: expect.stringMatching(ISO_MS),
        confirmed_at: expect.stringMatching(ISO_MS),
      },
    ]);
    // Every subscribed one, paged by 100 without repeats.
    const seen = new Set<string>();
    let url: string | null = `/messenger/v2/mailing-lists/${list.id}/subscriptions?status=subscribed&limit=100`;
    while (url) {
      const body = (await api.get(url)).json() as { data: Array<{ status: string; email: string }>; meta: { next: string | null } };
      for (const s of body.data) {
        expect(s.status).toBe('subscribed');
        seen.add(s.email);
      }
      url = body.meta.next;
    }
    expect(seen.size).toBe(991); // 989 readers still subscribed (one unsubscribed), kept and new-fr
  });

  it('imports nothing when the audit entry of the import cannot be written: one transaction', async () => {
    const list = await createList();
    await withAuditRefused(ctx.database.db, 'bulkMailingListSubscriptions', async () => {
      const res = await api.post(`/messenger/v2/mailing-lists/${list.id}/subscriptions/bulk`, { subscriptions: [{ email: 'never@example.com' }] });
      expectError(res, 500, 'internal');
    });
    expect((await api.get(`/messenger/v2/mailing-lists/${list.id}/subscriptions`)).json().data).toEqual([]);
  });

  it('refuses more than 1,000 rows, unknown statuses and fields, and another media\'s list', async () => {
    const list = await createList();
    const many = Array.from({ length: 1001 }, (_, i) => ({ email: `x${i}@example.com` }));
    expectError(await api.post(`/messenger/v2/mailing-lists/${list.id}/subscriptions/bulk`, { subscriptions: many }), 400, 'validation_failed');
    expectError(await api.post(`/messenger/v2/mailing-lists/${list.id}/subscriptions/bulk`, { subscriptions: [{ email: 'a@example.com', status: 'bounced' }] }), 400);
    expectError(await api.post(`/messenger/v2/mailing-lists/${list.id}/subscriptions/bulk`, { subscriptions: [{ email: 'a@example.com', reader_id: 'x' }] }), 400);
    const stranger = client(ctx.app, other.keys.admin);
    expectError(await stranger.post(`/messenger/v2/mailing-lists/${list.id}/subscriptions/bulk`, { subscriptions: [{ email: 'a@example.com' }] }), 404, 'mailing_list_not_found');
    expectError(await stranger.get(`/messenger/v2/mailing-lists/${list.id}/subscriptions`), 404, 'mailing_list_not_found');
    expectError(await api.get(`/messenger/v2/mailing-lists/${list.id}/subscriptions?status=gone`), 400, 'validation_failed');
  });
});

describe('newsletters without SMTP_URL', () => {
  it('renders and keeps every message in the outbox as not_sent', async () => {
    const { docsFixture, createContent } = await import('../../setup/docs.js');
    const editor = client(ctx.app, media.keys.editor);
    const fixture = await docsFixture(editor, media.workspaceId);
    const content = await createContent(editor, fixture, { locales: [{ locale: 'en', title_html: 'Quiet <em>news</em>', lead_html: '<p>A lead</p>' }] });
    const list = await createList();
    await api.post(`/messenger/v2/mailing-lists/${list.id}/subscriptions/bulk`, { subscriptions: [{ email: 'one@example.com' }, { email: 'two@example.com' }] });
    const sent = await api.post(`/messenger/v2/mailing-lists/${list.id}/newsletters`, { content_id: content.id });
    expect(sent.statusCode, sent.body).toBe(201);
    const newsletter = sent.json().data;
    expect(newsletter).toMatchObject({ mailing_list_id: list.id, content_id: content.id, locale: 'en', subject: 'Quiet news', recipients: { total: 2 } });
    let done = newsletter;
    for (let i = 0; i < 100 && done.status !== 'done'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      done = (await api.get(`/messenger/v2/newsletters/${newsletter.id}`)).json().data;
    }
    expect(done.recipients).toEqual({ total: 2, queued: 0, sending: 0, sent: 0, delivered: 0, bounced: 0, complained: 0, failed: 0, cancelled: 0, not_sent: 2 });
    const outbox = (await api.get(`/messenger/v2/outbox?newsletter_id=${newsletter.id}`)).json().data;
    expect(outbox).toHaveLength(2);
    expect(outbox.map((m: { to: string[] }) => m.to[0]).sort()).toEqual(['one@example.com', 'two@example.com']);
    const message = (await api.get(`/messenger/v2/outbox/${outbox[0].id}`)).json().data;
    expect(message).toMatchObject({ kind: 'newsletter', newsletter_id: newsletter.id, state: 'not_sent', subject: 'Quiet news', attempts: 1, sent_at: null });
    expect(message.html).toContain('<h1>Quiet <em>news</em></h1>');
    expect(message.text).toContain('A lead');
    expect(message.message_id).toBe(`<${message.id}@localhost>`);
    // The queue started with the first message this app queued (none waited when it became ready).
    expect(ctx.app.services.messenger.queue.started).toBe(true);
  });

  it('queues no message when the audit entry of the send cannot be written: one transaction', async () => {
    const { docsFixture, createContent } = await import('../../setup/docs.js');
    const editor = client(ctx.app, media.keys.editor);
    const content = await createContent(editor, await docsFixture(editor, media.workspaceId), { locales: [{ locale: 'en', title_html: 'Unsent' }] });
    const list = await createList();
    await api.post(`/messenger/v2/mailing-lists/${list.id}/subscriptions/bulk`, { subscriptions: [{ email: 'unsent@example.com' }] });
    await withAuditRefused(ctx.database.db, 'sendNewsletter', async () => {
      expectError(await api.post(`/messenger/v2/mailing-lists/${list.id}/newsletters`, { content_id: content.id }), 500, 'internal');
    });
    expect((await api.get(`/messenger/v2/mailing-lists/${list.id}/newsletters`)).json().data).toEqual([]);
    const queued = (await api.get('/messenger/v2/outbox?limit=100')).json().data as Array<{ to: string[] }>;
    expect(queued.filter((m) => m.to.includes('unsent@example.com'))).toEqual([]);
  });
});
