import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutgoingMail } from '../../../src/modules/messenger/mailer/mail-transport.js';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { createContent, docsFixture } from '../../setup/docs.js';
import { expectError } from '../../setup/expect.js';
import { type Client, type SeededMedia, client, seedMedia } from '../../setup/factories.js';

let ctx: TestContext;
let media: SeededMedia;
let other: SeededMedia;
let api: Client;
const sent: OutgoingMail[] = [];

beforeAll(async () => {
  ctx = await createTestApp({}, { mailTransport: { send: async (mail) => void sent.push(mail), close: () => undefined } });
  media = await seedMedia(ctx.app);
  other = await seedMedia(ctx.app);
  api = client(ctx.app, media.keys.messenger);
});
afterAll(() => ctx.close());

const post = (body: unknown, key: string | null = media.keys.messenger, query = '') =>
  ctx.app.inject({
    method: 'POST',
    url: `/messenger/v2/mailprovider/events${query}`,
    headers: key ? { 'x-api-key': key } : {},
    payload: body as object,
  });

const bounce = (emails: string[], bounceType = 'Permanent', messageId?: string) =>
  JSON.stringify({
    notificationType: 'Bounce',
    mail: { destination: emails, ...(messageId && { commonHeaders: { messageId } }) },
    bounce: { bounceType, bouncedRecipients: emails.map((emailAddress) => ({ emailAddress })) },
  });

/** A list of the media with these addresses subscribed, and a newsletter sent to them. */
async function sentNewsletter(emails: string[]) {
  const list = (await api.post('/messenger/v2/mailing-lists', { locales: [{ locale: 'en', name: 'L' }] })).json().data;
  await api.post(`/messenger/v2/mailing-lists/${list.id}/subscriptions/bulk`, { subscriptions: emails.map((email) => ({ email })) });
  const editor = client(ctx.app, media.keys.editor);
  const content = await createContent(editor, await docsFixture(editor, media.workspaceId));
  const newsletter = (await api.post(`/messenger/v2/mailing-lists/${list.id}/newsletters`, { content_id: content.id })).json().data;
  for (let i = 0; i < 200; i++) {
    if ((await api.get(`/messenger/v2/newsletters/${newsletter.id}`)).json().data.status === 'done') break;
    await new Promise((r) => setTimeout(r, 25));
  }
  const outbox = (await api.get(`/messenger/v2/outbox?newsletter_id=${newsletter.id}`)).json().data as Array<{ id: string; to: string[]; message_id: string; state: string }>;
  return { list, newsletter, outbox };
}

const statusOf = async (listId: string, email: string) =>
  ((await api.get(`/messenger/v2/mailing-lists/${listId}/subscriptions?limit=100`)).json().data as Array<{ email: string; status: string }>).find((s) => s.email === email)?.status;

