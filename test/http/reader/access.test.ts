import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../../src/app.js';
import { type TestContext, createTestApp, testConfig } from '../../setup/app.js';
import { type DocsFixture, createBlock, createContent, docsFixture } from '../../setup/docs.js';
import { expectError } from '../../setup/expect.js';
import { type Client, type SeededMedia, client, seedMedia } from '../../setup/factories.js';
import { type JwksTestProvider, startJwksProvider } from '../../setup/identity-providers.js';
import { clientToken, readerClient, readersOf, registerClient, registerProvider } from '../../setup/reader.js';

let ctx: TestContext;
let media: SeededMedia;
let editor: Client;
let admin: Client;
let f: DocsFixture;
let jwks: JwksTestProvider;
let readers: ReturnType<typeof readersOf>;
let application: ReturnType<typeof readerClient>;

const BODY = 'Zanzibarique secret paragraph';

beforeAll(async () => {
  ctx = await createTestApp({ rateLimit: { backoffice: 10_000, reader: 10_000, anonymous: 10_000, token: 10_000 } });
  media = await seedMedia(ctx.app, { locales: ['en'] });
  editor = client(ctx.app, media.keys.editor);
  admin = client(ctx.app, media.keys.admin);
  f = await docsFixture(editor, media.workspaceId);
  jwks = await startJwksProvider();
  await registerProvider(ctx.app, media.keys.admin, jwks.registration);
  readers = readersOf(ctx.app, jwks, media.mediaId);
  application = readerClient(ctx.app, media.mediaId, (await clientToken(ctx.app, await registerClient(ctx.app, media.keys.admin, ['media:read']))).access_token);
});
afterAll(async () => {
  await ctx?.close();
  await jwks?.close();
});

/** A published content of `visibility` with one richtext block and one question block. */
async function gated(visibility: string, product_keys: string[] = []) {
  const content = await createContent(editor, f, { visibility, product_keys });
  await createBlock(editor, content.id, { kind: 'richtext', locale: 'en', content_html: `<p>${BODY}</p>` });
  const question = await createBlock(editor, content.id, { kind: 'question', locale: 'en', title: 'Agree?', choices: [{ label: 'Yes' }, { label: 'No' }] });
  return { content, question };
}

async function entitle(readerId: string, product_key: string, window: { starts_at?: string; ends_at?: string | null } = {}) {
  const res = await admin.post('/core/v2/reader-entitlements', {
    reader_id: readerId,
    product_key,
    starts_at: window.starts_at ?? '2020-01-01T00:00:00Z',
    ...(window.ends_at !== undefined && { ends_at: window.ends_at }),
  });
  expect(res.statusCode, res.body).toBe(201);
}

