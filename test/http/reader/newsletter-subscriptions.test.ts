import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../../../src/shared/context.js';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { createContent, docsFixture } from '../../setup/docs.js';
import { ISO_MS, UUID, expectError } from '../../setup/expect.js';
import { type SeededMedia, client, seedMedia } from '../../setup/factories.js';
import { type JwksTestProvider, startJwksProvider } from '../../setup/identity-providers.js';
import { clientToken, readerClient, readersOf, registerClient, registerProvider } from '../../setup/reader.js';
import { type SmtpSink, startSmtpSink } from '../../setup/smtp-sink.js';

let ctx: TestContext;
let sink: SmtpSink;
let media: SeededMedia;
let jwks: JwksTestProvider;
let readers: ReturnType<typeof readersOf>;
let appToken: string;
let mailerToken: string;
let publicList: { id: string };
let privateList: { id: string };
let ip = 0;
/** Each test its own address, so the per-IP limit only bites where a test wants it. */
const nextIp = () => `10.1.${Math.floor(++ip / 250)}.${ip % 250}`;

beforeAll(async () => {
  sink = await startSmtpSink();
  ctx = await createTestApp({ smtpUrl: sink.url, publicBaseUrl: 'https://news.example.org' });
  media = await seedMedia(ctx.app);
  jwks = await startJwksProvider();
  await registerProvider(ctx.app, media.keys.admin, jwks.registration);
  readers = readersOf(ctx.app, jwks, media.mediaId);
  appToken = (await clientToken(ctx.app, await registerClient(ctx.app, media.keys.admin, ['media:read']))).access_token;
  mailerToken = (await clientToken(ctx.app, await registerClient(ctx.app, media.keys.admin, ['media:read', 'mailer:send']))).access_token;
  const api = client(ctx.app, media.keys.messenger);
  publicList = (await api.post('/messenger/v2/mailing-lists', {
    locales: [{ locale: 'en', name: 'Morning', description: 'Daily' }, { locale: 'fr', name: 'Matin' }],
    is_public: true,
  })).json().data;
  privateList = (await api.post('/messenger/v2/mailing-lists', { locales: [{ locale: 'en', name: 'Staff' }] })).json().data;
});
afterAll(async () => {
  await ctx.close();
  await sink.close();
  await jwks.close();
});

const subscribe = (body: Record<string, unknown>, token = appToken, remoteAddress = nextIp()) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/media/v1/newsletter/subscriptions',
    headers: { 'x-service-media-id': media.mediaId, authorization: `Bearer ${token}` },
    payload: body,
    remoteAddress,
  });

const confirm = (token: string) => ctx.app.inject({ method: 'POST', url: '/api/media/v1/newsletter/subscriptions/confirm', payload: { token } });

/** The token of the confirmation link of the latest mail to `email`. */
async function confirmationToken(email: string, count = 1): Promise<string> {
  const deadline = Date.now() + 10_000;
  let mails = sink.messages.filter((m) => m.to.includes(email));
  while (mails.length < count && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 25));
    mails = sink.messages.filter((m) => m.to.includes(email));
  }
  expect(mails).toHaveLength(count);
  const mail = mails.at(-1)!.parsed!;
  expect(mail.subject).toBe('Please confirm your subscription to Morning');
  const link = /https:\/\/news\.example\.org\/newsletter\/confirm\?token=([A-Za-z0-9_.%-]+)/.exec(mail.text ?? '')?.[1];
  expect(link).toBeDefined();
  expect(mail.html).toContain(`href="https://news.example.org/newsletter/confirm?token=${link}"`);
  return decodeURIComponent(link!);
}

