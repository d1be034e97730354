import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import xxhash from 'xxhash-wasm';
import { type TestContext, createTestApp } from '../setup/app.js';
import { expectError } from '../setup/expect.js';
import { type CategoryWire, type Client, type SeededMedia, client, createCategory, seedMedia } from '../setup/factories.js';
import { createBlock, createContent, docsFixture } from '../setup/docs.js';
import { type JwksTestProvider, startJwksProvider } from '../setup/identity-providers.js';
import { addSectionContent, createIssue, createIssueType, createSection } from '../setup/magazines.js';
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

/** A strong tag: xxHash64 in 16 hex digits, marked `u` when of UTF-8 bytes (etagOf). */
const STRONG = /^"u?[0-9a-f]{16}"$/;
const { h64Raw } = await xxhash();
/** The reference: the library's one-shot hash of the whole body's bytes, with none of etagOf's buffers. */
const xxh64 = (data: string | Buffer, encoding?: 'latin1') =>
  h64Raw(typeof data === 'string' ? Buffer.from(data, encoding ?? 'utf8') : data).toString(16).padStart(16, '0');

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

  it('the ETag is the xxHash64 of the characters: one byte each within Latin-1, else the UTF-8 bytes sent, marked u', async () => {
    // ASCII: the bytes sent.
    const ascii = await createCategory(editor, { locales: [{ locale: 'en', name: 'Economy' }] });
    const plain = await editor.get(`/core/v2/categories/${ascii.id}`);
    expect(plain.headers.etag).toBe(`"${xxh64(plain.rawPayload)}"`);
    // Latin-1 (French): its characters as one byte each, not the UTF-8 bytes sent.
    const french = await createCategory(editor, { locales: [{ locale: 'fr', name: 'Économie et société' }] });
    const latin = await editor.get(`/core/v2/categories/${french.id}`);
    expect(latin.rawPayload.length).toBeGreaterThan(latin.body.length);
    expect(latin.headers.etag).toBe(`"${xxh64(latin.body, 'latin1')}"`);
    expect(latin.headers.etag).not.toBe(`"${xxh64(latin.rawPayload)}"`);
    expect((await editor.get(`/core/v2/categories/${french.id}`, { 'if-none-match': latin.headers.etag as string })).statusCode).toBe(304);
    // If-Match names the same tag a read sent (the write reads its version the same way).
    const write = await editor.patch(`/core/v2/categories/${french.id}`, { locales: [{ locale: 'fr', name: 'Economie et société' }] }, { 'if-match': latin.headers.etag as string });
    expect(write.statusCode, write.body).toBe(200);
    const stale = await editor.patch(`/core/v2/categories/${french.id}`, { is_archived: true }, { 'if-match': latin.headers.etag as string });
    expectError(stale, 412, 'precondition_failed');
    // The same name written otherwise is another representation, another tag.
    const changed = await editor.get(`/core/v2/categories/${french.id}`);
    expect(changed.headers.etag).toBe(`"${xxh64(changed.body, 'latin1')}"`);
    expect(changed.headers.etag).not.toBe(latin.headers.etag);
  });

  it('the ETag is the xxHash64 of the bytes sent, and Content-Length their count, with characters outside ASCII', async () => {
    const category = await createCategory(editor, { locales: [{ locale: 'en', name: 'Économie — 東京 😀' }] });
    const res = await editor.get(`/core/v2/categories/${category.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.locales[0].name).toBe('Économie — 東京 😀');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-length']).toBe(String(res.rawPayload.length));
    expect(res.rawPayload.length).toBeGreaterThan(res.body.length);
    expect(res.headers.etag).toBe(`"u${xxh64(res.rawPayload)}"`);

    // A large answer (sent as the bytes its ETag hashed): the same rules.
    const phrase = 'Économie, société — 東京 😀 ';
    const description = phrase.repeat(Math.floor(2000 / phrase.length));
    for (let i = 0; i < 5; i++) {
      await createCategory(editor, { locales: [{ locale: 'en', name: `Long ${i}`, description }, { locale: 'fr', name: `Longue ${i}`, description }] });
    }
    const list = await editor.get('/core/v2/categories?limit=100');
    expect(list.statusCode).toBe(200);
    expect(list.body.length).toBeGreaterThan(16_384);
    expect(list.json().data.filter((c: CategoryWire) => c.locales[0]?.description === description)).toHaveLength(5);
    expect(list.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(list.headers['content-length']).toBe(String(list.rawPayload.length));
    expect(list.headers.etag).toBe(`"u${xxh64(list.rawPayload)}"`);
    expect((await editor.get('/core/v2/categories?limit=100', { 'if-none-match': list.headers.etag as string })).statusCode).toBe(304);
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

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'the write compares the version holding the row lock: a change committed while it waited for the lock is a 412',
    async () => {
      // Another transaction holds the category's row and changes it; the conditional writes sent
      // meanwhile, under the version read before that change, wait for the row and then refuse.
      const category = await createCategory(editor);
      const url = `/core/v2/categories/${category.id}`;
      const v1 = (await editor.get(url)).headers.etag as string;
      const holder = await ctx.database.pool!.connect();
      try {
        await holder.query('begin');
        await holder.query('select 1 from categories where id = $1 for update', [category.id]);
        await holder.query('update categories set is_archived = true, updated_at = now() where id = $1', [category.id]);
        const patch = editor.patch(url, { locales: [{ locale: 'en', name: 'Lost' }] }, { 'if-match': v1 });
        const remove = editor.delete(url, { 'if-match': v1 });
        // Both are waiting on the row: neither has answered while it is held.
        const early = await Promise.race([patch.then(() => 'answered'), remove.then(() => 'answered'), new Promise((r) => setTimeout(() => r('waiting'), 300))]);
        expect(early).toBe('waiting');
        await holder.query('commit');
        expectError(await patch, 412, 'precondition_failed');
        expectError(await remove, 412, 'precondition_failed');
      } finally {
        holder.release();
      }
      const now = (await editor.get(url)).json().data;
      expect(now.is_archived).toBe(true);
      expect(now.locales[0].name).toBe(category.locales[0]!.name);
      // A version that is current passes.
      expect((await editor.delete(url, { 'if-match': (await editor.get(url)).headers.etag as string })).statusCode).toBe(204);
    },
  );

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

describe('If-Match on every Backoffice write: the version is what the GET of the path, or of the nearest path above it, answers', () => {
  it('a set (PUT metadata): the GET of the set names the version; a stale one is a 412 that changes nothing', async () => {
    const content = await createContent(editor, await docsFixture(editor, media.workspaceId));
    const url = `/docs/v2/contents/${content.id}/metadata`;
    const v1 = (await editor.get(url)).headers.etag as string;
    expect(v1).toMatch(STRONG);
    const ok = await editor.put(url, { metadata: [{ key: 'source', value: 'wire' }] }, { 'if-match': v1 });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toEqual([{ key: 'source', value: 'wire' }]);
    // The answer of the write is the set's new version: the GET names the same tag.
    const v2 = ok.headers.etag as string;
    expect((await editor.get(url)).headers.etag).toBe(v2);
    expectError(await editor.put(url, { metadata: [] }, { 'if-match': v1 }), 412, 'precondition_failed');
    expect((await editor.get(url)).json().data).toEqual([{ key: 'source', value: 'wire' }]);
    expect((await editor.put(url, { metadata: [] }, { 'if-match': v2 })).statusCode).toBe(200);
  });

  it('a part without a GET of its own (PATCH and DELETE of a block): the version is its set\'s', async () => {
    const content = await createContent(editor, await docsFixture(editor, media.workspaceId));
    const block = await createBlock(editor, content.id, { locale: 'en', kind: 'richtext', content_html: '<p>One</p>' });
    const set = `/docs/v2/contents/${content.id}/blocks`;
    const v1 = (await editor.get(set)).headers.etag as string;
    const patched = await editor.patch(`${set}/${block.id}`, { kind: 'richtext', content_html: '<p>Two</p>' }, { 'if-match': v1 });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().data).toMatchObject({ id: block.id, kind: 'richtext', content_html: '<p>Two</p>' });
    expectError(await editor.patch(`${set}/${block.id}`, { kind: 'richtext', content_html: '<p>Lost</p>' }, { 'if-match': v1 }), 412, 'precondition_failed');
    expectError(await editor.delete(`${set}/${block.id}`, { 'if-match': v1 }), 412, 'precondition_failed');
    expect((await editor.get(set)).json().data.map((b: { id: string; content_html: string }) => [b.id, b.content_html])).toEqual([[block.id, '<p>Two</p>']]);
    const v2 = (await editor.get(set)).headers.etag as string;
    expect((await editor.delete(`${set}/${block.id}`, { 'if-match': v2 })).statusCode).toBe(204);
    expect((await editor.get(set)).json().data).toEqual([]);
  });

  it('concurrent replacements of a set under one version: one wins, the others are 412s (checked again under the record lock)', async () => {
    const content = await createContent(editor, await docsFixture(editor, media.workspaceId));
    const url = `/docs/v2/contents/${content.id}/metadata`;
    const etag = (await editor.get(url)).headers.etag as string;
    const answers = await Promise.all(['a', 'b', 'c'].map((v) => editor.put(url, { metadata: [{ key: 'source', value: v }] }, { 'if-match': etag })));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 412, 412]);
    const winner = answers.find((r) => r.statusCode === 200)!.json().data;
    expect((await editor.get(url)).json().data).toEqual(winner);
  });

  it('slots of a section block: the GET of the slots is their version', async () => {
    const issue = await createIssue(editor, media.workspaceId, (await createIssueType(editor)).id);
    const section = await createSection(editor, issue.id);
    const [block] = (await editor.put(`/magazines/v2/sections/${section.id}/blocks`, { blocks: [{ kind: 'grid', position: 0 }] })).json().data as Array<{ id: string }>;
    const content = await createContent(editor, await docsFixture(editor, media.workspaceId));
    const url = `/magazines/v2/section-blocks/${block!.id}/slots`;
    const v1 = (await editor.get(url)).headers.etag as string;
    const ok = await editor.put(url, { slots: [{ position: 0, content_id: content.id }] }, { 'if-match': v1 });
    expect(ok.statusCode, ok.body).toBe(200);
    expectError(await editor.put(url, { slots: [] }, { 'if-match': v1 }), 412, 'precondition_failed');
    expect((await editor.get(url)).json().data.map((x: { content_id: string }) => x.content_id)).toEqual([content.id]);
    // The section's block set is another path with its own version.
    const blocks = `/magazines/v2/sections/${section.id}/blocks`;
    expectError(await editor.put(blocks, { blocks: [] }, { 'if-match': v1 }), 412, 'precondition_failed');
    expect((await editor.put(blocks, { blocks: [{ id: block!.id, kind: 'hero', position: 0 }] }, { 'if-match': (await editor.get(blocks)).headers.etag as string })).statusCode).toBe(200);
  });

  it('a write whose path has no GET above it matches only *', async () => {
    const issue = await createIssue(editor, media.workspaceId, (await createIssueType(editor)).id);
    const section = await createSection(editor, issue.id);
    const content = await createContent(editor, await docsFixture(editor, media.workspaceId));
    const placed = await addSectionContent(editor, issue.id, section.id, content.id);
    expectError(await editor.delete(`/magazines/v2/section-contents/${placed.id}`, { 'if-match': '"anything"' }), 412, 'precondition_failed');
    const listed = await editor.get(`/magazines/v2/issues/${issue.id}/section-contents`);
    expect(listed.json().data.map((x: { id: string }) => x.id)).toContain(placed.id);
    expect((await editor.delete(`/magazines/v2/section-contents/${placed.id}`, { 'if-match': '*' })).statusCode).toBe(204);
  });

  it('the media itself: PATCH /core/v2/media under the ETag of its GET', async () => {
    const admin = client(ctx.app, media.keys.admin);
    const v1 = (await admin.get('/core/v2/media')).headers.etag as string;
    const name = `Media ${randomUUID().slice(0, 6)}`;
    const ok = await admin.patch('/core/v2/media', { name }, { 'if-match': v1 });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.name).toBe(name);
    expectError(await admin.patch('/core/v2/media', { name: 'Lost' }, { 'if-match': v1 }), 412, 'precondition_failed');
    expect((await admin.get('/core/v2/media')).json().data.name).toBe(name);
  });

  it('every Backoffice PUT, PATCH and DELETE documents If-Match and its 412', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const writes = ctx.app.routeTable.filter((r) => r.interface === 'backoffice' && ['PUT', 'PATCH', 'DELETE'].includes(r.method));
    expect(writes.length).toBeGreaterThan(80);
    for (const w of writes) {
      const op = doc.paths[w.url.replace(/:(\w+)/g, '{$1}')][w.method.toLowerCase()];
      expect(op.parameters, `${w.method} ${w.url}`).toContainEqual(expect.objectContaining({ in: 'header', name: 'if-match', required: false }));
      expect(op.responses, `${w.method} ${w.url}`).toHaveProperty('412');
    }
  });
});
