import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { type Client, type SeededMedia, client, seedMedia } from '../../setup/factories.js';
import {
  type ReaderOf,
  expectPublicBadId,
  expectPublicNotFound,
  expectSameAsReader,
  publicGet,
  readerOf,
} from '../../setup/public.js';

let ctx: TestContext;
let media: SeededMedia;
let other: SeededMedia;
let reader: ReaderOf;
let ads: Client;
let activeAdvertiser: { id: string };
let secondAdvertiser: { id: string };
let adId: string;

const AD_OPS = '/api/public/ad-ops';
const MESSENGER = '/api/public/messenger/v2';

async function advertiser(api: Client, body: Record<string, unknown>) {
  const res = await api.post('/ad-ops/v2/advertisers', { name: `Acme ${randomUUID().slice(0, 6)}`, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: string; name: string };
}

beforeAll(async () => {
  ctx = await createTestApp({ rateLimit: { backoffice: 10_000, reader: 10_000, anonymous: 10_000, token: 10_000 } });
  [media, other] = await Promise.all([seedMedia(ctx.app), seedMedia(ctx.app)]);
  reader = await readerOf(ctx.app, media.keys.admin, media.mediaId);
  ads = client(ctx.app, media.keys.ad_manager);
  activeAdvertiser = await advertiser(ads, { website: 'https://acme.example', contact_email: 'sales@acme.example' });
  await advertiser(ads, { is_active: false });
  secondAdvertiser = await advertiser(ads, {});
  await advertiser(client(ctx.app, other.keys.ad_manager), {});

  const categoryId = (await ads.post('/ad-ops/v2/ad-categories', { name: 'Cars' })).json().data.id as string;
  const ad = await ads.post(`/ad-ops/v2/advertisers/${activeAdvertiser.id}/ads`, {
    advertiser_id: activeAdvertiser.id,
    name: 'Spring sale',
    priority: 1,
    category: { id: categoryId },
    starts_at: '2020-01-01T00:00:00Z',
    ends_at: '2099-01-01T00:00:00Z',
    timezone: 'Europe/Paris',
  });
  expect(ad.statusCode, ad.body).toBe(201);
  adId = ad.json().data.id;
  const creative = await ads.post(`/ad-ops/v2/ads/${adId}/creatives`, { name: 'C', kind: 'html', click_url: 'https://acme.example/go', html: '<p>Buy</p>' });
  expect(creative.statusCode, creative.body).toBe(201);
  expect((await ads.post(`/ad-ops/v2/ads/${adId}/placements`, { target: 'media' })).statusCode).toBe(201);
});
afterAll(() => ctx.close());

describe('Public (deprecated) GET /api/public/ad-ops/v2/medias/{media_id}/advertisers', () => {
  const url = (mediaId: string, query = '') => `${AD_OPS}/v2/medias/${mediaId}/advertisers${query}`;

  it('lists the active advertisers, newest first, with name and website only, paged', async () => {
    const res = await publicGet(ctx.app, url(media.mediaId), '/api/media/v1/ads/random');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data.map((a: { id: string }) => a.id)).toEqual([secondAdvertiser.id, activeAdvertiser.id]);
    expect(body.data[1]).toEqual({ id: activeAdvertiser.id, name: expect.stringMatching(/^Acme /), website: 'https://acme.example' });
    expect(JSON.stringify(body)).not.toContain('sales@acme.example');

    const first = await publicGet(ctx.app, url(media.mediaId, '?limit=1'));
    expect(first.json().data.map((a: { id: string }) => a.id)).toEqual([secondAdvertiser.id]);
    const next = first.json().meta.next as string;
    expect(next).toMatch(new RegExp(`^/api/public/ad-ops/v2/medias/${media.mediaId}/advertisers\\?limit=1&after=`));
    const second = await publicGet(ctx.app, next);
    expect(second.json().data.map((a: { id: string }) => a.id)).toEqual([activeAdvertiser.id]);
    expect(second.json().meta.next).toBeNull();
  });

  it('answers 404 for an unknown media, 400 for a malformed one or a bad limit', async () => {
    await expectPublicNotFound(ctx.app, url(randomUUID()), 'media_not_found');
    await expectPublicBadId(ctx.app, url('nope'));
    const res = await publicGet(ctx.app, url(media.mediaId, '?limit=0'));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed' });
  });

  it("never lists another media's advertisers", async () => {
    const res = await publicGet(ctx.app, url(other.mediaId));
    expect(res.json().data).toHaveLength(1);
    expect(res.json().data[0].id).not.toBe(activeAdvertiser.id);
  });
});