describe('GET /api/media/v1/newsletter/mailing-lists', () => {
  it('lists the public lists in the asked language', async () => {
    const res = await readerClient(ctx.app, media.mediaId, appToken).get('/api/media/v1/newsletter/mailing-lists?locale=fr');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: [
        {
          id: publicList.id,
          name: 'Matin',
          description: null,
          double_opt_in: true,
          meta: { locales: { current: 'fr', available: ['en', 'fr'], requested: 'fr' } },
          updated_at: expect.stringMatching(ISO_MS),
        },
      ],
      meta: {
        base: `https://news.example.org/api/media/v1/newsletter/mailing-lists?locale=fr`,
        next: null,
        previous: null,
        locales: { current: 'fr', available: ['en', 'fr'], requested: 'fr' },
      },
    });
    expectError(await readerClient(ctx.app, media.mediaId).get('/api/media/v1/newsletter/mailing-lists'), 401);
  });
});

describe('double opt-in', () => {
  it('mails a confirmation link that confirms once; a replayed, expired or superseded token fails', async () => {
    const email = `anna-${randomUUID().slice(0, 6)}@example.com`;
    const res = await subscribe({ mailing_list_id: publicList.id, email: ` ${email.toUpperCase()} `, locale: 'en' });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toEqual({ data: { status: 'accepted' } });
    const first = await confirmationToken(email);

    // Asking again sends a new link; the first one no longer confirms.
    expect((await subscribe({ mailing_list_id: publicList.id, email })).statusCode).toBe(202);
    const second = await confirmationToken(email, 2);
    expectError(await confirm(first), 400, 'invalid_token');

    const ok = await confirm(second);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toEqual({
      id: expect.stringMatching(UUID),
      mailing_list_id: publicList.id,
      email,
      locale: 'en',
      status: 'subscribed',
      inserted_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
      confirmed_at: expect.stringMatching(ISO_MS),
    });
    expectError(await confirm(second), 400, 'invalid_token');

    // Expired and forged tokens.
    const expired = ctx.app.services.messenger.tokens.sign('confirm', ok.json().data.id, -10).token;
    expectError(await confirm(expired), 400, 'invalid_token');
    expectError(await confirm(`${second.slice(0, -2)}xx`), 400, 'invalid_token');
    expectError(await confirm('nonsense'), 400, 'invalid_token');
    // An unsubscribe token does not confirm.
    expectError(await confirm(ctx.app.services.messenger.subscriptions.unsubscribeToken(ok.json().data.id)), 400, 'invalid_token');

    // Subscribed already: the same answer, and no mail.
    const mails = sink.messages.length;
    const again = await subscribe({ mailing_list_id: publicList.id, email });
    expect(again.statusCode).toBe(202);
    expect(again.json()).toEqual({ data: { status: 'accepted' } });
    await new Promise((r) => setTimeout(r, 300));
    expect(sink.messages.length).toBe(mails);
  });

  it('never reveals a bounced address, nor mails it', async () => {
    const email = `bounced-${randomUUID().slice(0, 6)}@example.com`;
    await client(ctx.app, media.keys.messenger).post(`/messenger/v2/mailing-lists/${publicList.id}/subscriptions/bulk`, { subscriptions: [{ email }] });
    await ctx.app.services.messenger.subscriptions.suppress(systemContext(ctx.app.db, media.mediaId), [email], 'bounced');
    const res = await subscribe({ mailing_list_id: publicList.id, email });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ data: { status: 'accepted' } });
    await new Promise((r) => setTimeout(r, 300));
    expect(sink.messages.filter((m) => m.to.includes(email))).toHaveLength(0);
  });

  it('limits confirmation mails per address (3 an hour) and requests per IP (20 a minute)', async () => {
    const email = `bomb-${randomUUID().slice(0, 6)}@example.com`;
    for (let i = 0; i < 3; i++) expect((await subscribe({ mailing_list_id: publicList.id, email })).statusCode).toBe(202);
    expectError(await subscribe({ mailing_list_id: publicList.id, email }), 429, 'rate_limited');
    const from = nextIp();
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await subscribe({ mailing_list_id: publicList.id, email: `ip${i}-${randomUUID().slice(0, 4)}@example.com` }, appToken, from)).statusCode);
    expect(statuses.slice(0, 20).every((s) => s === 202)).toBe(true);
    expect(statuses[20]).toBe(429);
  });

  it('refuses a private or unknown list (404), a missing address (400), unknown fields (400)', async () => {
    expectError(await subscribe({ mailing_list_id: privateList.id, email: 'a@example.com' }), 404, 'mailing_list_not_found');
    expectError(await subscribe({ mailing_list_id: randomUUID(), email: 'a@example.com' }), 404, 'mailing_list_not_found');
    expectError(await subscribe({ mailing_list_id: publicList.id }), 400, 'validation_failed');
    expectError(await subscribe({ mailing_list_id: publicList.id, email: 'not-mail' }), 400, 'validation_failed');
    expectError(await subscribe({ mailing_list_id: publicList.id, email: 'a@example.com', status: 'subscribed' }), 400, 'validation_failed');
  });
});

