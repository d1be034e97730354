import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { entitlementSchema, readerEntitlementSchema } from '../../../src/modules/readerhub/entitlements/entitlements.schemas.js';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { type Client, type SeededMedia, client, seedMedia } from '../../setup/factories.js';
import { type JwksTestProvider, startJwksProvider } from '../../setup/identity-providers.js';
import { clientToken, readerClient, readersOf, registerClient, registerProvider } from '../../setup/reader.js';

let ctx: TestContext;
let media: SeededMedia;
let other: SeededMedia;
let jwks: JwksTestProvider;
let backoffice: Client;
let otherBackoffice: Client;

const HOUR = 3_600_000;
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
const path = '/api/media/v1/accounts/me/entitlements';

type Entitlement = z.output<typeof entitlementSchema>;
type ReaderEntitlement = z.output<typeof readerEntitlementSchema>;

beforeAll(async () => {
  ctx = await createTestApp({ rateLimit: { backoffice: 10_000, reader: 10_000, anonymous: 10_000, token: 10_000 } });
  media = await seedMedia(ctx.app);
  other = await seedMedia(ctx.app);
  jwks = await startJwksProvider();
  await registerProvider(ctx.app, media.keys.admin, jwks.registration);
  await registerProvider(ctx.app, other.keys.admin, jwks.registration);
  backoffice = client(ctx.app, media.keys.admin);
  otherBackoffice = client(ctx.app, other.keys.admin);
});
afterAll(async () => {
  await ctx?.close();
  await jwks?.close();
});

/** A signed-in reader of `media` (or of another media): their Reader client and reader id. */
const signIn = (sub: string, mediaId = media.mediaId) => readersOf(ctx.app, jwks, mediaId).signIn(sub);

