import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { expectError } from '../../setup/expect.js';
import { type Client, type SeededMedia, client, seedMedia } from '../../setup/factories.js';
import { type ContentWire, type DocsFixture, createContent, docsFixture } from '../../setup/docs.js';
import { clientToken, readerClient, registerClient } from '../../setup/reader.js';

let ctx: TestContext;
let media: SeededMedia;
let other: SeededMedia;
let api: Client;
let fx: DocsFixture;
let reader: ReturnType<typeof readerClient>;
let content: ContentWire;

const path = (id: string) => `/docs/v2/contents/${id}/corrections`;

async function correct(id: string, body: Record<string, unknown>) {
  const res = await api.post(path(id), body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: string; locale: string; inserted_at: string; note_html: string; note_text: string };
}

beforeAll(async () => {
  ctx = await createTestApp({ webhookAllowPrivate: true });
  media = await seedMedia(ctx.app, { locales: ['en', 'fr'] });
  other = await seedMedia(ctx.app);
  api = client(ctx.app, media.keys.editor);
  fx = await docsFixture(api, media.workspaceId);
  const token = (await clientToken(ctx.app, await registerClient(ctx.app, media.keys.admin, ['media:read']))).access_token;
  reader = readerClient(ctx.app, media.mediaId, token);
  content = await createContent(api, fx, {
    locales: [
      { locale: 'en', title_html: 'Corrected story', lead_html: '<p>Lead</p>' },
      { locale: 'fr', title_html: 'Histoire corrigée' },
    ],
  });
});
afterAll(() => ctx.close());

describe('POST /docs/v2/contents/{id}/corrections', () => {
  it('answers 201 with the sanitized note and its text twin', async () => {
    const note = await correct(content.id, { locale: 'en', note_html: '<p>The mayor is <b>Ann</b>, not Bob.<script>alert(1)</script></p>' });
    expect(note).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      inserted_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      note_html: '<p>The mayor is <b>Ann</b>, not Bob.</p>',
      note_text: 'The mayor is Ann, not Bob.',
      locale: 'en',
    });
  });

  it('refuses a language the content has no entry in, an empty or unknown body, another media, and a viewer', async () => {
    expectError(await api.post(path(content.id), { locale: 'de', note_html: '<p>x</p>' }), 404, 'locale_not_found');
    expectError(await api.post(path(content.id), { locale: 'en', note_html: '<script>x</script>' }), 400, 'validation_failed');
    expectError(await api.post(path(content.id), { locale: 'en', note_html: '<p>x</p>', note_text: 'mine' }), 400, 'validation_failed');
    expectError(await api.post(path(randomUUID()), { locale: 'en', note_html: '<p>x</p>' }), 404, 'content_not_found');
    expectError(await client(ctx.app, other.keys.editor).post(path(content.id), { locale: 'en', note_html: '<p>x</p>' }), 404, 'content_not_found');
    expectError(await client(ctx.app, media.keys.viewer).post(path(content.id), { locale: 'en', note_html: '<p>x</p>' }), 403);
  });

  it('is the webhook event content.corrected, and an audit entry of that action', async () => {
    const hook = await client(ctx.app, media.keys.admin).post('/core/v2/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['content.corrected'] });
    expect(hook.statusCode, hook.body).toBe(201);
    await correct(content.id, { locale: 'fr', note_html: '<p>Date corrigée.</p>' });
    let types: string[] = [];
    for (let i = 0; i < 50 && types.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const deliveries = await client(ctx.app, media.keys.admin).get(`/core/v2/webhooks/${hook.json().data.id}/deliveries`);
      types = deliveries.json().data.map((d: { event_type: string }) => d.event_type);
    }
    expect(types).toEqual(['content.corrected']);
    const audit = await client(ctx.app, media.keys.admin).get(`/core/v2/audit-log?record_id=${content.id}&operation_id=createContentCorrection`);
    expect(audit.statusCode, audit.body).toBe(200);
    expect(audit.json().data[0]).toMatchObject({ action: 'corrected', record_kind: 'content', record_id: content.id, fields: ['locale', 'note_html'] });
  });
});

