import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idempotencyKeys } from '../../src/shared/idempotency-keys.table.js';
import { fileForm, jpeg, tempDir } from '../assets/fixtures.js';
import { type TestContext, createTestApp } from '../setup/app.js';
import { UUID, expectError } from '../setup/expect.js';
import { type Client, type SeededMedia, client, seedMedia } from '../setup/factories.js';
import { clientToken, readerClient, registerClient } from '../setup/reader.js';

let ctx: TestContext;
let media: SeededMedia;
let other: SeededMedia;
let editor: Client;
let storage: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  storage = await tempDir('idempotency');
  ctx = await createTestApp({ storageDir: storage.path, rateLimit: { backoffice: 10_000, reader: 10_000, anonymous: 10_000, token: 10_000 } });
  media = await seedMedia(ctx.app);
  other = await seedMedia(ctx.app);
  editor = client(ctx.app, media.keys.editor);
});
afterAll(async () => {
  await ctx?.close();
  await storage?.remove();
});

const body = (name = `Politics ${randomUUID().slice(0, 8)}`) => ({ locales: [{ locale: 'en', name }] });
const withKey = (key: string) => ({ 'idempotency-key': key });

/** Live categories of a media named `name` (each test uses names of its own). */
async function countNamed(api: Client, name: string): Promise<number> {
  const res = await api.get('/core/v2/categories?limit=100');
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as Array<{ locales: Array<{ name: string }> }>).filter((c) => c.locales.some((l) => l.name === name)).length;
}