describe('Public (deprecated) random ads under AdOps V1 and V2', () => {
  for (const version of ['v1', 'v2']) {
    const url = (mediaId: string, query = '') => `${AD_OPS}/${version}/medias/${mediaId}/ads${query}`;

    it(`${version}: draws the running ads exactly as the Reader does, linking it as successor`, async () => {
      // Each answer is a draw of its own: no cache may hand it to another visitor.
      const res = await publicGet(ctx.app, url(media.mediaId, '?count=5'), '/api/media/v1/ads/random', 'no-store');
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual([
        expect.objectContaining({ id: adId, name: 'Spring sale', advertiser_id: activeAdvertiser.id, creative: expect.objectContaining({ kind: 'html', html: '<p>Buy</p>' }) }),
      ]);
      await expectSameAsReader(ctx.app, reader, url(media.mediaId, '?count=5'), '/api/media/v1/ads/random?count=5');
    });

    it(`${version}: 404 for an unknown media, 400 for a malformed one and for a bad count`, async () => {
      await expectPublicNotFound(ctx.app, url(randomUUID()), 'media_not_found');
      await expectPublicBadId(ctx.app, url('x'));
      expect((await publicGet(ctx.app, url(media.mediaId, '?count=11'))).statusCode).toBe(400);
      expect((await publicGet(ctx.app, url(other.mediaId), undefined, 'no-store')).json().data).toEqual([]);
    });
  }
});

describe('Public (deprecated) messenger', () => {
  let listId: string;
  let subscription: { id: string; mailing_list_id: string; status: string };
  let othersSubscriptionId: string;

  beforeAll(async () => {
    const api = client(ctx.app, media.keys.messenger);
    const list = await api.post('/messenger/v2/mailing-lists', { locales: [{ locale: 'en', name: 'Morning' }, { locale: 'fr', name: 'Matin' }], is_public: true });
    listId = list.json().data.id;
    await api.post('/messenger/v2/mailing-lists', { locales: [{ locale: 'en', name: 'Staff only' }] });
    await api.post(`/messenger/v2/mailing-lists/${listId}/subscriptions/bulk`, { subscriptions: [{ email: 'reader@example.com' }] });
    subscription = (await api.get(`/messenger/v2/mailing-lists/${listId}/subscriptions`)).json().data[0];
    const theirs = client(ctx.app, other.keys.messenger);
    const theirList = (await theirs.post('/messenger/v2/mailing-lists', { locales: [{ locale: 'en', name: 'Theirs' }], is_public: true })).json().data.id;
    await theirs.post(`/messenger/v2/mailing-lists/${theirList}/subscriptions/bulk`, { subscriptions: [{ email: 'other@example.com' }] });
    othersSubscriptionId = (await theirs.get(`/messenger/v2/mailing-lists/${theirList}/subscriptions`)).json().data[0].id;
  });

  it('lists the public mailing lists in the asked language, as the Reader does', async () => {
    const url = `${MESSENGER}/medias/${media.mediaId}/mailing-lists?locale=fr`;
    const res = await publicGet(ctx.app, url, '/api/media/v1/newsletter/mailing-lists');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([expect.objectContaining({ id: listId, name: 'Matin' })]);
    expect(res.json().meta.locales).toEqual({ current: 'fr', available: ['en', 'fr'], requested: 'fr' });
    await expectSameAsReader(ctx.app, reader, url, '/api/media/v1/newsletter/mailing-lists?locale=fr');
    await expectPublicNotFound(ctx.app, `${MESSENGER}/medias/${randomUUID()}/mailing-lists`, 'media_not_found');
    await expectPublicBadId(ctx.app, `${MESSENGER}/medias/1/mailing-lists`);
  });

  it("tells a subscription's state and never its address", async () => {
    const url = `${MESSENGER}/subscriptions/${subscription.id}`;
    const res = await publicGet(ctx.app, url, '/api/media/v1/newsletter/subscriptions');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: { id: subscription.id, mailing_list_id: listId, status: 'subscribed', confirmed_at: expect.any(String), updated_at: expect.any(String) },
    });
    expect(res.body).not.toContain('reader@example.com');

    // Unsubscribed through the Backoffice's import: the Public answer follows.
    const imported = await client(ctx.app, media.keys.messenger).post(`/messenger/v2/mailing-lists/${listId}/subscriptions/bulk`, {
      subscriptions: [{ email: 'reader@example.com', status: 'unsubscribed' }],
    });
    expect(imported.json().data).toMatchObject({ updated: 1 });
    expect((await publicGet(ctx.app, url)).json().data).toMatchObject({ id: subscription.id, status: 'unsubscribed' });
  });

  it('answers 404 for an unknown subscription, 400 for a malformed id; every media answers for its own', async () => {
    await expectPublicNotFound(ctx.app, `${MESSENGER}/subscriptions/${randomUUID()}`, 'subscription_not_found');
    await expectPublicBadId(ctx.app, `${MESSENGER}/subscriptions/abc`);
    const theirs = await publicGet(ctx.app, `${MESSENGER}/subscriptions/${othersSubscriptionId}`);
    expect(theirs.json().data).toMatchObject({ id: othersSubscriptionId, status: 'subscribed' });
  });
});