const opened = async (api: ReturnType<typeof readerClient>, id: string) => {
  const res = await api.get(`/api/media/v1/contents/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res;
};

describe('contents visibility (Backoffice)', () => {
  it('is public by default, set and changed with product_keys, and refused when unknown', async () => {
    const plain = await createContent(editor, f);
    expect(plain).toMatchObject({ visibility: 'public', product_keys: [] });
    const paid = await createContent(editor, f, { visibility: 'subscribers', product_keys: ['gold', 'gold', 'silver'] });
    expect(paid).toMatchObject({ visibility: 'subscribers', product_keys: ['gold', 'silver'] });
    const changed = await editor.patch(`/docs/v2/contents/${paid.id}`, { visibility: 'registered', product_keys: [] });
    expect(changed.json().data).toMatchObject({ visibility: 'registered', product_keys: [] });
    expect((await editor.get(`/docs/v2/contents/${paid.id}`)).json().data).toMatchObject({ visibility: 'registered', product_keys: [] });
    const body = expectError(await editor.patch(`/docs/v2/contents/${paid.id}`, { visibility: 'vip' }), 400, 'validation_failed');
    expect(body.details!.map((d) => d.path)).toEqual(['visibility']);
    expectError(await editor.patch(`/docs/v2/contents/${paid.id}`, { product_keys: [''] }), 400, 'validation_failed');
  });
});

describe('who sees what', () => {
  it('serves a public content whole to anyone, cacheable by shared caches', async () => {
    const { content } = await gated('public');
    const res = await opened(application, content.id);
    expect(res.json().data.access).toEqual({ granted: true, visibility: 'public', via: 'public', reason: null, meter: null });
    expect(res.json().data.blocks.map((b: { kind: string }) => b.kind)).toEqual(['richtext', 'question']);
    expect(res.headers['cache-control']).toBe('public, max-age=60, stale-while-revalidate=300');
  });

  it('serves a registered content whole to a signed-in reader, as a teaser to an application', async () => {
    const { content, question } = await gated('registered');
    const app = await opened(application, content.id);
    const teaser = app.json().data;
    expect(teaser.access).toEqual({ granted: false, visibility: 'registered', via: null, reason: 'login_required', meter: null });
    expect(teaser.blocks).toEqual([]);
    expect(teaser.title_html).toBe(content.locales[0]!.title_html);
    expect(app.body).not.toContain(BODY);
    expect(app.headers['cache-control']).toBe('private, no-store');
    expectError(await application.get(`/api/media/v1/contents/${content.id}/questions/${question.id}/results`), 403, 'login_required');

    const { api } = await readers.signIn('reg-reader');
    const whole = await opened(api, content.id);
    expect(whole.json().data.access).toEqual({ granted: true, visibility: 'registered', via: 'registered', reason: null, meter: null });
    expect(whole.body).toContain(BODY);
    expect(whole.headers['cache-control']).toBe('private, no-store');
    expect(whole.headers.etag).not.toBe(app.headers.etag);
    const results = await api.get(`/api/media/v1/contents/${content.id}/questions/${question.id}/results`);
    expect(results.statusCode, results.body).toBe(200);
    expect(results.json().data).toMatchObject({ question_id: question.id, total: 0 });
  });

  it('opens a subscribers content to the right product only, within the entitlement window', async () => {
    const { content, question } = await gated('subscribers', ['gold']);
    const cases: Array<[string, (id: string) => Promise<void>, string]> = [
      ['no-entitlement', async () => {}, 'subscription_required'],
      ['expired', (id) => entitle(id, 'gold', { starts_at: '2020-01-01T00:00:00Z', ends_at: '2021-01-01T00:00:00Z' }), 'subscription_required'],
      ['future', (id) => entitle(id, 'gold', { starts_at: '2999-01-01T00:00:00Z' }), 'subscription_required'],
      ['wrong-product', (id) => entitle(id, 'silver'), 'subscription_required'],
      ['right-product', (id) => entitle(id, 'gold'), 'entitlement'],
    ];
    for (const [sub, grant, outcome] of cases) {
      const { api, id } = await readers.signIn(`sub-${sub}`);
      await grant(id);
      const res = await opened(api, content.id);
      const granted = outcome === 'entitlement';
      expect(res.json().data.access, sub).toEqual({
        granted,
        visibility: 'subscribers',
        via: granted ? 'entitlement' : null,
        reason: granted ? null : outcome,
        meter: null,
      });
      expect(res.body.includes(BODY), sub).toBe(granted);
      const vote = await api.post(`/api/media/v1/contents/${content.id}/questions/${question.id}/vote`, { choice_id: (question.choices as Array<{ id: string }>)[0]!.id });
      if (granted) expect(vote.statusCode, vote.body).toBe(200);
      else expectError(vote, 403, outcome);
    }
    // An application never gets past the teaser.
    expect((await opened(application, content.id)).json().data.access.reason).toBe('login_required');
  });

  it('lists and searches every content with its visibility and never a body; the Public API serves the teaser', async () => {
    const { content } = await gated('subscribers', ['gold']);
    const list = await application.get('/api/media/v1/contents?limit=100');
    const item = list.json().data.find((c: { id: string }) => c.id === content.id);
    expect(item.access).toEqual({ visibility: 'subscribers' });
    expect(item).not.toHaveProperty('blocks');
    // A word only in its blocks finds it, and the answer carries no block text.
    const search = await application.get(`/api/media/v1/contents/search?q=${encodeURIComponent('Zanzibarique')}`);
    expect(search.statusCode, search.body).toBe(200);
    expect(search.json().data.map((c: { id: string }) => c.id)).toContain(content.id);
    expect(search.body).not.toContain(BODY);

    const pub = await ctx.app.inject({ method: 'GET', url: `/api/public/docs/v2/contents/${content.id}` });
    expect(pub.statusCode, pub.body).toBe(200);
    expect(pub.json().data.access).toMatchObject({ granted: false, reason: 'login_required' });
    expect(pub.json().data.blocks).toEqual([]);
    expect(pub.body).not.toContain(BODY);
  });
});

describe('the meter', () => {
  it('opens up to limit distinct contents per period to a signed-in reader, re-opening for nothing', async () => {
    const own = await seedMedia(ctx.app, { locales: ['en'] });
    const ownEditor = client(ctx.app, own.keys.editor);
    const meterOn = await client(ctx.app, own.keys.admin).patch('/core/v2/media', { meter: { limit: 2, period_days: 30 } });
    expect(meterOn.json().data.meter).toEqual({ limit: 2, period_days: 30 });
    await registerProvider(ctx.app, own.keys.admin, jwks.registration);
    const ownReaders = readersOf(ctx.app, jwks, own.mediaId);
    const g = await docsFixture(ownEditor, own.workspaceId);
    const paid = await Promise.all([1, 2, 3].map(() => createContent(ownEditor, g, { visibility: 'subscribers' })));
    const { api } = await ownReaders.signIn('metered');

    const first = (await opened(api, paid[0]!.id)).json().data.access;
    expect(first).toMatchObject({ granted: true, via: 'meter', reason: null, meter: { used: 1, limit: 2 } });
    const period = 30 * 86_400_000;
    expect(first.meter.resets_at).toBe(new Date((Math.floor(Date.now() / period) + 1) * period).toISOString());
    expect((await opened(api, paid[0]!.id)).json().data.access.meter.used).toBe(1);
    expect((await opened(api, paid[1]!.id)).json().data.access).toMatchObject({ granted: true, via: 'meter', meter: { used: 2, limit: 2 } });
    expect((await opened(api, paid[2]!.id)).json().data.access).toMatchObject({ granted: false, reason: 'meter_exhausted', meter: { used: 2, limit: 2 } });
    // What it opened stays open in the period.
    expect((await opened(api, paid[1]!.id)).json().data.access.via).toBe('meter');
    // Another reader has a meter of their own.
    const { api: other } = await ownReaders.signIn('metered-2');
    expect((await opened(other, paid[2]!.id)).json().data.access).toMatchObject({ granted: true, meter: { used: 1 } });
  });

  it('grants exactly one of 20 parallel opens of different contents at limit - 1', async () => {
    const own = await seedMedia(ctx.app, { locales: ['en'] });
    const ownEditor = client(ctx.app, own.keys.editor);
    await client(ctx.app, own.keys.admin).patch('/core/v2/media', { meter: { limit: 3, period_days: 7 } });
    await registerProvider(ctx.app, own.keys.admin, jwks.registration);
    const g = await docsFixture(ownEditor, own.workspaceId);
    const paid = [];
    for (let i = 0; i < 22; i++) paid.push(await createContent(ownEditor, g, { visibility: 'subscribers' }));
    const { api } = await readersOf(ctx.app, jwks, own.mediaId).signIn('racer');
    await opened(api, paid[0]!.id);
    await opened(api, paid[1]!.id);
    const answers = await Promise.all(paid.slice(2).map((c) => opened(api, c.id)));
    const granted = answers.filter((r) => r.json().data.access.granted);
    expect(granted).toHaveLength(1);
    expect(answers.filter((r) => r.json().data.access.reason === 'meter_exhausted')).toHaveLength(19);
  });
  it('is shared by two instances over one database and survives a restart: it is rows in the database', async () => {
    const own = await seedMedia(ctx.app, { locales: ['en'] });
    const ownEditor = client(ctx.app, own.keys.editor);
    await client(ctx.app, own.keys.admin).patch('/core/v2/media', { meter: { limit: 2, period_days: 30 } });
    await registerProvider(ctx.app, own.keys.admin, jwks.registration);
    const g = await docsFixture(ownEditor, own.workspaceId);
    const paid = await Promise.all([1, 2, 3].map(() => createContent(ownEditor, g, { visibility: 'subscribers' })));
    // A second instance: another app over the same database (the first one closes it).
    const instance = async () => {
      const app = await buildApp({ config: testConfig({ rateLimit: { backoffice: 10_000, reader: 10_000, anonymous: 10_000, token: 10_000 } }), database: { ...ctx.database, close: async () => {} } });
      await app.ready();
      return app;
    };
    const token = await jwks.mint({ sub: 'two-instances' });
    const on = (app: App) => readerClient(app, own.mediaId, token);
    const b = await instance();
    try {
      expect((await opened(on(ctx.app), paid[0]!.id)).json().data.access).toMatchObject({ granted: true, via: 'meter', meter: { used: 1, limit: 2 } });
      expect((await opened(on(b), paid[1]!.id)).json().data.access).toMatchObject({ granted: true, via: 'meter', meter: { used: 2, limit: 2 } });
      expect((await opened(on(ctx.app), paid[2]!.id)).json().data.access).toMatchObject({ granted: false, reason: 'meter_exhausted' });
    } finally {
      await b.close();
    }
    // A restart: a new instance reads the same opens.
    const c = await instance();
    try {
      expect((await opened(on(c), paid[2]!.id)).json().data.access).toMatchObject({ granted: false, reason: 'meter_exhausted', meter: { used: 2 } });
      expect((await opened(on(c), paid[1]!.id)).json().data.access).toMatchObject({ granted: true, via: 'meter', meter: { used: 2 } });
    } finally {
      await c.close();
    }
  });
});
