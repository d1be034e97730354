import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { createBlock, createContent, docsFixture } from '../../setup/docs.js';
import { ISO_MS, UUID, expectError } from '../../setup/expect.js';
import { type Client, type SeededMedia, client, seedMedia } from '../../setup/factories.js';
import { type SmtpSink, startSmtpSink } from '../../setup/smtp-sink.js';

let ctx: TestContext;
let sink: SmtpSink;
let media: SeededMedia;
let other: SeededMedia;
let api: Client;
let contentId: string;

beforeAll(async () => {
  sink = await startSmtpSink();
  ctx = await createTestApp({ smtpUrl: sink.url, mailFrom: 'News <news@example.org>', publicBaseUrl: 'https://news.example.org' });
  media = await seedMedia(ctx.app);
  other = await seedMedia(ctx.app);
  api = client(ctx.app, media.keys.messenger);
  const editor = client(ctx.app, media.keys.editor);
  const fixture = await docsFixture(editor, media.workspaceId);
  const content = await createContent(editor, fixture, {
    locales: [{ locale: 'en', title_html: 'Big <strong>story</strong>', lead_html: '<p>What happened</p>' }],
  });
  await createBlock(editor, content.id, { kind: 'richtext', locale: 'en', content_html: '<p>First paragraph<script>x()</script></p>' });
  contentId = content.id;
});
afterAll(async () => {
  await ctx.close();
  await sink.close();
});

const newList = async () => (await api.post('/messenger/v2/mailing-lists', { locales: [{ locale: 'en', name: 'Daily' }] })).json().data as { id: string };

const subscribe = (listId: string, emails: string[]) =>
  api.post(`/messenger/v2/mailing-lists/${listId}/subscriptions/bulk`, { subscriptions: emails.map((email) => ({ email })) });