describe('POST /messenger/v2/mailprovider/events', () => {
  it('suppresses a permanently bounced address in every list of the media and marks its message', async () => {
    const email = `b-${randomUUID().slice(0, 6)}@example.com`;
    const { list, outbox } = await sentNewsletter([email, `ok-${randomUUID().slice(0, 6)}@example.com`]);
    const second = (await api.post('/messenger/v2/mailing-lists', { locales: [{ locale: 'en', name: 'Other' }] })).json().data;
    await api.post(`/messenger/v2/mailing-lists/${second.id}/subscriptions/bulk`, { subscriptions: [{ email }] });
    const theirs = (await client(ctx.app, other.keys.admin).post('/messenger/v2/mailing-lists', { locales: [{ locale: 'en', name: 'Theirs' }] })).json().data;
    await client(ctx.app, other.keys.admin).post(`/messenger/v2/mailing-lists/${theirs.id}/subscriptions/bulk`, { subscriptions: [{ email }] });
    const message = outbox.find((m) => m.to[0] === email)!;
    expect(message.state).toBe('sent');

    const res = await post({ Message: bounce([`Someone <${email.toUpperCase()}>`], 'Permanent', message.message_id) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: 'processed' });
    expect(res.headers.deprecation).toMatch(/^@\d+$/);
    expect(res.headers.sunset).toBe(new Date('2027-12-31T00:00:00.000Z').toUTCString());
    expect(await statusOf(list.id, email)).toBe('bounced');
    expect(await statusOf(second.id, email)).toBe('bounced');
    const theirStatus = (await client(ctx.app, other.keys.admin).get(`/messenger/v2/mailing-lists/${theirs.id}/subscriptions`)).json().data[0].status;
    expect(theirStatus).toBe('subscribed');
    expect((await api.get(`/messenger/v2/outbox/${message.id}`)).json().data.state).toBe('bounced');
  });

  it('ignores a transient bounce; a complaint suppresses; a delivery marks the message delivered', async () => {
    const soft = `soft-${randomUUID().slice(0, 6)}@example.com`;
    const angry = `angry-${randomUUID().slice(0, 6)}@example.com`;
    const happy = `happy-${randomUUID().slice(0, 6)}@example.com`;
    const { list, outbox } = await sentNewsletter([soft, angry, happy]);
    expect((await post({ Message: bounce([soft], 'Transient') })).json()).toEqual({ status: 'ignored' });
    expect(await statusOf(list.id, soft)).toBe('subscribed');

    const complaint = JSON.stringify({ notificationType: 'Complaint', mail: { destination: [angry] }, complaint: { complainedRecipients: [{ emailAddress: angry }] } });
    expect((await post({ Message: complaint })).json()).toEqual({ status: 'processed' });
    expect(await statusOf(list.id, angry)).toBe('complained');
    // A later bounce does not turn a complaint into a bounce.
    await post({ Message: bounce([angry]) });
    expect(await statusOf(list.id, angry)).toBe('complained');

    const delivery = JSON.stringify({ notificationType: 'Delivery', mail: { destination: [happy] }, delivery: { recipients: [happy] } });
    expect((await post({ Message: delivery })).json()).toEqual({ status: 'processed' });
    const message = (await api.get(`/messenger/v2/outbox/${outbox.find((m) => m.to[0] === happy)!.id}`)).json().data;
    expect(message.state).toBe('delivered');
    expect(message.delivered_at).not.toBeNull();
  });

  it('ignores an SNS subscription confirmation without fetching its URL', async () => {
    let hits = 0;
    const server = createServer((_req, res) => {
      hits++;
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/confirm`;
    try {
      const res = await post({ Type: 'SubscriptionConfirmation', Message: `You have chosen to subscribe. Visit ${url}`, SubscribeURL: url, Token: 'x' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'ignored' });
      const wrapped = await post({ Message: JSON.stringify({ Type: 'SubscriptionConfirmation', SubscribeURL: url }) });
      expect(wrapped.json()).toEqual({ status: 'ignored' });
      expect((await post({ Message: JSON.stringify({ notificationType: 'Received', mail: {} }) })).json()).toEqual({ status: 'ignored' });
      await new Promise((r) => setTimeout(r, 100));
      expect(hits).toBe(0);
    } finally {
      server.close();
    }
  });

  it('answers 422 for a missing, non-string or malformed Message', async () => {
    expectError(await post({}), 422, 'invalid_message');
    expectError(await post({ Message: 42 }), 422, 'invalid_message');
    expectError(await post({ Message: { notificationType: 'Bounce' } }), 422, 'invalid_message');
    expectError(await post({ Message: 'not json' }), 422, 'invalid_message');
    expectError(await post({ Message: '[1,2]' }), 422, 'invalid_message');
    expectError(await post({ Message: JSON.stringify({ notificationType: 'Bounce', bounce: { bouncedRecipients: 'x' } }) }), 422, 'invalid_message');
  });

  it('takes the key as header or api_key query; 401 without, 403 for a role without messenger:write', async () => {
    expectError(await post({ Message: bounce(['x@example.com']) }, null), 401, 'missing_api_key');
    expectError(await post({ Message: bounce(['x@example.com']) }, 'wrong-key-0123456789'), 401, 'invalid_api_key');
    expectError(await post({ Message: bounce(['x@example.com']) }, media.keys.editor), 403, 'forbidden');
    expectError(await post({ Message: bounce(['x@example.com']) }, media.keys.viewer), 403, 'forbidden');
    const byQuery = await post({ Message: bounce(['x@example.com']) }, null, `?api_key=${encodeURIComponent(media.keys.messenger)}`);
    expect(byQuery.statusCode).toBe(200);
    expect(byQuery.json()).toEqual({ status: 'processed' });
    // Only this route reads the query key.
    expectError(await ctx.app.inject({ method: 'GET', url: `/messenger/v2/mailing-lists?api_key=${encodeURIComponent(media.keys.messenger)}` }), 401, 'missing_api_key');
  });

  it('is marked deprecated in the OpenAPI document with Deprecation and Sunset headers', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const op = doc.paths['/messenger/v2/mailprovider/events'].post;
    expect(op.deprecated).toBe(true);
    expect(Object.keys(op.responses['200'].headers)).toEqual(expect.arrayContaining(['Deprecation', 'Sunset']));
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '422']));
  });
});
