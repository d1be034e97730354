import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precondition } from '../../src/shared/http/conditional.js';
import { systemContext } from '../../src/shared/http/route.js';
import { type TestContext, createTestApp } from '../setup/app.js';
import { expectError } from '../setup/expect.js';
import { type Client, type SeededMedia, client, createCategory, seedMedia } from '../setup/factories.js';
import { type JwksTestProvider, startJwksProvider } from '../setup/identity-providers.js';
import { clientToken, readerClient, readersOf, registerClient, registerProvider } from '../setup/reader.js';

let ctx: TestContext;
let media: SeededMedia;
let editor: Client;
let jwks: JwksTestProvider;
let appToken: string;

beforeAll(async () => {
  ctx = await createTestApp({ rateLimit: { backoffice: 10_000, reader: 10_000, anonymous: 10_000, token: 10_000 } });
  media = await seedMedia(ctx.app);
  editor = client(ctx.app, media.keys.editor);
  jwks = await startJwksProvider();
  await registerProvider(ctx.app, media.keys.admin, jwks.registration);
  appToken = (await clientToken(ctx.app, await registerClient(ctx.app, media.keys.admin))).access_token;
});
afterAll(async () => {
  await ctx?.close();
  await jwks?.close();
});

const STRONG = /^"[A-Za-z0-9_-]{43}"$/;