describe("a signed-in reader's subscriptions", () => {
  it('subscribes a vouched address at once, lists, and unsubscribes one or all', async () => {
    const sub = `r-${randomUUID().slice(0, 6)}`;
    const email = `${sub}@example.com`;
    const { api } = await readers.signIn(sub, { email, email_verified: true });
    const token = await jwks.mint({ sub, email, email_verified: true });
    const res = await subscribe({ mailing_list_id: publicList.id }, token);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toEqual({ data: { status: 'subscribed' } });
    await new Promise((r) => setTimeout(r, 200));
    expect(sink.messages.filter((m) => m.to.includes(email))).toHaveLength(0);

    const listed = await api.get('/api/media/v1/newsletter/subscriptions');
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data).toEqual([
      {
        id: expect.stringMatching(UUID),
        mailing_list_id: publicList.id,
        email,
        locale: null,
        status: 'subscribed',
        inserted_at: expect.stringMatching(ISO_MS),
        updated_at: expect.stringMatching(ISO_MS),
        confirmed_at: expect.stringMatching(ISO_MS),
      },
    ]);
    const id = listed.json().data[0].id;
    expect((await api.delete(`/api/media/v1/newsletter/subscriptions/${id}`)).statusCode).toBe(204);
    expect((await api.get('/api/media/v1/newsletter/subscriptions')).json().data[0].status).toBe('unsubscribed');
    expectError(await api.delete(`/api/media/v1/newsletter/subscriptions/${randomUUID()}`), 404, 'subscription_not_found');

    // Back on the list (a reader's own request re-subscribes), then off every list.
    expect((await subscribe({ mailing_list_id: publicList.id }, token)).json()).toEqual({ data: { status: 'subscribed' } });
    expect((await api.delete('/api/media/v1/newsletter/subscriptions')).statusCode).toBe(204);
    expect((await api.get('/api/media/v1/newsletter/subscriptions')).json().data.map((s: { status: string }) => s.status)).toEqual(['unsubscribed']);
  });

  it('mails an address the provider does not vouch for, and keeps another reader out', async () => {
    const sub = `u-${randomUUID().slice(0, 6)}`;
    const email = `${sub}@example.com`;
    const token = await jwks.mint({ sub, email });
    expect((await subscribe({ mailing_list_id: publicList.id }, token)).json()).toEqual({ data: { status: 'accepted' } });
    await confirmationToken(email);
    const stranger = readerClient(ctx.app, media.mediaId, await jwks.mint({ sub: 'someone-else' }));
    expect((await stranger.get('/api/media/v1/newsletter/subscriptions')).json().data).toEqual([]);
    const application = (await clientToken(ctx.app, await registerClient(ctx.app, media.keys.admin))).access_token;
    expectError(await readerClient(ctx.app, media.mediaId, application).get('/api/media/v1/newsletter/subscriptions'), 403, 'reader_required');
    expectError(await readerClient(ctx.app, media.mediaId, appToken).get('/api/media/v1/newsletter/subscriptions'), 403, 'insufficient_scope');
    expectError(await readerClient(ctx.app, media.mediaId).delete('/api/media/v1/newsletter/subscriptions'), 401);
  });
});

