import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fileForm, png, tempDir } from '../../assets/fixtures.js';
import { type TestContext, createTestApp, testConfig } from '../../setup/app.js';
import { expectError } from '../../setup/expect.js';
import { type SeededMedia, client, seedMedia } from '../../setup/factories.js';
import { clientToken, readerClient, registerClient } from '../../setup/reader.js';

const storage = await tempDir('ad-ops-random');
const base = testConfig();
// 2,000 draws by one token: past the Reader's per-subject rate limit.
const ctx: TestContext = await createTestApp({ storageDir: storage.path, rateLimit: { ...base.rateLimit, reader: 100_000 } });

afterAll(async () => {
  await ctx.close();
  await storage.remove();
});
afterEach(() => {
  vi.useRealTimers();
});

const PAST = '2020-01-01T00:00:00Z';
const FUTURE = '2099-01-01T00:00:00Z';

interface AdOptions {
  priority?: number;
  starts_at?: string;
  ends_at?: string;
  timezone?: string;
  active?: boolean;
  creative?: 'html' | 'image' | 'image-without-upload' | 'deleted' | 'none';
  placements?: Array<Record<string, unknown>>;
}

/** A media's ad-ops, built through the Backoffice. */
async function adOpsOf(seeded: SeededMedia) {
  const api = client(ctx.app, seeded.keys.ad_manager);
  const categoryId = (await api.post('/ad-ops/v2/ad-categories', { name: `Cat ${randomUUID().slice(0, 8)}` })).json().data.id as string;
  const advertisers = new Map<boolean, string>();
  const advertiser = async (active: boolean) => {
    if (!advertisers.has(active)) {
      advertisers.set(active, (await api.post('/ad-ops/v2/advertisers', { name: 'Acme', is_active: active })).json().data.id);
    }
    return advertisers.get(active)!;
  };

  async function ad(options: AdOptions = {}) {
    const advertiserId = await advertiser(options.active ?? true);
    const res = await api.post(`/ad-ops/v2/advertisers/${advertiserId}/ads`, {
      advertiser_id: advertiserId,
      name: `Ad ${randomUUID().slice(0, 8)}`,
      priority: options.priority ?? 1,
      category: { id: categoryId },
      starts_at: options.starts_at ?? PAST,
      ends_at: options.ends_at ?? FUTURE,
      timezone: options.timezone ?? 'Europe/Paris',
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().data.id as string;
    const kind = options.creative ?? 'html';
    if (kind !== 'none') {
      const creative = await api.post(`/ad-ops/v2/ads/${id}/creatives`, {
        name: 'Creative',
        kind: kind === 'html' || kind === 'deleted' ? 'html' : 'image',
        click_url: 'https://acme.example/go',
        ...((kind === 'html' || kind === 'deleted') && { html: '<p>Buy</p>' }),
      });
      expect(creative.statusCode, creative.body).toBe(201);
      const creativeId = creative.json().data.id as string;
      if (kind === 'image') {
        const { payload, headers } = fileForm(await png(300, 250), 'b.png', 'image/png');
        expect((await api.put(`/ad-ops/v2/creatives/${creativeId}/image`, payload, headers)).statusCode).toBe(200);
      }
      if (kind === 'deleted') expect((await api.delete(`/ad-ops/v2/creatives/${creativeId}`)).statusCode).toBe(204);
    }
    for (const placement of options.placements ?? [{ target: 'media' }]) {
      const placed = await api.post(`/ad-ops/v2/ads/${id}/placements`, placement);
      expect(placed.statusCode, placed.body).toBe(201);
    }
    return id;
  }
  return { api, ad, categoryId };
}

async function readerOf(seeded: SeededMedia) {
  const token = await clientToken(ctx.app, await registerClient(ctx.app, seeded.keys.admin, ['media:read']));
  return readerClient(ctx.app, seeded.mediaId, token.access_token);
}

/** The ids a reader can draw: `rounds` draws of up to 10. */
async function drawable(reader: ReturnType<typeof readerClient>, query = '', rounds = 5) {
  const seen = new Set<string>();
  for (let i = 0; i < rounds; i++) {
    const res = await reader.get(`/api/media/v1/ads/random?count=10${query}`);
    expect(res.statusCode, res.body).toBe(200);
    for (const ad of res.json().data as Array<{ id: string }>) seen.add(ad.id);
  }
  return seen;
}

let media: SeededMedia;
let reader: ReturnType<typeof readerClient>;
let adOps: Awaited<ReturnType<typeof adOpsOf>>;

beforeAll(async () => {
  media = await seedMedia(ctx.app);
  reader = await readerOf(media);
  adOps = await adOpsOf(media);
});

describe('GET /api/media/v1/ads/random', () => {
  it('answers a running ad with one of its creatives: image url, click_url and size', async () => {
    const seeded = await seedMedia(ctx.app);
    const own = await adOpsOf(seeded);
    const id = await own.ad({ creative: 'image' });
    const res = await (await readerOf(seeded)).get('/api/media/v1/ads/random');
    expect(res.statusCode, res.body).toBe(200);
    // Each answer is a draw of its own: no cache may hand it to another reader.
    expect(res.headers['cache-control']).toBe('no-store');
    const ad = (await own.api.get(`/ad-ops/v2/ads/${id}`)).json().data;
    const creative = (await own.api.get(`/ad-ops/v2/ads/${id}/creatives`)).json().data[0];
    expect(res.json()).toEqual({
      data: [
        {
          id,
          name: ad.name,
          advertiser_id: ad.advertiser_id,
          category: ad.category,
          creative: {
            id: creative.id,
            kind: 'image',
            url: creative.image.url,
            click_url: 'https://acme.example/go',
            alt_text: null,
            width: 300,
            height: 250,
            html: null,
          },
        },
      ],
    });
    expect(creative.image.url).toMatch(/^\/assets\/.+\.png$/);
  });

  it('serves only running ads: in their window, of an active advertiser, with a creative to show, placed on the media', async () => {
    const seeded = await seedMedia(ctx.app);
    const own = await adOpsOf(seeded);
    const running = [await own.ad(), await own.ad({ creative: 'image' }), await own.ad({ priority: 100 })];
    await own.ad({ starts_at: '2098-01-01T00:00:00Z' });
    await own.ad({ ends_at: new Date(Date.now() - 1000).toISOString() });
    await own.ad({ active: false });
    await own.ad({ creative: 'none' });
    await own.ad({ creative: 'image-without-upload' });
    await own.ad({ creative: 'deleted' });
    await own.ad({ placements: [] });
    const readerApi = await readerOf(seeded);
    expect([...(await drawable(readerApi))].sort()).toEqual([...running].sort());

    // Position: ads placed at it, and ads placed at none; without a position, every placement.
    const sidebar = await own.ad({ placements: [{ target: 'media', position: 'sidebar' }] });
    expect([...(await drawable(readerApi, '&position=sidebar'))].sort()).toEqual([...running, sidebar].sort());
    expect([...(await drawable(readerApi, '&position=top'))].sort()).toEqual([...running].sort());
    expect([...(await drawable(readerApi))].sort()).toEqual([...running, sidebar].sort());

    // An advertiser switched off takes its ads out at once.
    const advertiserId = (await own.api.get(`/ad-ops/v2/ads/${running[0]}`)).json().data.advertiser_id;
    expect((await own.api.put(`/ad-ops/v2/advertisers/${advertiserId}`, { name: 'Acme', is_active: false })).statusCode).toBe(200);
    expect((await drawable(readerApi, '', 2)).size).toBe(0);
  });

  it("never serves another media's ads, and answers an empty list when nothing runs", async () => {
    const empty = await seedMedia(ctx.app);
    const emptyReader = await readerOf(empty);
    await adOps.ad();
    expect((await emptyReader.get('/api/media/v1/ads/random?count=10')).json()).toEqual({ data: [] });
    const seen = await drawable(reader);
    expect(seen.size).toBeGreaterThan(0);
    const other = await adOpsOf(empty);
    const foreign = await other.ad();
    expect((await drawable(reader)).has(foreign)).toBe(false);
    expect([...(await drawable(emptyReader))]).toEqual([foreign]);
  });

  it('checks its query: count 1..10, issue_id a uuid, position a key; a token and the media header are required', async () => {
    for (const q of ['count=0', 'count=11', 'count=x', 'issue_id=nope', 'position=Top%20Banner']) {
      expectError(await reader.get(`/api/media/v1/ads/random?${q}`), 400, 'validation_failed');
    }
    expectError(await readerClient(ctx.app, media.mediaId).get('/api/media/v1/ads/random'), 401);
    const noScope = await clientToken(ctx.app, await registerClient(ctx.app, media.keys.admin, ['account:read']));
    expectError(await readerClient(ctx.app, media.mediaId, noScope.access_token).get('/api/media/v1/ads/random'), 403);
  });

  it('draws without repeats and by priority: over 2,000 draws the counts pass a chi-square test (p = 0.001)', async () => {
    const seeded = await seedMedia(ctx.app);
    const own = await adOpsOf(seeded);
    const priorities = [1, 2, 3, 14];
    const ids = [];
    for (const priority of priorities) ids.push(await own.ad({ priority }));
    const api = await readerOf(seeded);

    const all = await api.get('/api/media/v1/ads/random?count=10');
    expect(all.json().data.map((a: { id: string }) => a.id).sort()).toEqual([...ids].sort());

    const counts = new Map(ids.map((id) => [id, 0]));
    const DRAWS = 2000;
    for (let i = 0; i < DRAWS; i++) {
      const res = await api.get('/api/media/v1/ads/random');
      expect(res.statusCode, res.body).toBe(200);
      const [drawn] = res.json().data as Array<{ id: string }>;
      counts.set(drawn!.id, counts.get(drawn!.id)! + 1);
    }
    const total = priorities.reduce((a, b) => a + b, 0);
    const chi2 = ids.reduce((sum, id, i) => {
      const expected = (DRAWS * priorities[i]!) / total;
      return sum + (counts.get(id)! - expected) ** 2 / expected;
    }, 0);
    // 3 degrees of freedom: 16.27 at p = 0.001.
    expect(chi2, JSON.stringify([...counts.values()])).toBeLessThan(16.27);
    // And the weighting is visible: the heaviest ad wins most often, the lightest least.
    expect(counts.get(ids[3]!)!).toBeGreaterThan(counts.get(ids[0]!)! * 4);
  }, 120_000);

  it("reads an ad's window in its time zone across a DST change", async () => {
    const seeded = await seedMedia(ctx.app);
    const own = await adOpsOf(seeded);
    // Paris springs forward on 29 March 2026 at 02:00 CET (01:00Z): 03:00-04:00 local is 01:00Z-02:00Z.
    const paris = await own.ad({ starts_at: '2026-03-29T03:00:00', ends_at: '2026-03-29T04:00:00', timezone: 'Europe/Paris' });
    // New York falls back on 1 November 2026: 01:30 occurs twice; its first (EDT, 05:30Z) to 02:00 EST (07:00Z).
    const ny = await own.ad({ starts_at: '2026-11-01T01:30:00', ends_at: '2026-11-01T02:00:00', timezone: 'America/New_York' });
    const api = await readerOf(seeded);

    const at = async (instant: string) => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date(instant));
      try {
        const res = await api.get('/api/media/v1/ads/random?count=10');
        expect(res.statusCode, res.body).toBe(200);
        return (res.json().data as Array<{ id: string }>).map((a) => a.id).sort();
      } finally {
        vi.useRealTimers();
      }
    };
    expect(await at('2026-03-29T00:59:59.999Z')).toEqual([]);
    expect(await at('2026-03-29T01:00:00.000Z')).toEqual([paris]);
    expect(await at('2026-03-29T01:59:59.999Z')).toEqual([paris]);
    expect(await at('2026-03-29T02:00:00.000Z')).toEqual([]);
    expect(await at('2026-11-01T05:29:59.999Z')).toEqual([]);
    expect(await at('2026-11-01T05:30:00.000Z')).toEqual([ny]);
    // 01:45 EST, after the change: still running, the window being 90 minutes long.
    expect(await at('2026-11-01T06:45:00.000Z')).toEqual([ny]);
    expect(await at('2026-11-01T07:00:00.000Z')).toEqual([]);
  });

  it("serves an issue's ads beside the media's, never another issue's", async () => {
    const seeded = await seedMedia(ctx.app);
    const own = await adOpsOf(seeded);
    const editor = client(ctx.app, seeded.keys.editor);
    const type = (await editor.post('/magazines/v2/issue-types', { key: 'weekly', name: 'Weekly' })).json().data.id;
    const issue = async () => {
      const res = await editor.post(`/magazines/v2/workspaces/${seeded.workspaceId}/issues`, {
        issue_type_id: type,
        kind: 'regular',
        color: '#112233',
        locales: [{ locale: 'en', name: 'Issue' }],
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data.id as string;
    };
    const [one, two] = [await issue(), await issue()];
    const whole = await own.ad();
    const inOne = await own.ad({ placements: [{ target: 'issue', issue_id: one }] });
    const inTwo = await own.ad({ placements: [{ target: 'issue', issue_id: two }] });
    const api = await readerOf(seeded);
    expect([...(await drawable(api))]).toEqual([whole]);
    expect([...(await drawable(api, `&issue_id=${one}`))].sort()).toEqual([whole, inOne].sort());
    expect([...(await drawable(api, `&issue_id=${two}`))].sort()).toEqual([whole, inTwo].sort());
    expect([...(await drawable(api, `&issue_id=${randomUUID()}`))]).toEqual([whole]);
  });
});