describe('conditional reads (ETag, If-None-Match)', () => {
  it('Backoffice: a record and a list carry a strong ETag and answer 304 to a matching If-None-Match', async () => {
    const category = await createCategory(editor);
    for (const url of [`/core/v2/categories/${category.id}`, '/core/v2/categories?limit=10']) {
      const res = await editor.get(url);
      expect(res.statusCode).toBe(200);
      expect(res.headers.etag).toMatch(STRONG);
      expect(res.headers['cache-control']).toBe('private, no-cache');
      const again = await editor.get(url, { 'if-none-match': res.headers.etag as string });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers.etag).toBe(res.headers.etag);
      // A list of tags, and the weak form of this one, match too; another tag does not.
      expect((await editor.get(url, { 'if-none-match': `"other", W/${res.headers.etag}` })).statusCode).toBe(304);
      expect((await editor.get(url, { 'if-none-match': '"other"' })).statusCode).toBe(200);
    }
    // An error is no representation: no ETag.
    const missing = await editor.get(`/core/v2/categories/${randomUUID()}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.headers.etag).toBeUndefined();
  });

  it('Reader: published data is public for a minute (stale-while-revalidate), 304 to If-None-Match', async () => {
    await createCategory(editor);
    const app = readerClient(ctx.app, media.mediaId, appToken);
    const res = await app.get('/api/media/v1/categories');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=60, stale-while-revalidate=300');
    expect(res.headers.vary).toContain('x-service-media-id');
    expect(res.headers.etag).toMatch(STRONG);
    const again = await app.get('/api/media/v1/categories', { 'if-none-match': res.headers.etag as string });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers['cache-control']).toBe('public, max-age=60, stale-while-revalidate=300');
    // Errors are never stored.
    expect((await app.get(`/api/media/v1/categories/${randomUUID()}`)).headers['cache-control']).toBe('no-store');
  });

  it("Reader: a signed-in reader's answers and account data are private, no-store", async () => {
    const { api } = await readersOf(ctx.app, jwks, media.mediaId).signIn(`cond-${randomUUID()}`, { email: 'cond@example.test' });
    const mine = await api.get('/api/media/v1/accounts/me/topics');
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.headers['cache-control']).toBe('private, no-store');
    expect(mine.headers.etag).toMatch(STRONG);
    expect((await api.get('/api/media/v1/accounts/me/topics', { 'if-none-match': mine.headers.etag as string })).statusCode).toBe(304);
    // Published data read with a reader's token: private too.
    expect((await api.get('/api/media/v1/categories')).headers['cache-control']).toBe('private, no-store');
  });
});

describe('optimistic locking (If-Match) on Backoffice writes', () => {
  it('PATCH: 412 precondition_failed with a stale ETag, success with the current one (whose answer names the new ETag)', async () => {
    const category = await createCategory(editor);
    const url = `/core/v2/categories/${category.id}`;
    const read = await editor.get(url);
    const v1 = read.headers.etag as string;
    const name = (s: string) => ({ locales: [{ locale: 'en', name: s }] });

    const first = await editor.patch(url, name(`First ${randomUUID().slice(0, 6)}`), { 'if-match': v1 });
    expect(first.statusCode, first.body).toBe(200);
    const v2 = first.headers.etag as string;
    expect(v2).toMatch(STRONG);
    expect(v2).not.toBe(v1);
    expect((await editor.get(url)).headers.etag).toBe(v2);

    // A second editor still holding v1 is refused; the record keeps the first editor's change.
    const stale = await editor.patch(url, name('Second'), { 'if-match': v1 });
    expectError(stale, 412, 'precondition_failed');
    expect((await editor.get(url)).json().data).toEqual(first.json().data);

    expect((await editor.patch(url, name('Third'), { 'if-match': `"x", ${v2}` })).statusCode).toBe(200);
    expect((await editor.patch(url, name('Fourth'), { 'if-match': '*' })).statusCode).toBe(200);
    // A weak tag never matches for If-Match (strong comparison).
    const current = (await editor.get(url)).headers.etag as string;
    expectError(await editor.patch(url, name('Fifth'), { 'if-match': `W/${current}` }), 412, 'precondition_failed');
    // Without If-Match, writes go through as before.
    expect((await editor.patch(url, name('Sixth'))).statusCode).toBe(200);
  });

  it('PATCH: of two writes under the same ETag at once, one wins and the other is a 412 (checked under the row lock)', async () => {
    const category = await createCategory(editor);
    const url = `/core/v2/categories/${category.id}`;
    const etag = (await editor.get(url)).headers.etag as string;
    const answers = await Promise.all(
      ['A', 'B', 'C'].map((s) => editor.patch(url, { locales: [{ locale: 'en', name: `Race ${s} ${randomUUID().slice(0, 6)}` }] }, { 'if-match': etag })),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 412, 412]);
  });

  it('the write itself checks the version under the row lock: a change between the check and the lock is a 412', async () => {
    // What a request sees when another write lands after its If-Match matched: the version it
    // matched (updated_at) is no longer the locked row's, and the update and the delete refuse.
    const category = await createCategory(editor);
    const matched = { id: category.id, updatedAt: category.updated_at };
    await editor.patch(`/core/v2/categories/${category.id}`, { locales: [{ locale: 'en', name: `Meanwhile ${randomUUID().slice(0, 6)}` }] });
    const { categories } = ctx.app.services.core;
    const sys = systemContext(media.mediaId);
    await expect(precondition.run(matched, () => categories.update(sys, category.id, { locales: [{ locale: 'en', name: 'Lost' }] }))).rejects.toMatchObject({
      statusCode: 412,
      code: 'precondition_failed',
    });
    await expect(precondition.run(matched, () => categories.remove(sys, category.id))).rejects.toMatchObject({ statusCode: 412 });
    const current = (await editor.get(`/core/v2/categories/${category.id}`)).json().data;
    expect(current.locales[0].name).toMatch(/^Meanwhile/);
    // The version that is current passes.
    await expect(precondition.run({ id: category.id, updatedAt: current.updated_at }, () => categories.remove(sys, category.id))).resolves.toBeUndefined();
  });

  it('PUT: 412 with a stale ETag, success with the current one', async () => {
    const ads = client(ctx.app, media.keys.admin);
    const created = await ads.post('/ad-ops/v2/ad-categories', { name: `Ads ${randomUUID().slice(0, 8)}` });
    expect(created.statusCode, created.body).toBe(201);
    const url = `/ad-ops/v2/ad-categories/${created.json().data.id}`;
    const v1 = created.headers.etag as string;
    expect((await ads.get(url)).headers.etag).toBe(v1);
    const ok = await ads.put(url, { name: `Renamed ${randomUUID().slice(0, 8)}` }, { 'if-match': v1 });
    expect(ok.statusCode, ok.body).toBe(200);
    expectError(await ads.put(url, { name: 'Again' }, { 'if-match': v1 }), 412, 'precondition_failed');
    expect((await ads.get(url)).json().data.name).toBe(ok.json().data.name);
  });

  it('DELETE: 412 with a stale ETag (the record stays), 204 with the current one', async () => {
    const category = await createCategory(editor);
    const url = `/core/v2/categories/${category.id}`;
    const v1 = (await editor.get(url)).headers.etag as string;
    const changed = await editor.patch(url, { locales: [{ locale: 'en', name: `Changed ${randomUUID().slice(0, 6)}` }] });
    expectError(await editor.delete(url, { 'if-match': v1 }), 412, 'precondition_failed');
    expect((await editor.get(url)).statusCode).toBe(200);
    const gone = await editor.delete(url, { 'if-match': changed.headers.etag as string });
    expect(gone.statusCode).toBe(204);
    expect((await editor.get(url)).statusCode).toBe(404);
    // A record that is not there is a 404 whatever the condition.
    expectError(await editor.delete(`/core/v2/categories/${randomUUID()}`, { 'if-match': '*' }), 404);
  });

  it('is documented: If-Match on updates and deletes with their 412, ETag and Cache-Control on reads', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    for (const op of [doc.paths['/core/v2/categories/{id}'].patch, doc.paths['/core/v2/categories/{id}'].delete, doc.paths['/ad-ops/v2/ad-categories/{id}'].put]) {
      expect(op.parameters).toContainEqual(expect.objectContaining({ in: 'header', name: 'if-match', required: false }));
      expect(op.responses).toHaveProperty('412');
    }
    const get = doc.paths['/core/v2/categories/{id}'].get;
    expect(Object.keys(get.responses['200'].headers)).toEqual(expect.arrayContaining(['ETag', 'Cache-Control']));
    const reader = doc.paths['/api/media/v1/categories'].get;
    expect(Object.keys(reader.responses['200'].headers)).toEqual(expect.arrayContaining(['ETag', 'Cache-Control']));
  });
});