async function grant(readerId: string, body: Record<string, unknown>, api = backoffice): Promise<Entitlement> {
  const res = await api.post('/core/v2/reader-entitlements', { reader_id: readerId, product_key: 'digital', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

const idsOf = (body: { data: ReaderEntitlement[] }) => body.data.map((e) => e.id).sort();

describe('GET /api/media/v1/accounts/me/entitlements', () => {
  let alice: Awaited<ReturnType<typeof signIn>>;
  let bob: Awaited<ReturnType<typeof signIn>>;
  const e: Record<string, Entitlement> = {};

  beforeAll(async () => {
    alice = await signIn('alice');
    bob = await signIn('bob');
    e.active = await grant(alice.id, { product_key: 'digital', starts_at: at(-HOUR), ends_at: at(HOUR) });
    e.openEnded = await grant(alice.id, { product_key: 'archive', starts_at: at(-HOUR) });
    e.scheduled = await grant(alice.id, { product_key: 'print', starts_at: at(HOUR), ends_at: at(2 * HOUR) });
    e.expired = await grant(alice.id, { product_key: 'digital', starts_at: at(-2 * HOUR), ends_at: at(-HOUR) });
    e.revoked = await grant(alice.id, { product_key: 'digital', starts_at: at(-HOUR), ends_at: at(HOUR) });
    expect((await backoffice.delete(`/core/v2/reader-entitlements/${e.revoked.id}`)).statusCode).toBe(204);
    e.bobs = await grant(bob.id, { product_key: 'digital' });
  });

  it("answers only the reader's own active entitlements by default, with their status and window", async () => {
    const res = await alice.api.get(path);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(idsOf(body)).toEqual([e.active!.id, e.openEnded!.id].sort());
    expect(body.data.every((x: ReaderEntitlement) => x.status === 'active')).toBe(true);
    const active = body.data.find((x: ReaderEntitlement) => x.id === e.active!.id);
    expect(active).toEqual({
      id: e.active!.id,
      product_key: 'digital',
      status: 'active',
      starts_at: e.active!.starts_at,
      ends_at: e.active!.ends_at,
      revoked_at: null,
      inserted_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(active).not.toHaveProperty('reader_id');
    expect(body.data.find((x: ReaderEntitlement) => x.id === e.openEnded!.id).ends_at).toBeNull();

    const bobs = await bob.api.get(path);
    expect(idsOf(bobs.json())).toEqual([e.bobs!.id]);
  });

  it('answers scheduled, expired and revoked ones only when `status` asks for them', async () => {
    const scheduled = (await alice.api.get(`${path}?status=scheduled`)).json();
    expect(idsOf(scheduled)).toEqual([e.scheduled!.id]);
    expect(scheduled.data[0].status).toBe('scheduled');

    const expired = (await alice.api.get(`${path}?status=expired`)).json();
    expect(idsOf(expired)).toEqual([e.expired!.id]);
    expect(expired.data[0].status).toBe('expired');

    const revoked = (await alice.api.get(`${path}?status=revoked`)).json();
    expect(idsOf(revoked)).toEqual([e.revoked!.id]);
    expect(revoked.data[0]).toMatchObject({ status: 'revoked', revoked_at: expect.any(String) });

    const several = (await alice.api.get(`${path}?status=active,scheduled`)).json();
    expect(idsOf(several)).toEqual([e.active!.id, e.openEnded!.id, e.scheduled!.id].sort());

    const all = (await alice.api.get(`${path}?status=active,scheduled,expired,revoked`)).json();
    expect(all.data).toHaveLength(5);
  });

  it('filters by product key and pages newest first', async () => {
    const digital = (await alice.api.get(`${path}?product_key=digital&status=active,expired,revoked`)).json();
    expect(idsOf(digital)).toEqual([e.active!.id, e.expired!.id, e.revoked!.id].sort());

    const first = (await alice.api.get(`${path}?status=active,scheduled,expired,revoked&limit=2`)).json();
    expect(first.data.map((x: ReaderEntitlement) => x.id)).toEqual([e.revoked!.id, e.expired!.id]);
    const next = new URL(first.meta.next);
    expect(next.searchParams.get('status')).toBe('active,scheduled,expired,revoked');
    const second = (await alice.api.get(next.pathname + next.search)).json();
    expect(second.data.map((x: ReaderEntitlement) => x.id)).toEqual([e.scheduled!.id, e.openEnded!.id]);
  });

  it('never answers an entitlement as active once its window has closed', async () => {
    const carol = await signIn('carol');
    const closing = await grant(carol.id, { starts_at: at(-HOUR), ends_at: at(1_500) });
    expect(idsOf((await carol.api.get(path)).json())).toEqual([closing.id]);
    await new Promise((resolve) => setTimeout(resolve, Date.parse(closing.ends_at!) - Date.now() + 50));
    expect((await carol.api.get(path)).json().data).toEqual([]);
    const expired = (await carol.api.get(`${path}?status=expired`)).json();
    expect(expired.data).toEqual([expect.objectContaining({ id: closing.id, status: 'expired' })]);
  });

  it('refuses an unknown status and an empty one (400)', async () => {
    for (const query of ['status=lapsed', 'status=', 'status=active,', 'limit=0']) {
      const res = await alice.api.get(`${path}?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
  });

  it("keeps media apart: the same person in another media sees none of this media's entitlements, and vice versa", async () => {
    const aliceThere = await signIn('alice', other.mediaId);
    expect(aliceThere.id).not.toBe(alice.id);
    expect((await aliceThere.api.get(`${path}?status=active,scheduled,expired,revoked`)).json().data).toEqual([]);

    const foreign = await grant(aliceThere.id, { product_key: 'elsewhere' }, otherBackoffice);
    expect(idsOf((await aliceThere.api.get(path)).json())).toEqual([foreign.id]);
    const here = (await alice.api.get(`${path}?status=active,scheduled,expired,revoked`)).json();
    expect(here.data.map((x: ReaderEntitlement) => x.id)).not.toContain(foreign.id);
  });

  it('refuses an application token with 403 reader_required, and a token without account:read with 403 insufficient_scope', async () => {
    const creds = await registerClient(ctx.app, media.keys.admin);
    const app = readerClient(ctx.app, media.mediaId, (await clientToken(ctx.app, creds)).access_token);
    const res = await app.get(path);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('reader_required');

    const narrow = readerClient(ctx.app, media.mediaId, (await clientToken(ctx.app, creds, 'media:read')).access_token);
    const scoped = await narrow.get(path);
    expect(scoped.statusCode).toBe(403);
    expect(scoped.json().code).toBe('insufficient_scope');

    const none = await readerClient(ctx.app, media.mediaId).get(path);
    expect(none.statusCode).toBe(401);
  });

  it("does not answer another media's reader token here (401)", async () => {
    const stranger = await startJwksProvider();
    try {
      await registerProvider(ctx.app, other.keys.admin, stranger.registration);
      const res = await readerClient(ctx.app, media.mediaId, await stranger.mint({ sub: randomUUID() })).get(path);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('invalid_token');
    } finally {
      await stranger.close();
    }
  });
});