async function settled(id: string) {
  for (let i = 0; i < 200; i++) {
    const data = (await api.get(`/messenger/v2/newsletters/${id}`)).json().data;
    if (data.status === 'done') return data;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('newsletter still sending');
}

describe('POST /messenger/v2/mailing-lists/{id}/newsletters', () => {
  it('sends the rendered content to every subscribed address with RFC 8058 headers, once each', async () => {
    const list = await newList();
    const emails = Array.from({ length: 25 }, (_, i) => `nl${i}-${randomUUID().slice(0, 6)}@example.com`);
    await subscribe(list.id, emails);
    await api.post(`/messenger/v2/mailing-lists/${list.id}/subscriptions/bulk`, { subscriptions: [{ email: 'left@example.com', status: 'unsubscribed' }] });
    const before = sink.messages.length;

    const res = await api.post(`/messenger/v2/mailing-lists/${list.id}/newsletters`, { content_id: contentId, subject: 'Today' });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json().data;
    expect(created).toEqual({
      id: expect.stringMatching(UUID),
      mailing_list_id: list.id,
      content_id: contentId,
      locale: 'en',
      subject: 'Today',
      status: expect.stringMatching(/^(sending|done)$/),
      recipients: expect.objectContaining({ total: 25 }),
      inserted_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
    });
    const done = await settled(created.id);
    expect(done.recipients).toEqual({ total: 25, queued: 0, sending: 0, sent: 25, delivered: 0, bounced: 0, complained: 0, failed: 0, cancelled: 0, not_sent: 0 });
    await sink.waitFor(before + 25);
    const mine = sink.messages.slice(before);
    expect(mine.map((m) => m.to[0]).sort()).toEqual([...emails].sort());
    const first = mine[0]!.parsed!;
    expect(first.subject).toBe('Today');
    expect(first.from?.value[0]).toMatchObject({ name: 'News', address: 'news@example.org' });
    expect(first.html).toContain('<h1>Big <strong>story</strong></h1>');
    expect(first.html).toContain('<p>First paragraph</p>');
    expect(first.html).not.toContain('<script>');
    expect(first.text).toContain('What happened');
    expect(first.messageId).toMatch(/^<[0-9a-f-]{36}@example\.org>$/);
    const head = mine[0]!.raw.split('\r\n\r\n')[0]!.replace(/\r\n[ \t]+/g, ' ');
    expect(head).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    const link = /^List-Unsubscribe: <(https:\/\/news\.example\.org\/api\/media\/v1\/newsletter\/unsubscribe\?token=[^>]+)>$/m.exec(head)?.[1];
    expect(link).toBeDefined();
    expect(first.html).toContain('Unsubscribe</a>');

    // The outbox shows each message, sent.
    const outbox = await api.get(`/messenger/v2/outbox?newsletter_id=${created.id}&state=sent&limit=100`);
    expect(outbox.json().data).toHaveLength(25);
    const one = outbox.json().data[0];
    expect(one).toEqual({
      id: expect.stringMatching(UUID),
      kind: 'newsletter',
      newsletter_id: created.id,
      subscription_id: expect.stringMatching(UUID),
      to: [expect.any(String)],
      subject: 'Today',
      state: 'sent',
      attempts: 1,
      last_error: null,
      message_id: `<${one.id}@example.org>`,
      sent_at: expect.stringMatching(ISO_MS),
      delivered_at: null,
      inserted_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
    });

    // Another media sees none of it.
    const stranger = client(ctx.app, other.keys.admin);
    expectError(await stranger.get(`/messenger/v2/newsletters/${created.id}`), 404, 'newsletter_not_found');
    expectError(await stranger.get(`/messenger/v2/outbox/${one.id}`), 404, 'outbox_message_not_found');
    expectError(await stranger.get(`/messenger/v2/mailing-lists/${list.id}/newsletters`), 404, 'mailing_list_not_found');
    expect((await stranger.get(`/messenger/v2/outbox?newsletter_id=${created.id}`)).json().data).toEqual([]);

    // One click (RFC 8058: a form post) unsubscribes that address; the next newsletter skips it.
    const url = new URL(link!);
    const click = await ctx.app.inject({
      method: 'POST',
      url: `${url.pathname}${url.search}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(click.statusCode, click.body).toBe(200);
    expect(click.json()).toEqual({ data: { status: 'unsubscribed' } });
    const gone = (await api.get(`/messenger/v2/mailing-lists/${list.id}/subscriptions?status=unsubscribed`)).json().data.map((s: { email: string }) => s.email);
    expect(gone).toContain(mine[0]!.to[0]);
    const second = (await api.post(`/messenger/v2/mailing-lists/${list.id}/newsletters`, { content_id: contentId })).json().data;
    expect(second.recipients.total).toBe(24);
    expect(second.subject).toBe('Big story');
    const listed = await api.get(`/messenger/v2/mailing-lists/${list.id}/newsletters`);
    expect(listed.json().data.map((n: { id: string }) => n.id)).toEqual([second.id, created.id]);
    await settled(second.id);
  });

  it('refuses a content that is not published (404), unknown fields (400), and other media (404)', async () => {
    const list = await newList();
    const editor = client(ctx.app, media.keys.editor);
    const fixture = await docsFixture(editor, media.workspaceId);
    const draft = await createContent(editor, fixture, { status_id: fixture.statuses.draft });
    expectError(await api.post(`/messenger/v2/mailing-lists/${list.id}/newsletters`, { content_id: draft.id }), 404, 'content_not_found');
    expectError(await api.post(`/messenger/v2/mailing-lists/${list.id}/newsletters`, { content_id: contentId, html: '<p>x</p>' }), 400, 'validation_failed');
    const stranger = client(ctx.app, other.keys.admin);
    expectError(await stranger.post(`/messenger/v2/mailing-lists/${list.id}/newsletters`, { content_id: contentId }), 404, 'mailing_list_not_found');
    const otherList = (await stranger.post('/messenger/v2/mailing-lists', { locales: [{ locale: 'en', name: 'Theirs' }] })).json().data;
    expectError(await stranger.post(`/messenger/v2/mailing-lists/${otherList.id}/newsletters`, { content_id: contentId }), 404, 'content_not_found');
    expectError(await api.get(`/messenger/v2/newsletters/${randomUUID()}`), 404, 'newsletter_not_found');
    expectError(await api.get(`/messenger/v2/outbox/${randomUUID()}`), 404, 'outbox_message_not_found');
    expectError(await client(ctx.app, media.keys.viewer).post(`/messenger/v2/mailing-lists/${list.id}/newsletters`, { content_id: contentId }), 403, 'forbidden');
  });
});