describe('GET and DELETE /docs/v2/contents/{id}/corrections', () => {
  it('lists live notes newest first in every language; a removed one leaves the list and the Reader', async () => {
    const fresh = await createContent(api, fx, { locales: [{ locale: 'en', title_html: 'Another' }, { locale: 'fr', title_html: 'Autre' }] });
    const first = await correct(fresh.id, { locale: 'en', note_html: '<p>First</p>' });
    const second = await correct(fresh.id, { locale: 'fr', note_html: '<p>Deuxième</p>' });
    const third = await correct(fresh.id, { locale: 'en', note_html: '<p>Third</p>' });
    const res = await client(ctx.app, media.keys.viewer).get(path(fresh.id));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.map((c: { id: string }) => c.id)).toEqual([third.id, second.id, first.id]);

    expect((await api.delete(`${path(fresh.id)}/${third.id}`)).statusCode).toBe(204);
    expect((await api.get(path(fresh.id))).json().data.map((c: { id: string }) => c.id)).toEqual([second.id, first.id]);
    const served = (await reader.get(`/api/media/v1/contents/${fresh.id}?locale=en`)).json().data;
    expect(served.corrections).toEqual([{ id: first.id, inserted_at: first.inserted_at, note_html: '<p>First</p>', note_text: 'First' }]);
    expectError(await api.delete(`${path(fresh.id)}/${third.id}`), 404, 'correction_not_found');
    expectError(await api.delete(`${path(content.id)}/${first.id}`), 404, 'correction_not_found');
  });
});

describe('corrections on the Reader and in RSS', () => {
  it('serves the notes of the served language, newest first, by id, in lists and in search', async () => {
    const story = await createContent(api, fx, { locales: [{ locale: 'en', title_html: 'Quokka story' }, { locale: 'fr', title_html: 'Histoire de quokka' }] });
    const older = await correct(story.id, { locale: 'en', note_html: '<p>Older</p>' });
    const newer = await correct(story.id, { locale: 'en', note_html: '<p>Newer</p>' });
    const french = await correct(story.id, { locale: 'fr', note_html: '<p>Français</p>' });
    const wire = (n: typeof older) => ({ id: n.id, inserted_at: n.inserted_at, note_html: n.note_html, note_text: n.note_text });

    const byId = await reader.get(`/api/media/v1/contents/${story.id}?locale=en`);
    expect(byId.statusCode, byId.body).toBe(200);
    expect(byId.json().data.corrections).toEqual([wire(newer), wire(older)]);
    expect((await reader.get(`/api/media/v1/contents/${story.id}?locale=fr`)).json().data.corrections).toEqual([wire(french)]);

    const listed = (await reader.get('/api/media/v1/contents?limit=100&locale=en')).json().data;
    expect(listed.find((c: { id: string }) => c.id === story.id).corrections).toEqual([wire(newer), wire(older)]);
    expect(listed.find((c: { id: string }) => c.id === content.id).corrections.map((c: { note_text: string }) => c.note_text)).toEqual([
      'The mayor is Ann, not Bob.',
    ]);
    const found = (await reader.get('/api/media/v1/contents/search?q=quokka&locale=fr')).json().data;
    expect(found.find((c: { id: string }) => c.id === story.id).corrections).toEqual([wire(french)]);
  });

  it('adds the notes of the feed language to the RSS item, after the lead', async () => {
    const feed = await api.post('/publisher/v2/rss-feeds', { key: `feed-${randomUUID().slice(0, 8)}`, locales: [{ locale: 'en', title: 'All' }] });
    expect(feed.statusCode, feed.body).toBe(201);
    const res = await ctx.app.inject({ method: 'GET', url: `/api/media/v1/rss/${feed.json().data.id}?media_id=${media.mediaId}` });
    expect(res.statusCode, res.body).toBe(200);
    const item = res.body.split('<item>').find((i) => i.includes(content.id))!;
    expect(item).toContain('Lead');
    expect(item).toContain('The mayor is');
    expect(item).toContain('Ann');
    expect(item.indexOf('Lead')).toBeLessThan(item.indexOf('The mayor is'));
    expect(item).not.toContain('Date corrigée');
  });
});