describe('Idempotency-Key on POST', () => {
  it('replays the first answer (status, body, Idempotent-Replayed) and creates one record', async () => {
    const key = randomUUID();
    const payload = body();
    const first = await editor.post('/core/v2/categories', payload, withKey(key));
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(first.json().data.id).toMatch(UUID);

    // Same body with its keys in another order: the same request.
    const again = await editor.post('/core/v2/categories', { locales: [{ name: payload.locales[0]!.name, locale: 'en' }] }, withKey(key));
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toMatch(/^application\/json/);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.body).toBe(first.body);
    expect(await countNamed(editor, payload.locales[0]!.name)).toBe(1);

    // Without a key, every request runs.
    const plain = await editor.post('/core/v2/categories', body(payload.locales[0]!.name));
    expect(plain.statusCode).toBe(201);
    expect(plain.json().data.id).not.toBe(first.json().data.id);
  });

  it('answers 422 idempotency_key_reused to the key with another body or path, and runs nothing', async () => {
    const key = randomUUID();
    const payload = body();
    expect((await editor.post('/core/v2/categories', payload, withKey(key))).statusCode).toBe(201);
    const changed = body();
    expectError(await editor.post('/core/v2/categories', changed, withKey(key)), 422, 'idempotency_key_reused');
    expect(await countNamed(editor, changed.locales[0]!.name)).toBe(0);
    expectError(await editor.post('/publisher/v2/topics', { key: 'idem', name: 'Idem' }, withKey(key)), 422, 'idempotency_key_reused');
  });

  it('refuses a key that is empty, longer than 255 characters or not printable ASCII (400)', async () => {
    for (const key of ['', 'k'.repeat(256), 'tab\there']) {
      const res = await editor.post('/core/v2/categories', body(), withKey(key));
      expect(res.statusCode, `${JSON.stringify(key)}: ${res.body}`).toBe(400);
    }
    expect((await editor.post('/core/v2/categories', body(), withKey('k'.repeat(255)))).statusCode).toBe(201);
  });

  it('runs 50 concurrent requests with one key once: the others get 409 idempotency_key_in_use or the replay', async () => {
    const key = randomUUID();
    const payload = body();
    const answers = await Promise.all(Array.from({ length: 50 }, () => editor.post('/core/v2/categories', payload, withKey(key))));
    const executed = answers.filter((r) => r.statusCode === 201 && !r.headers['idempotent-replayed']);
    const replayed = answers.filter((r) => r.statusCode === 201 && r.headers['idempotent-replayed'] === 'true');
    const inUse = answers.filter((r) => r.statusCode === 409);
    expect(executed).toHaveLength(1);
    expect(replayed.length + inUse.length).toBe(49);
    for (const r of inUse) {
      expectError(r, 409, 'idempotency_key_in_use');
      expect(r.headers['retry-after']).toBe('1');
    }
    for (const r of replayed) expect(r.body).toBe(executed[0]!.body);
    expect(await countNamed(editor, payload.locales[0]!.name)).toBe(1);
  });

  it('scopes keys to the media and the caller', async () => {
    const key = randomUUID();
    const payload = body();
    const mine = await editor.post('/core/v2/categories', payload, withKey(key));
    // Another key of the same media: its own key space.
    const admin = client(ctx.app, media.keys.admin);
    const byAdmin = await admin.post('/core/v2/categories', payload, withKey(key));
    expect(byAdmin.statusCode).toBe(201);
    expect(byAdmin.headers['idempotent-replayed']).toBeUndefined();
    expect(byAdmin.json().data.id).not.toBe(mine.json().data.id);
    // Another media: its own record, never the first media's answer.
    const theirs = client(ctx.app, other.keys.editor);
    const inOther = await theirs.post('/core/v2/categories', payload, withKey(key));
    expect(inOther.statusCode).toBe(201);
    expect(inOther.headers['idempotent-replayed']).toBeUndefined();
    expect(await countNamed(editor, payload.locales[0]!.name)).toBe(2);
    expect(await countNamed(theirs, payload.locales[0]!.name)).toBe(1);
  });

  it('stores a 4xx of the handler and replays it', async () => {
    const key = randomUUID();
    // German is not a language of the media: the service refuses it.
    const payload = { locales: [{ locale: 'de', name: 'Politik' }] };
    const first = await editor.post('/core/v2/categories', payload, withKey(key));
    expect(first.statusCode).toBeGreaterThanOrEqual(400);
    expect(first.statusCode).toBeLessThan(500);
    const again = await editor.post('/core/v2/categories', payload, withKey(key));
    expect(again.statusCode).toBe(first.statusCode);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
  });

  it('forgets a key after 24 hours: the request runs again, and expired rows are pruned', async () => {
    const key = randomUUID();
    const payload = body();
    const first = await editor.post('/core/v2/categories', payload, withKey(key));
    const { db } = ctx.database;
    await db.update(idempotencyKeys).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(idempotencyKeys.key, key));
    const again = await editor.post('/core/v2/categories', payload, withKey(key));
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(again.json().data.id).not.toBe(first.json().data.id);
    expect(await countNamed(editor, payload.locales[0]!.name)).toBe(2);
    // The claim renewed the row for another day.
    const [row] = await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(row!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);

    const stale = randomUUID();
    await editor.post('/core/v2/categories', body(), withKey(stale));
    await db.update(idempotencyKeys).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(idempotencyKeys.key, stale));
    await ctx.app.idempotencyKeys.prune();
    expect(await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, stale))).toEqual([]);
    expect(await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key))).toHaveLength(1);
  });

  it('takes over a claim left unfinished for five minutes (an instance that died mid-request)', async () => {
    const key = randomUUID();
    const payload = body();
    const { db } = ctx.database;
    // The editor's scope, as a request of its own stored it.
    const probe = randomUUID();
    await editor.post('/core/v2/categories', body(), withKey(probe));
    const [mine] = await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, probe));
    expect(mine!.mediaId).toBe(media.mediaId);
    expect(mine!.caller).toMatch(/^key:/);
    await db.insert(idempotencyKeys).values({
      mediaId: mine!.mediaId,
      caller: mine!.caller,
      key,
      fingerprint: 'unknown',
      createdAt: new Date(Date.now() - 4 * 60_000),
      expiresAt: new Date(Date.now() + 3600_000),
    });
    expectError(await editor.post('/core/v2/categories', payload, withKey(key)), 422, 'idempotency_key_reused');
    await db.update(idempotencyKeys).set({ createdAt: new Date(Date.now() - 6 * 60_000) }).where(eq(idempotencyKeys.key, key));
    const taken = await editor.post('/core/v2/categories', payload, withKey(key));
    expect(taken.statusCode, taken.body).toBe(201);
    expect(taken.headers['idempotent-replayed']).toBeUndefined();
  });

  it('releases the key when the first request fails with a 5xx, so a retry runs', async () => {
    const key = randomUUID();
    const payload = body();
    const { db } = ctx.database;
    await db.execute(sql`alter table category_locales rename to category_locales_away`);
    let failed;
    try {
      failed = await editor.post('/core/v2/categories', payload, withKey(key));
    } finally {
      await db.execute(sql`alter table category_locales_away rename to category_locales`);
    }
    expect(failed.statusCode, failed.body).toBeGreaterThanOrEqual(500);
    expect(await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key))).toEqual([]);
    const retry = await editor.post('/core/v2/categories', payload, withKey(key));
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(await countNamed(editor, payload.locales[0]!.name)).toBe(1);
  });

  it('holds on uploads: the multipart request is replayed, another file with the key is a 422', async () => {
    const key = randomUUID();
    const { payload, headers } = fileForm(await jpeg(40, 30, '#102030'), 'photo.jpg', 'image/jpeg');
    const first = await editor.post('/core/v2/assets', payload, { ...headers, ...withKey(key) });
    expect(first.statusCode, first.body).toBe(201);
    const again = await editor.post('/core/v2/assets', payload, { ...headers, ...withKey(key) });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    const bigger = fileForm(await jpeg(400, 300, '#102030'), 'photo.jpg', 'image/jpeg');
    expectError(await editor.post('/core/v2/assets', bigger.payload, { ...bigger.headers, ...withKey(key) }), 422, 'idempotency_key_reused');
  });

  it('holds on Reader POSTs (scoped to the token subject) but not on the token endpoint', async () => {
    const creds = await registerClient(ctx.app, media.keys.admin);
    const token = (await clientToken(ctx.app, creds)).access_token;
    const reader = readerClient(ctx.app, media.mediaId, token);
    const key = randomUUID();
    // A list that does not exist: the 404 is kept and replayed like a success.
    const subscribe = { mailing_list_id: randomUUID(), email: `idem-${randomUUID().slice(0, 8)}@example.test` };
    const first = await reader.post('/api/media/v1/newsletter/subscriptions', subscribe, withKey(key));
    expectError(first, 404);
    const again = await reader.post('/api/media/v1/newsletter/subscriptions', subscribe, withKey(key));
    expect(again.statusCode).toBe(404);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);

    const grant = `/api/media/v1/oauth/token?${new URLSearchParams({ grant_type: 'client_credentials', client_id: creds.clientId, client_secret: creds.clientSecret })}`;
    const a = await ctx.app.inject({ method: 'POST', url: grant, headers: withKey(key) });
    const b = await ctx.app.inject({ method: 'POST', url: grant, headers: withKey(key) });
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(b.json().access_token).not.toBe(a.json().access_token);
  });

  it('is documented: the header parameter, the replay header and the 409/422 answers', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const create = doc.paths['/core/v2/categories'].post;
    expect(create.parameters).toContainEqual(expect.objectContaining({ in: 'header', name: 'idempotency-key', required: false }));
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['201', '400', '409', '422']));
    expect(create.responses['201'].headers['Idempotent-Replayed']).toEqual({ $ref: '#/components/headers/Idempotent-Replayed' });
    // Not where a replay makes no sense: fresh tokens, or a secret shown once that a stored answer would keep at rest.
    for (const path of ['/api/media/v1/oauth/token', '/core/v2/api-keys', '/core/v2/oauth/clients']) {
      expect((doc.paths[path].post.parameters ?? []).map((p: { name: string }) => p.name), path).not.toContain('idempotency-key');
    }
    const reader = doc.paths['/api/media/v1/newsletter/subscriptions'].post;
    expect(reader.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['x-service-media-id', 'idempotency-key']));
  });
});