describe('POST /api/media/v1/newsletter/unsubscribe', () => {
  it('refuses a forged token, and needs no media header', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/api/media/v1/newsletter/unsubscribe?token=abc.def' });
    expectError(res, 400, 'invalid_token');
    expectError(await ctx.app.inject({ method: 'POST', url: '/api/media/v1/newsletter/unsubscribe' }), 400, 'validation_failed');
  });
});

describe('POST /api/media/v1/mailer/send', () => {
  it('sends a shared content and a contact message through the outbox', async () => {
    const editor = client(ctx.app, media.keys.editor);
    const content = await createContent(editor, await docsFixture(editor, media.workspaceId), {
      locales: [{ locale: 'en', title_html: 'Shared <em>piece</em>', lead_html: '<p>Why it matters</p>' }],
    });
    const api = readerClient(ctx.app, media.mediaId, mailerToken);
    const to = [`friend-${randomUUID().slice(0, 6)}@example.com`, `pal-${randomUUID().slice(0, 6)}@example.com`];
    const res = await api.post('/api/media/v1/mailer/send', {
      template: 'share_content',
      to,
      content_id: content.id,
      sender_name: 'Bob <b>',
      message: 'Read <this>',
    });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().data).toMatchObject({ kind: 'mailer', to, state: 'queued', subject: 'Bob <b> shares "Shared piece" with you', newsletter_id: null });
    await sink.waitFor(sink.messages.findIndex((m) => m.to.includes(to[0]!)) >= 0 ? 0 : sink.messages.length + 1);
    const deadline = Date.now() + 10_000;
    while (!sink.messages.some((m) => m.to.includes(to[0]!)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    const mail = sink.messages.find((m) => m.to.includes(to[0]!))!;
    expect(mail.to.sort()).toEqual([...to].sort());
    expect(mail.parsed!.html).toContain('Bob &lt;b&gt; thought you would like this');
    expect(mail.parsed!.html).toContain('Read &lt;this&gt;');
    expect(mail.parsed!.text).toContain('Why it matters');

    const contact = await api.post('/api/media/v1/mailer/send', {
      template: 'contact',
      to: ['desk@example.com'],
      name: 'Carla',
      email: 'carla@example.com',
      subject: 'A tip',
      message: 'Look at this.',
    });
    expect(contact.statusCode, contact.body).toBe(202);
    const outbox = await client(ctx.app, media.keys.messenger).get(`/messenger/v2/outbox/${contact.json().data.id}`);
    expect(outbox.json().data).toMatchObject({ kind: 'mailer', to: ['desk@example.com'], subject: 'A tip', headers: { 'Reply-To': 'carla@example.com' } });
  });

  it('refuses more than 10 recipients, an unknown template, a token without mailer:send, and limits each client', async () => {
    const api = readerClient(ctx.app, media.mediaId, mailerToken);
    const eleven = Array.from({ length: 11 }, (_, i) => `x${i}@example.com`);
    expectError(await api.post('/api/media/v1/mailer/send', { template: 'contact', to: eleven, name: 'a', email: 'a@example.com', subject: 's', message: 'm' }), 400, 'validation_failed');
    expectError(await api.post('/api/media/v1/mailer/send', { template: 'spam', to: ['a@example.com'] }), 400, 'validation_failed');
    expectError(await readerClient(ctx.app, media.mediaId, appToken).post('/api/media/v1/mailer/send', { template: 'contact', to: ['a@example.com'], name: 'a', email: 'a@example.com', subject: 's', message: 'm' }), 403, 'insufficient_scope');
    expectError(await api.post('/api/media/v1/mailer/send', { template: 'share_content', to: ['a@example.com'], content_id: randomUUID() }), 404, 'content_not_found');
    const own = (await clientToken(ctx.app, await registerClient(ctx.app, media.keys.admin, ['mailer:send']))).access_token;
    const limited = readerClient(ctx.app, media.mediaId, own);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      statuses.push((await limited.post('/api/media/v1/mailer/send', { template: 'contact', to: ['desk@example.com'], name: 'a', email: 'a@example.com', subject: `s${i}`, message: 'm' })).statusCode);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(202));
    expect(statuses[10]).toBe(429);
  });
});
