import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { ISO_MS, UUID, expectError } from '../../setup/expect.js';
import { type Client, type SeededMedia, client, seedMedia } from '../../setup/factories.js';

let ctx: TestContext;
let media: SeededMedia;
let other: SeededMedia;
let editor: Client;
let viewer: Client;

beforeAll(async () => {
  ctx = await createTestApp();
  media = await seedMedia(ctx.app);
  other = await seedMedia(ctx.app);
  editor = client(ctx.app, media.keys.editor);
  viewer = client(ctx.app, media.keys.viewer);
});
afterAll(() => ctx?.close());

describe('topics (Backoffice)', () => {
  it('creates a topic (201), reads it, and lists the media topics in the order they were created', async () => {
    const res = await editor.post('/publisher/v2/topics', { key: 'climate', name: 'Climate', description: 'Weather and more' });
    expect(res.statusCode, res.body).toBe(201);
    const topic = res.json().data;
    expect(topic).toEqual({
      id: expect.stringMatching(UUID),
      key: 'climate',
      name: 'Climate',
      description: 'Weather and more',
      inserted_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
      deleted_at: null,
    });
    const second = (await editor.post('/publisher/v2/topics', { key: 'energy', name: 'Energy' })).json().data;
    expect((await viewer.get(`/publisher/v2/topics/${topic.id}`)).json().data).toEqual(topic);
    const listed = (await viewer.get('/publisher/v2/topics')).json();
    expect(listed.data.map((t: { id: string }) => t.id)).toEqual([topic.id, second.id]);
    const page = (await viewer.get('/publisher/v2/topics?limit=1')).json();
    expect((await viewer.get(page.meta.next)).json().data.map((t: { id: string }) => t.id)).toEqual([second.id]);
  });

  it('refuses a key used twice in the media (409 topic_exists) but allows it in another media', async () => {
    await editor.post('/publisher/v2/topics', { key: 'twice', name: 'Twice' });
    expectError(await editor.post('/publisher/v2/topics', { key: 'twice', name: 'Again' }), 409, 'topic_exists');
    expect((await client(ctx.app, other.keys.editor).post('/publisher/v2/topics', { key: 'twice', name: 'Elsewhere' })).statusCode).toBe(201);
  });

  it('refuses a malformed key, a missing name and unknown fields (400)', async () => {
    for (const body of [{ key: 'Has Caps', name: 'X' }, { key: 'ok' }, { key: 'ok2', name: 'X', media_id: randomUUID() }]) {
      expectError(await editor.post('/publisher/v2/topics', body), 400, 'validation_failed');
    }
  });

  it("answers 404 for another media's topic, and 403 to roles without core permissions", async () => {
    const foreign = (await client(ctx.app, other.keys.editor).post('/publisher/v2/topics', { key: 'foreign', name: 'Foreign' })).json().data;
    expectError(await editor.get(`/publisher/v2/topics/${foreign.id}`), 404, 'topic_not_found');
    expectError(await client(ctx.app, media.keys.ad_manager).get('/publisher/v2/topics'), 403, 'forbidden');
    expectError(await viewer.post('/publisher/v2/topics', { key: 'viewer', name: 'Viewer' }), 403, 'forbidden');
  });
});
