import { createHmac, randomUUID } from 'node:crypto';
import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookDeliveryWire, WebhookWire } from '../../../src/modules/core/webhooks/webhooks.schemas.js';
import { webhookDeliveries, webhooks } from '../../../src/modules/core/webhooks/webhooks.table.js';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { ISO_MS, UUID, expectError } from '../../setup/expect.js';
import { createBlock, createContent, docsFixture } from '../../setup/docs.js';
import { type Client, type SeededMedia, client, createCategory, seedMedia } from '../../setup/factories.js';

/** What the receiver got: one entry per request, by path. */
interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

const received: Received[] = [];
let receiver: Server;
let base: string;
/** Requests seen per path: `/flaky` fails its first two with 500. */
const seen = new Map<string, number>();

let ctx: TestContext;
let media: SeededMedia;
let other: SeededMedia;
let admin: Client;
let otherAdmin: Client;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body });
      const count = (seen.get(path) ?? 0) + 1;
      seen.set(path, count);
      res.statusCode = path === '/flaky' && count <= 2 ? 500 : path === '/redirect' ? 302 : 200;
      if (path === '/redirect') res.setHeader('location', `${base}/ok`);
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  ctx = await createTestApp({ webhookAllowPrivate: true, webhookRetryBaseMs: 50 });
  media = await seedMedia(ctx.app);
  other = await seedMedia(ctx.app);
  admin = client(ctx.app, media.keys.admin);
  otherAdmin = client(ctx.app, other.keys.admin);
});
afterAll(async () => {
  await ctx.close();
  await new Promise((resolve) => receiver.close(resolve));
});

type Created = WebhookWire & { secret: string };

async function createWebhook(api: Client, body: Record<string, unknown>): Promise<Created> {
  const res = await api.post('/core/v2/webhooks', body);
  if (res.statusCode !== 201) throw new Error(`createWebhook: ${res.statusCode} ${res.body}`);
  return res.json().data as Created;
}

