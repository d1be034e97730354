import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { expectError } from '../../setup/expect.js';
import { type Client, type SeededMedia, client, seedMedia } from '../../setup/factories.js';
import { type ContentWire, type DocsFixture, createBlock, createContent, docsFixture } from '../../setup/docs.js';
import { clientToken, readerClient, registerClient } from '../../setup/reader.js';

let ctx: TestContext;
let media: SeededMedia;
let other: SeededMedia;
let api: Client;
let fx: DocsFixture;
let reader: ReturnType<typeof readerClient>;
let otherReader: ReturnType<typeof readerClient>;
let published: ContentWire;
let draft: ContentWire;
let scheduled: ContentWire;
let unpublished: ContentWire;
let questionId: string;

const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
const TOMORROW = () => inMinutes(24 * 60);

/** A preview link of a content: its token. */
async function linkOf(contentId: string, body: Record<string, unknown> = {}): Promise<{ id: string; token: string; expires_at: string }> {
  const res = await api.post(`/docs/v2/contents/${contentId}/preview-links`, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

const previewOf = (token: string) => ({ 'x-preview-token': token });
const ids = (res: { json(): { data: Array<{ id: string }> } }) => res.json().data.map((c) => c.id);

/** What every preview answer says of itself, in its headers and meta. */
function expectPreviewAnswer(res: Awaited<ReturnType<typeof reader.get>>) {
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['cache-control']).toBe('private, no-store');
  expect(res.headers['x-robots-tag']).toBe('noindex');
  expect(res.headers['surrogate-key']).toBeUndefined();
  expect(res.headers.vary ?? '').not.toContain('x-service-media-id');
  expect(res.json().meta.preview).toBe(true);
}

beforeAll(async () => {
  ctx = await createTestApp();
  media = await seedMedia(ctx.app, { locales: ['en', 'fr'] });
  other = await seedMedia(ctx.app);
  api = client(ctx.app, media.keys.editor);
  fx = await docsFixture(api, media.workspaceId);
  const token = (await clientToken(ctx.app, await registerClient(ctx.app, media.keys.admin, ['media:read']))).access_token;
  reader = readerClient(ctx.app, media.mediaId, token);
  const otherToken = (await clientToken(ctx.app, await registerClient(ctx.app, other.keys.admin, ['media:read']))).access_token;
  otherReader = readerClient(ctx.app, other.mediaId, otherToken);
  published = await createContent(api, fx, { published_at: inMinutes(-10), locales: [{ locale: 'en', title_html: 'Out now' }] });
  draft = await createContent(api, fx, { status_id: fx.statuses.draft, published_at: null, locales: [{ locale: 'en', title_html: 'Draft' }] });
  scheduled = await createContent(api, fx, { published_at: TOMORROW(), locales: [{ locale: 'en', title_html: 'Tomorrow' }] });
  unpublished = await createContent(api, fx, {
    status_id: fx.statuses.unpublished,
    published_at: inMinutes(-60),
    locales: [{ locale: 'en', title_html: 'Withdrawn' }],
  });
  await createBlock(api, draft.id, { locale: 'en', kind: 'richtext', content_html: '<p>Draft body</p>' });
  questionId = (await createBlock(api, draft.id, { locale: 'en', kind: 'question', title: 'Tea?', choices: [{ label: 'Yes' }, { label: 'No' }] })).id;
});
afterAll(() => ctx.close());

describe('POST /docs/v2/contents/{id}/preview-links', () => {
  it('answers 201 with the token once and an expiry an hour away by default', async () => {
    const before = Date.now();
    const res = await api.post(`/docs/v2/contents/${draft.id}/preview-links`, {});
    expect(res.statusCode, res.body).toBe(201);
    const { data } = res.json();
    expect(Object.keys(data).sort()).toEqual(['expires_at', 'id', 'token']);
    expect(data.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(data.token).toMatch(/^mpp_[A-Za-z0-9_-]{43}$/);
    const expires = Date.parse(data.expires_at);
    expect(expires).toBeGreaterThanOrEqual(before + 3600_000 - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 3600_000 + 1000);
    // Only the token's hash is stored.
    const rows = await ctx.database.db.execute(sql`select token_hash from preview_tokens where id = ${data.id}`);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(data.token);
  });

  it('takes expires_in between 60 and 604800 seconds, and refuses anything else in the body', async () => {
    const link = await linkOf(draft.id, { expires_in: 60 });
    expect(Date.parse(link.expires_at)).toBeLessThanOrEqual(Date.now() + 61_000);
    expectError(await api.post(`/docs/v2/contents/${draft.id}/preview-links`, { expires_in: 59 }), 400, 'validation_failed');
    expectError(await api.post(`/docs/v2/contents/${draft.id}/preview-links`, { expires_in: 604_801 }), 400, 'validation_failed');
    expectError(await api.post(`/docs/v2/contents/${draft.id}/preview-links`, { token: 'mine' }), 400, 'validation_failed');
  });

  it('is 404 for an unknown content or one of another media, 403 for a viewer, 401 without a key', async () => {
    expectError(await api.post(`/docs/v2/contents/${randomUUID()}/preview-links`, {}), 404, 'content_not_found');
    const foreign = await createContent(client(ctx.app, other.keys.editor), await docsFixture(client(ctx.app, other.keys.editor), other.workspaceId));
    expectError(await api.post(`/docs/v2/contents/${foreign.id}/preview-links`, {}), 404, 'content_not_found');
    expectError(await client(ctx.app, media.keys.viewer).post(`/docs/v2/contents/${draft.id}/preview-links`, {}), 403);
    expectError(await client(ctx.app).post(`/docs/v2/contents/${draft.id}/preview-links`, {}), 401);
  });
});

describe('GET and DELETE /docs/v2/contents/{id}/preview-links', () => {
  it('lists the links newest first without their tokens, and a revoked one keeps its first revocation time', async () => {
    const first = await linkOf(unpublished.id);
    const second = await linkOf(unpublished.id, { expires_in: 600 });
    const del = await api.delete(`/docs/v2/contents/${unpublished.id}/preview-links/${first.id}`);
    expect(del.statusCode, del.body).toBe(204);
    const again = await api.delete(`/docs/v2/contents/${unpublished.id}/preview-links/${first.id}`);
    expect(again.statusCode).toBe(204);
    const res = await client(ctx.app, media.keys.viewer).get(`/docs/v2/contents/${unpublished.id}/preview-links`);
    expect(res.statusCode, res.body).toBe(200);
    const { data, meta } = res.json();
    expect(data.map((l: { id: string }) => l.id)).toEqual([second.id, first.id]);
    expect(data[0]).toEqual({ id: second.id, content_id: unpublished.id, expires_at: second.expires_at, revoked_at: null, inserted_at: expect.any(String) });
    expect(data[1].revoked_at).toEqual(expect.any(String));
    expect(res.body).not.toContain(second.token);
    expect(meta.next).toBeNull();
  });

  it('is 404 revoking a link of another content or an unknown one', async () => {
    const link = await linkOf(unpublished.id);
    expectError(await api.delete(`/docs/v2/contents/${draft.id}/preview-links/${link.id}`), 404, 'preview_link_not_found');
    expectError(await api.delete(`/docs/v2/contents/${draft.id}/preview-links/${randomUUID()}`), 404, 'preview_link_not_found');
  });
});

describe('the Reader with a preview link', () => {
  it('opens a draft, a scheduled and an unpublished content with their token, and nothing else opens them', async () => {
    for (const content of [draft, scheduled, unpublished]) {
      expectError(await reader.get(`/api/media/v1/contents/${content.id}`), 404, 'content_not_found');
      const { token } = await linkOf(content.id);
      const res = await reader.get(`/api/media/v1/contents/${content.id}?locale=en`, previewOf(token));
      expectPreviewAnswer(res);
      expect(res.json().data.id).toBe(content.id);
      // The query parameter works as the header does (a link opened in a browser).
      const byQuery = await reader.get(`/api/media/v1/contents/${content.id}?preview_token=${token}`);
      expectPreviewAnswer(byQuery);
      expect(byQuery.json().data.id).toBe(content.id);
    }
  });

  it('serves the content as it is now, with its blocks, and its question results', async () => {
    const { token } = await linkOf(draft.id);
    const res = await reader.get(`/api/media/v1/contents/${draft.id}?locale=en`, previewOf(token));
    expectPreviewAnswer(res);
    expect(res.json().data.blocks.map((b: { kind: string }) => b.kind)).toEqual(['richtext', 'question']);
    expect(res.json().data).toMatchObject({ id: draft.id, title_text: 'Draft', published_at: null });
    const results = await reader.get(`/api/media/v1/contents/${draft.id}/questions/${questionId}/results`, previewOf(token));
    expectPreviewAnswer(results);
    expect(results.json().data).toMatchObject({ question_id: questionId, title: 'Tea?', total: 0 });
    expectError(await reader.get(`/api/media/v1/contents/${draft.id}/questions/${questionId}/results`), 404, 'question_not_found');
  });

  it('opens only its own content: another content, a list or a search is 401 preview_token_invalid', async () => {
    const { token } = await linkOf(draft.id);
    expectError(await reader.get(`/api/media/v1/contents/${scheduled.id}`, previewOf(token)), 401, 'preview_token_invalid');
    expectError(await reader.get(`/api/media/v1/contents/${published.id}`, previewOf(token)), 401, 'preview_token_invalid');
    expectError(await reader.get('/api/media/v1/contents', previewOf(token)), 401, 'preview_token_invalid');
    expectError(await reader.get('/api/media/v1/categories', previewOf(token)), 401, 'preview_token_invalid');
  });

  it('never opens a deleted content', async () => {
    const doomed = await createContent(api, fx, { status_id: fx.statuses.draft, published_at: null });
    const { token } = await linkOf(doomed.id);
    expect((await api.delete(`/docs/v2/contents/${doomed.id}`)).statusCode).toBe(204);
    expectError(await reader.get(`/api/media/v1/contents/${doomed.id}`, previewOf(token)), 404, 'content_not_found');
  });

  it('is 401 preview_token_invalid once revoked or expired, or unknown', async () => {
    const revoked = await linkOf(draft.id);
    expectPreviewAnswer(await reader.get(`/api/media/v1/contents/${draft.id}`, previewOf(revoked.token)));
    await api.delete(`/docs/v2/contents/${draft.id}/preview-links/${revoked.id}`);
    expectError(await reader.get(`/api/media/v1/contents/${draft.id}`, previewOf(revoked.token)), 401, 'preview_token_invalid');

    const expired = await linkOf(draft.id);
    await ctx.database.db.execute(sql`update preview_tokens set expires_at = now() - interval '1 second' where id = ${expired.id}`);
    expectError(await reader.get(`/api/media/v1/contents/${draft.id}`, previewOf(expired.token)), 401, 'preview_token_invalid');
    expectError(await reader.get(`/api/media/v1/contents/${draft.id}?preview_token=${expired.token}`), 401, 'preview_token_invalid');

    expectError(await reader.get(`/api/media/v1/contents/${draft.id}`, previewOf(`mpp_${'x'.repeat(43)}`)), 401, 'preview_token_invalid');
  });

  it("is 401 with a token of media A on media B, even for B's own published content", async () => {
    const { token } = await linkOf(draft.id);
    const foreign = await createContent(client(ctx.app, other.keys.editor), await docsFixture(client(ctx.app, other.keys.editor), other.workspaceId));
    expectError(await otherReader.get(`/api/media/v1/contents/${draft.id}`, previewOf(token)), 401, 'preview_token_invalid');
    expectError(await otherReader.get(`/api/media/v1/contents/${foreign.id}`, previewOf(token)), 401, 'preview_token_invalid');
    const time = (await api.post('/core/v2/preview-tokens', { as_of: TOMORROW() })).json().data.token as string;
    expectError(await otherReader.get('/api/media/v1/contents', previewOf(time)), 401, 'preview_token_invalid');
  });

  it('still needs a bearer token of the media', async () => {
    const { token } = await linkOf(draft.id);
    const anonymous = readerClient(ctx.app, media.mediaId);
    expectError(await anonymous.get(`/api/media/v1/contents/${draft.id}`, previewOf(token)), 401);
  });

  it('leaves answers without a token cacheable as before', async () => {
    const { token } = await linkOf(published.id);
    expectPreviewAnswer(await reader.get(`/api/media/v1/contents/${published.id}`, previewOf(token)));
    const res = await reader.get(`/api/media/v1/contents/${published.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=60, stale-while-revalidate=300');
    expect(res.headers['surrogate-key']).toContain(`content:${published.id}`);
    expect(res.headers['x-robots-tag']).toBeUndefined();
    expect(res.json().meta).toBeUndefined();
    // A conditional request after a preview is answered from the published answer, not the preview's.
    const etag = res.headers.etag as string;
    const previewed = await reader.get(`/api/media/v1/contents/${published.id}`, { ...previewOf(token), 'if-none-match': etag });
    expect(previewed.statusCode).not.toBe(304);
    expect(previewed.headers.etag).not.toBe(etag);
  });
});

describe('time-travel preview: POST /core/v2/preview-tokens', () => {
  it('answers 201 with the token, its as_of and expiry; refuses a missing as_of or unknown fields', async () => {
    const asOf = TOMORROW();
    const res = await api.post('/core/v2/preview-tokens', { as_of: asOf, expires_in: 600 });
    expect(res.statusCode, res.body).toBe(201);
    const { data } = res.json();
    expect(Object.keys(data).sort()).toEqual(['as_of', 'expires_at', 'id', 'token']);
    expect(data.as_of).toBe(new Date(asOf).toISOString());
    expect(data.token).toMatch(/^mpp_/);
    expect(Date.parse(data.expires_at)).toBeLessThanOrEqual(Date.now() + 601_000);
    expectError(await api.post('/core/v2/preview-tokens', {}), 400, 'validation_failed');
    expectError(await api.post('/core/v2/preview-tokens', { as_of: asOf, content_id: draft.id }), 400, 'validation_failed');
    expectError(await client(ctx.app, media.keys.viewer).post('/core/v2/preview-tokens', { as_of: asOf }), 403);
  });

  it("shows tomorrow's scheduled content in lists, search and by id, where today's answers do not", async () => {
    const token = (await api.post('/core/v2/preview-tokens', { as_of: inMinutes(25 * 60) })).json().data.token as string;
    const today = await reader.get('/api/media/v1/contents?limit=100');
    expect(today.statusCode).toBe(200);
    expect(ids(today)).toEqual([published.id]);
    expect(today.json().meta.preview).toBeUndefined();

    const tomorrow = await reader.get('/api/media/v1/contents?limit=100', previewOf(token));
    expectPreviewAnswer(tomorrow);
    expect(ids(tomorrow)).toEqual([scheduled.id, published.id]);

    expectError(await reader.get(`/api/media/v1/contents/${scheduled.id}`), 404, 'content_not_found');
    const byId = await reader.get(`/api/media/v1/contents/${scheduled.id}`, previewOf(token));
    expectPreviewAnswer(byId);
    expect(byId.json().data.id).toBe(scheduled.id);

    const search = await reader.get('/api/media/v1/contents/search?q=Tomorrow', previewOf(token));
    expectPreviewAnswer(search);
    expect(ids(search)).toEqual([scheduled.id]);
    expect(ids(await reader.get('/api/media/v1/contents/search?q=Tomorrow'))).toEqual([]);

    // Drafts and unpublished contents stay out: the instant moves, the rule does not.
    expect(ids(tomorrow)).not.toContain(draft.id);
    expectError(await reader.get(`/api/media/v1/contents/${draft.id}`, previewOf(token)), 404, 'content_not_found');
    expectError(await reader.get(`/api/media/v1/contents/${unpublished.id}`, previewOf(token)), 404, 'content_not_found');
  });

  it('answers as of an instant in the past too: a content published since is not there yet', async () => {
    const token = (await api.post('/core/v2/preview-tokens', { as_of: inMinutes(-30) })).json().data.token as string;
    const res = await reader.get('/api/media/v1/contents?limit=100', previewOf(token));
    expectPreviewAnswer(res);
    expect(ids(res)).toEqual([]);
    expectError(await reader.get(`/api/media/v1/contents/${published.id}`, previewOf(token)), 404, 'content_not_found');
  });

  it('marks every other Reader read it is sent with as a preview, never cacheable', async () => {
    const token = (await api.post('/core/v2/preview-tokens', { as_of: TOMORROW() })).json().data.token as string;
    const res = await reader.get('/api/media/v1/categories', previewOf(token));
    expectPreviewAnswer(res);
  });
});