async function deliveriesOf(api: Client, webhookId: string): Promise<WebhookDeliveryWire[]> {
  const res = await api.get(`/core/v2/webhooks/${webhookId}/deliveries`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as WebhookDeliveryWire[];
}

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 8_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('waitFor: timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The Standard Webhooks signature, recomputed here from the secret's decoded bytes. */
const expectedSignature = (secret: string, headers: IncomingHttpHeaders, body: string) =>
  `v1,${createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
    .update(`${String(headers['webhook-id'])}.${String(headers['webhook-timestamp'])}.${body}`)
    .digest('base64')}`;

const FIELDS = ['active', 'deleted_at', 'description', 'events', 'id', 'inserted_at', 'updated_at', 'url'];

describe('webhooks CRUD', () => {
  it('creates a webhook and shows its whsec_ secret once; reads, lists and updates never show it', async () => {
    const res = await admin.post('/core/v2/webhooks', { url: `${base}/crud`, events: ['category.*', 'purge'], description: ' CDN ' });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json().data as Created;
    expect(Object.keys(created).sort()).toEqual([...FIELDS, 'secret'].sort());
    expect(created.id).toMatch(UUID);
    expect(created.url).toBe(`${base}/crud`);
    expect(created.events).toEqual(['category.*', 'purge']);
    expect(created.active).toBe(true);
    expect(created.description).toBe('CDN');
    expect(created.inserted_at).toMatch(ISO_MS);
    expect(created.updated_at).toMatch(ISO_MS);
    expect(created.deleted_at).toBeNull();
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(32);

    const { secret: _secret, ...record } = created;
    const got = await admin.get(`/core/v2/webhooks/${created.id}`);
    expect(got.statusCode).toBe(200);
    expect(got.json().data).toEqual(record);
    const listed = await admin.get('/core/v2/webhooks');
    expect(listed.statusCode).toBe(200);
    expect((listed.json().data as WebhookWire[]).find((w) => w.id === created.id)).toEqual(record);
    expect(listed.body).not.toContain(created.secret);

    const patched = await admin.patch(`/core/v2/webhooks/${created.id}`, { active: false, description: null, events: ['*'] });
    expect(patched.statusCode, patched.body).toBe(200);
    const updated = patched.json().data as WebhookWire;
    expect(Object.keys(updated).sort()).toEqual(FIELDS);
    expect(updated).toMatchObject({ id: created.id, url: `${base}/crud`, active: false, description: null, events: ['*'], deleted_at: null });
    expect(Date.parse(updated.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.updated_at));
  });

  it('soft deletes a webhook (404 after) and restores it with deleted_at null', async () => {
    const hook = await createWebhook(admin, { url: `${base}/crud`, events: ['content.deleted'] });
    expect((await admin.delete(`/core/v2/webhooks/${hook.id}`)).statusCode).toBe(204);
    expectError(await admin.get(`/core/v2/webhooks/${hook.id}`), 404, 'webhook_not_found');
    const restored = await admin.post(`/core/v2/webhooks/${hook.id}/restore`);
    expect(restored.statusCode).toBe(200);
    expect(restored.json().data).toMatchObject({ id: hook.id, deleted_at: null, events: ['content.deleted'] });
  });

  it('refuses unknown event names, unknown fields, a missing url and non-admin keys', async () => {
    expectError(await admin.post('/core/v2/webhooks', { url: `${base}/x`, events: ['category.renamed'] }), 400, 'validation_failed');
    expectError(await admin.post('/core/v2/webhooks', { url: `${base}/x`, events: [] }), 400, 'validation_failed');
    expectError(await admin.post('/core/v2/webhooks', { url: `${base}/x`, events: ['purge', 'purge'] }), 400, 'validation_failed');
    expectError(await admin.post('/core/v2/webhooks', { url: `${base}/x`, events: ['purge'], secret: 'mine' }), 400, 'validation_failed');
    expectError(await admin.post('/core/v2/webhooks', { events: ['purge'] }), 400, 'validation_failed');
    expectError(await admin.post('/core/v2/webhooks', { url: 'ftp://example.com/', events: ['purge'] }), 400, 'validation_failed');
    expectError(await client(ctx.app, media.keys.editor).post('/core/v2/webhooks', { url: `${base}/x`, events: ['purge'] }), 403);
    expectError(await client(ctx.app, media.keys.editor).get('/core/v2/webhooks'), 403);
    expectError(await client(ctx.app).get('/core/v2/webhooks'), 401);
  });

  it("answers 404 for another media's webhook on every operation", async () => {
    const hook = await createWebhook(admin, { url: `${base}/crud`, events: ['purge'] });
    const path = `/core/v2/webhooks/${hook.id}`;
    expectError(await otherAdmin.get(path), 404, 'webhook_not_found');
    expectError(await otherAdmin.patch(path, { active: false }), 404, 'webhook_not_found');
    expectError(await otherAdmin.delete(path), 404, 'webhook_not_found');
    expectError(await otherAdmin.post(`${path}/restore`), 404, 'webhook_not_found');
    expectError(await otherAdmin.get(`${path}/deliveries`), 404, 'webhook_not_found');
    expectError(await otherAdmin.post(`${path}/deliveries/${hook.id}/redeliver`), 404, 'webhook_not_found');
    expect((await otherAdmin.get('/core/v2/webhooks')).json().data).not.toContainEqual(expect.objectContaining({ id: hook.id }));
    expect((await admin.get(path)).statusCode).toBe(200);
  });
});

describe('deliveries', () => {
  let flaky: Created;
  let purger: Created;
  let unsubscribed: Created;
  let foreign: Created;
  let categoryId: string;

  beforeAll(async () => {
    flaky = await createWebhook(admin, { url: `${base}/flaky`, events: ['category.created'] });
    purger = await createWebhook(admin, { url: `${base}/purge`, events: ['purge'] });
    unsubscribed = await createWebhook(admin, { url: `${base}/unsubscribed`, events: ['content.*', 'category.deleted'] });
    foreign = await createWebhook(otherAdmin, { url: `${base}/foreign`, events: ['*'] });
    categoryId = (await createCategory(admin)).id;
  });

  it('retries a receiver that fails twice: three attempts logged, one successful delivery, each signed', async () => {
    const [delivery] = await waitFor(async () => {
      const list = await deliveriesOf(admin, flaky.id);
      return list[0]?.status === 'succeeded' ? list : undefined;
    });
    expect(Object.keys(delivery!).sort()).toEqual(['attempts', 'event_id', 'event_type', 'id', 'inserted_at', 'status', 'updated_at', 'webhook_id']);
    expect(delivery).toMatchObject({ webhook_id: flaky.id, event_type: 'category.created', status: 'succeeded' });
    expect(delivery!.event_id).toMatch(UUID);
    expect(delivery!.attempts.map((a) => [a.attempt, a.status_code])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
    expect(delivery!.attempts[0]!.error).toBe('receiver answered 500');
    expect(delivery!.attempts[2]!.error).toBeNull();
    for (const a of delivery!.attempts) {
      expect(a.attempted_at).toMatch(ISO_MS);
      expect(a.duration_ms).toBeGreaterThanOrEqual(0);
    }

    const requests = received.filter((r) => r.path === '/flaky');
    expect(requests).toHaveLength(3);
    for (const r of requests) {
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['webhook-id']).toBe(delivery!.event_id);
      expect(Math.abs(Number(r.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
      expect(r.headers['webhook-signature']).toBe(expectedSignature(flaky.secret, r.headers, r.body));
      const body = JSON.parse(r.body) as { type: string; timestamp: string; data: Record<string, unknown> };
      expect(Object.keys(body).sort()).toEqual(['data', 'timestamp', 'type']);
      expect(body.type).toBe('category.created');
      expect(body.timestamp).toMatch(ISO_MS);
      expect(body.data).toEqual({ id: categoryId, record: 'category', operation_id: 'createCategory' });
    }
    // A signature under another secret does not match.
    expect(requests[0]!.headers['webhook-signature']).not.toBe(expectedSignature(purger.secret, requests[0]!.headers, requests[0]!.body));
  });

  it('sends purge with the surrogate keys of the written record to a purge subscriber', async () => {
    const [delivery] = await waitFor(async () => {
      const list = await deliveriesOf(admin, purger.id);
      return list[0]?.status === 'succeeded' ? list : undefined;
    });
    expect(delivery).toMatchObject({ event_type: 'purge', status: 'succeeded' });
    const request = received.find((r) => r.path === '/purge')!;
    expect(JSON.parse(request.body)).toMatchObject({ type: 'purge', data: { surrogate_keys: [`category`, `category:${categoryId}`] } });
    expect(request.headers['webhook-signature']).toBe(expectedSignature(purger.secret, request.headers, request.body));
  });

  it('sends nothing to a webhook not subscribed to the event, nor to another media', async () => {
    // The subscribed deliveries above are done: anything queued for these would be too.
    await waitFor(async () => ((await deliveriesOf(admin, flaky.id))[0]?.status === 'succeeded' ? true : undefined));
    expect(await deliveriesOf(admin, unsubscribed.id)).toEqual([]);
    expect(await deliveriesOf(otherAdmin, foreign.id)).toEqual([]);
    expect(received.filter((r) => r.path === '/unsubscribed' || r.path === '/foreign')).toEqual([]);
  });

  it('emits deleted and restored events on the record the path names', async () => {
    const restores = await createWebhook(admin, { url: `${base}/restores`, events: ['*.restored'] });
    expect((await admin.delete(`/core/v2/categories/${categoryId}`)).statusCode).toBe(204);
    expect((await admin.post(`/core/v2/categories/${categoryId}/restore`)).statusCode).toBe(200);
    const [restored] = await waitFor(async () => {
      const list = await deliveriesOf(admin, restores.id);
      return list[0]?.status === 'succeeded' ? list : undefined;
    });
    expect(restored).toMatchObject({ event_type: 'category.restored' });
    expect(JSON.parse(received.find((r) => r.path === '/restores')!.body).data).toEqual({ id: categoryId, record: 'category', operation_id: 'restoreCategory' });
    const [delivery] = await waitFor(async () => {
      const list = await deliveriesOf(admin, unsubscribed.id);
      return list[0]?.status === 'succeeded' ? list : undefined;
    });
    expect(delivery).toMatchObject({ event_type: 'category.deleted' });
    const request = received.find((r) => r.path === '/unsubscribed')!;
    expect(JSON.parse(request.body).data).toEqual({ id: categoryId, record: 'category', operation_id: 'deleteCategory' });
  });

  it('redelivers a delivery: the same event id again, one more attempt logged', async () => {
    const [delivery] = await deliveriesOf(admin, flaky.id);
    const res = await admin.post(`/core/v2/webhooks/${flaky.id}/deliveries/${delivery!.id}/redeliver`);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().data).toMatchObject({ id: delivery!.id, event_id: delivery!.event_id, event_type: 'category.created' });
    const [again] = await waitFor(async () => {
      const list = await deliveriesOf(admin, flaky.id);
      return list[0]?.attempts.length === 4 && list[0].status === 'succeeded' ? list : undefined;
    });
    expect(again!.attempts[3]).toMatchObject({ attempt: 4, status_code: 200, error: null });
    const last = received.filter((r) => r.path === '/flaky').at(-1)!;
    expect(last.headers['webhook-id']).toBe(delivery!.event_id);
    expect(last.headers['webhook-signature']).toBe(expectedSignature(flaky.secret, last.headers, last.body));

    expectError(await admin.post(`/core/v2/webhooks/${flaky.id}/deliveries/${flaky.id}/redeliver`), 404, 'webhook_delivery_not_found');
    expectError(await admin.post(`/core/v2/webhooks/${purger.id}/deliveries/${delivery!.id}/redeliver`), 404, 'webhook_delivery_not_found');
    expectError(await otherAdmin.post(`/core/v2/webhooks/${flaky.id}/deliveries/${delivery!.id}/redeliver`), 404, 'webhook_not_found');
    expectError(await admin.post(`/core/v2/webhooks/not-a-uuid/deliveries/${delivery!.id}/redeliver`), 400);
  });

  it('emits content.published when a write moves a record into a published status (not when it repeats it), and a set written under a record as its update', async () => {
    const hook = await createWebhook(admin, { url: `${base}/contents`, events: ['content.*', 'block.created'] });
    const f = await docsFixture(admin, media.workspaceId);
    const draft = await createContent(admin, f, { status_id: f.statuses.draft });
    const published = await createContent(admin, f);
    expect((await admin.patch(`/docs/v2/contents/${draft.id}`, { status_id: f.statuses.published })).statusCode).toBe(200);
    const block = await createBlock(admin, draft.id, { kind: 'html', locale: 'en', content_html: '<p>x</p>' });
    // Saving a published content with its published status again is an update, not a second publication.
    expect((await admin.patch(`/docs/v2/contents/${published.id}`, { status_id: f.statuses.published })).statusCode).toBe(200);
    const types = (list: WebhookDeliveryWire[]) => list.filter((d) => d.status === 'succeeded').length === 7 ? list : undefined;
    const list = await waitFor(async () => types(await deliveriesOf(admin, hook.id)));
    const events = received
      .filter((r) => r.path === '/contents')
      .map((r) => JSON.parse(r.body) as { type: string; data: { id: string } })
      .map((b) => `${b.type} ${b.data.id}`)
      .sort();
    expect(events).toEqual(
      [
        `content.created ${draft.id}`,
        `content.created ${published.id}`,
        `content.published ${published.id}`,
        `content.updated ${published.id}`,
        `content.updated ${draft.id}`,
        `content.published ${draft.id}`,
        `block.created ${block.id}`,
      ].sort(),
    );
    expect(list).toHaveLength(7);
  });

  it('does not follow a redirect: a 3xx is a failed attempt', async () => {
    const hook = await createWebhook(admin, { url: `${base}/redirect`, events: ['category.created'] });
    await createCategory(admin);
    const [delivery] = await waitFor(async () => {
      const list = await deliveriesOf(admin, hook.id);
      return (list[0]?.attempts.length ?? 0) >= 1 ? list : undefined;
    });
    expect(delivery!.attempts[0]).toMatchObject({ attempt: 1, status_code: 302, error: 'receiver answered 302' });
    await admin.patch(`/core/v2/webhooks/${hook.id}`, { active: false });
  });
});

describe('private targets without WEBHOOK_ALLOW_PRIVATE', () => {
  let strict: TestContext;
  let strictMedia: SeededMedia;
  let strictAdmin: Client;

  beforeAll(async () => {
    // Retries far apart: a refused attempt is the delivery's only one in this test.
    strict = await createTestApp({ webhookRetryBaseMs: 100_000_000 });
    strictMedia = await seedMedia(strict.app);
    strictAdmin = client(strict.app, strictMedia.keys.admin);
  });
  afterAll(() => strict.close());

  it('refuses loopback, private, link-local and unique-local targets and plain http with 400', async () => {
    for (const url of ['https://127.0.0.1/hook', 'https://10.1.2.3/', 'https://169.254.169.254/latest', 'https://[::1]/', 'https://[fd00::1]/', 'https://localhost/', 'https://[::ffff:127.0.0.1]/']) {
      const body = expectError(await strictAdmin.post('/core/v2/webhooks', { url, events: ['purge'] }), 400, 'unsafe_webhook_url');
      expect(body.details).toEqual([{ path: 'url', message: expect.any(String) }]);
    }
    expectError(await strictAdmin.post('/core/v2/webhooks', { url: 'http://93.184.216.34/', events: ['purge'] }), 400, 'unsafe_webhook_url');
    const hook = await createWebhook(strictAdmin, { url: 'https://93.184.216.34/hook', events: ['purge'] });
    expectError(await strictAdmin.patch(`/core/v2/webhooks/${hook.id}`, { url: 'https://192.168.1.1/' }), 400, 'unsafe_webhook_url');
  });

  it('refuses a private target again at delivery time: the attempt is logged, the receiver gets nothing', async () => {
    // As if the name had resolved to a public address at creation and to loopback now.
    const [row] = await strict.database.db
      .insert(webhooks)
      .values({ mediaId: strictMedia.mediaId, url: `${base}/strict`, events: ['category.created'], secret: `whsec_${Buffer.alloc(32).toString('base64')}` })
      .returning({ id: webhooks.id });
    await createCategory(strictAdmin);
    const [delivery] = await waitFor(async () => {
      const list = await deliveriesOf(strictAdmin, row!.id);
      return list[0]?.status === 'failed' ? list : undefined;
    });
    expect(delivery!.attempts).toHaveLength(1);
    expect(delivery!.attempts[0]).toMatchObject({ attempt: 1, status_code: null, error: expect.stringMatching(/refused/) });
    expect(received.filter((r) => r.path === '/strict')).toEqual([]);
  });

  it('prunes deliveries that ended before the retention, with their tries; pending and recent ones stay', async () => {
    const hook = await createWebhook(admin, { url: `${base}/prune`, events: ['category.created'] });
    await createCategory(admin);
    await createCategory(admin);
    const ended = await waitFor(async () => {
      const list = await deliveriesOf(admin, hook.id);
      return list.length === 2 && list.every((d) => d.status === 'succeeded') ? list : undefined;
    });
    // One ended delivery and one still pending, both 40 days old; the other ended one is recent.
    const [old, recent] = ended;
    const { db } = ctx.database;
    await db.execute(sql`update webhook_deliveries set inserted_at = now() - interval '40 days' where id = ${old!.id}`);
    const [pending] = await db
      .insert(webhookDeliveries)
      .values({ mediaId: media.mediaId, webhookId: hook.id, eventId: randomUUID(), eventType: 'category.created', payload: {}, status: 'pending', retryUntil: new Date(Date.now() + 3_600_000), insertedAt: new Date(Date.now() - 40 * 86_400_000) })
      .returning({ id: webhookDeliveries.id });

    expect(await ctx.app.services.core.webhooks.prune()).toBe(1);
    const left = await deliveriesOf(admin, hook.id);
    expect(left.map((d) => d.id).sort()).toEqual([recent!.id, pending!.id].sort());
    expect(left.find((d) => d.id === recent!.id)!.attempts).toHaveLength(1);
    const tries = (await db.execute(sql`select count(*)::int as n from webhook_attempts where delivery_id = ${old!.id}`)) as unknown as { rows: Array<{ n: number }> };
    expect(tries.rows[0]!.n).toBe(0);
    expect(await ctx.app.services.core.webhooks.prune()).toBe(0);
  });
});
