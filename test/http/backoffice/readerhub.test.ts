import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../../../src/shared/context.js';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { withAuditRefused } from '../../setup/audit.js';
import { ISO_MS, UUID, expectError } from '../../setup/expect.js';
import { type Client, type SeededMedia, client, seedMedia } from '../../setup/factories.js';
import { type JwksTestProvider, startJwksProvider } from '../../setup/identity-providers.js';
import { clientToken, readerClient, readersOf, registerClient, registerProvider } from '../../setup/reader.js';

let ctx: TestContext;
let media: SeededMedia;
let other: SeededMedia;
let jwks: JwksTestProvider;
let admin: Client;
let viewer: Client;
let editor: Client;
let providerId: string;
let alice: { id: string };
let bob: { id: string };
let foreignReader: { id: string };

const HOUR = 3_600_000;
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

beforeAll(async () => {
  ctx = await createTestApp({ rateLimit: { backoffice: 10_000, reader: 10_000, anonymous: 10_000, token: 10_000 } });
  media = await seedMedia(ctx.app);
  other = await seedMedia(ctx.app);
  jwks = await startJwksProvider();
  providerId = await registerProvider(ctx.app, media.keys.admin, jwks.registration);
  await registerProvider(ctx.app, other.keys.admin, jwks.registration);
  admin = client(ctx.app, media.keys.admin);
  viewer = client(ctx.app, media.keys.viewer);
  editor = client(ctx.app, media.keys.editor);
  // Each is a first sign-in: Verify creates the account (201).
  alice = await firstSignIn('alice', { email: 'Alice@Example.test', name: 'Alice' });
  bob = await firstSignIn('bob', { email: 'bob@example.test' });
  foreignReader = await firstSignIn('alice', {}, other.mediaId);
});
afterAll(async () => {
  await ctx?.close();
  await jwks?.close();
});

async function firstSignIn(sub: string, claims: Record<string, unknown> = {}, mediaId = media.mediaId) {
  const reader = await readersOf(ctx.app, jwks, mediaId).signIn(sub, claims);
  expect(reader.status).toBe(201);
  return reader;
}

describe('GET /core/v2/readers', () => {
  it('lists the media readers newest first, so that an editor can find their ids', async () => {
    const res = await admin.get('/core/v2/readers');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.data.map((r: { id: string }) => r.id)).toEqual([bob.id, alice.id]);
    expect(body.data[1]).toEqual({
      id: alice.id,
      provider_id: providerId,
      sub: 'alice',
      email: 'Alice@Example.test',
      name: 'Alice',
      inserted_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
    });
    expect(body.meta).toEqual({ base: '/core/v2/readers', next: null, previous: null });
  });

  it('finds a reader by e-mail address, whatever its case', async () => {
    const res = await admin.get('/core/v2/readers?email=alice%40example.TEST');
    expect(res.json().data.map((r: { id: string }) => r.id)).toEqual([alice.id]);
    expect((await admin.get('/core/v2/readers?email=nobody%40example.test')).json().data).toEqual([]);
  });

  it('pages with cursors', async () => {
    const first = (await admin.get('/core/v2/readers?limit=1')).json();
    expect(first.data.map((r: { id: string }) => r.id)).toEqual([bob.id]);
    expect(first.meta.next).toMatch(/^\/core\/v2\/readers\?limit=1&after=/);
    const second = (await admin.get(first.meta.next)).json();
    expect(second.data.map((r: { id: string }) => r.id)).toEqual([alice.id]);
    expect(second.meta.next).toBeNull();
    expectError(await admin.get('/core/v2/readers?after=forged'), 400, 'invalid_cursor');
  });

  it('answers a reader by id, and 404 for a reader of another media', async () => {
    const res = await admin.get(`/core/v2/readers/${bob.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: bob.id, sub: 'bob', email: 'bob@example.test' });
    expectError(await admin.get(`/core/v2/readers/${foreignReader.id}`), 404, 'reader_not_found');
    expectError(await admin.get(`/core/v2/readers/${randomUUID()}`), 404, 'reader_not_found');
    expectError(await admin.get('/core/v2/readers/not-a-uuid'), 400, 'invalid_uuid');
  });

  it('is refused to roles without readerhub:read (403), editors included', async () => {
    for (const key of [media.keys.editor, media.keys.ad_manager, media.keys.messenger]) {
      expectError(await client(ctx.app, key).get('/core/v2/readers'), 403, 'forbidden');
      expectError(await client(ctx.app, key).get(`/core/v2/readers/${alice.id}`), 403, 'forbidden');
    }
    expectError(await client(ctx.app).get('/core/v2/readers'), 401, 'missing_api_key');
  });
});

describe('reader entitlements', () => {
  it('creates an entitlement (201) with its window normalised to UTC and an active status', async () => {
    const res = await admin.post('/core/v2/reader-entitlements', {
      reader_id: alice.id,
      product_key: 'digital-plus',
      starts_at: '2020-01-01T01:00:00+01:00',
      ends_at: '2999-12-31T23:59:59.999Z',
    });
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data;
    expect(data).toEqual({
      id: expect.stringMatching(UUID),
      reader_id: alice.id,
      product_key: 'digital-plus',
      status: 'active',
      starts_at: '2020-01-01T00:00:00.000Z',
      ends_at: '2999-12-31T23:59:59.999Z',
      revoked_at: null,
      inserted_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
    });
    const fetched = await admin.get(`/core/v2/reader-entitlements/${data.id}`);
    expect(fetched.json().data).toEqual(data);
  });

  it('defaults starts_at to now and leaves ends_at open; a future start is scheduled, a past window expired', async () => {
    const before = Date.now();
    const open = (await admin.post('/core/v2/reader-entitlements', { reader_id: bob.id, product_key: 'archive' })).json().data;
    expect(Date.parse(open.starts_at)).toBeGreaterThanOrEqual(before - 5);
    expect(open).toMatchObject({ ends_at: null, status: 'active' });

    const scheduled = await admin.post('/core/v2/reader-entitlements', { reader_id: bob.id, product_key: 'print', starts_at: at(HOUR) });
    expect(scheduled.json().data.status).toBe('scheduled');
    const expired = await admin.post('/core/v2/reader-entitlements', {
      reader_id: bob.id,
      product_key: 'print',
      starts_at: at(-2 * HOUR),
      ends_at: at(-HOUR),
    });
    expect(expired.json().data.status).toBe('expired');
  });

  it('refuses a window that ends before it starts, a bad product key, unknown and server-owned fields (400)', async () => {
    const inAnHour = at(HOUR); // one instant: two calls of at() can fall a millisecond apart
    const bad = [
      { reader_id: alice.id, product_key: 'p', starts_at: inAnHour, ends_at: inAnHour },
      { reader_id: alice.id, product_key: 'p', starts_at: at(HOUR), ends_at: at(-HOUR) },
      { reader_id: alice.id, product_key: 'p', ends_at: at(-HOUR) },
      { reader_id: alice.id, product_key: 'p', starts_at: 'yesterday' },
      { reader_id: alice.id, product_key: 'has space' },
      { reader_id: alice.id },
      { product_key: 'p' },
      { reader_id: 'not-a-uuid', product_key: 'p' },
      { reader_id: alice.id, product_key: 'p', status: 'active' },
      { reader_id: alice.id, product_key: 'p', revoked_at: null },
      { reader_id: alice.id, product_key: 'p', id: randomUUID() },
    ];
    for (const body of bad) {
      const res = await admin.post('/core/v2/reader-entitlements', body);
      expectError(res, 400, 'validation_failed');
    }
    const window = expectError(
      await admin.post('/core/v2/reader-entitlements', { reader_id: alice.id, product_key: 'p', starts_at: at(HOUR), ends_at: at(0) }),
      400,
      'validation_failed',
    );
    expect(window.details).toEqual([expect.objectContaining({ path: 'ends_at' })]);
  });

  it('answers 404 reader_not_found for a reader of another media or an unknown one, and writes nothing', async () => {
    const count = async () => (await admin.get('/core/v2/reader-entitlements?limit=100')).json().data.length;
    const before = await count();
    expectError(
      await admin.post('/core/v2/reader-entitlements', { reader_id: foreignReader.id, product_key: 'p' }),
      404,
      'reader_not_found',
    );
    expectError(await admin.post('/core/v2/reader-entitlements', { reader_id: randomUUID(), product_key: 'p' }), 404, 'reader_not_found');
    expect(await count()).toBe(before);
  });

  it('lists newest first, filtered by reader, product key and status', async () => {
    const reader = await firstSignIn(`lister-${randomUUID()}`);
    const a = (await admin.post('/core/v2/reader-entitlements', { reader_id: reader.id, product_key: 'one' })).json().data;
    const b = (await admin.post('/core/v2/reader-entitlements', { reader_id: reader.id, product_key: 'two', starts_at: at(HOUR) })).json().data;
    const c = (await admin.post('/core/v2/reader-entitlements', { reader_id: reader.id, product_key: 'one' })).json().data;

    const mine = (await admin.get(`/core/v2/reader-entitlements?reader_id=${reader.id}`)).json();
    expect(mine.data.map((x: { id: string }) => x.id)).toEqual([c.id, b.id, a.id]);
    expect(mine.meta.base).toBe(`/core/v2/reader-entitlements?reader_id=${reader.id}`);

    const paged = (await admin.get(`/core/v2/reader-entitlements?reader_id=${reader.id}&limit=2`)).json();
    expect(paged.data.map((x: { id: string }) => x.id)).toEqual([c.id, b.id]);
    expect((await admin.get(paged.meta.next)).json().data.map((x: { id: string }) => x.id)).toEqual([a.id]);

    const ones = (await admin.get(`/core/v2/reader-entitlements?reader_id=${reader.id}&product_key=one`)).json();
    expect(ones.data.map((x: { id: string }) => x.id)).toEqual([c.id, a.id]);
    const scheduled = (await admin.get(`/core/v2/reader-entitlements?reader_id=${reader.id}&status=scheduled`)).json();
    expect(scheduled.data.map((x: { id: string }) => x.id)).toEqual([b.id]);

    // Another media's reader id filters to nothing; it never reaches that media's rows.
    const foreign = await client(ctx.app, other.keys.admin).post('/core/v2/reader-entitlements', {
      reader_id: foreignReader.id,
      product_key: 'one',
    });
    expect(foreign.statusCode).toBe(201);
    expect((await admin.get(`/core/v2/reader-entitlements?reader_id=${foreignReader.id}`)).json().data).toEqual([]);
    expectError(await admin.get('/core/v2/reader-entitlements?reader_id=nope'), 400, 'validation_failed');
    expectError(await admin.get('/core/v2/reader-entitlements?status=gone'), 400, 'validation_failed');
  });

  it('revokes with 204, keeping the row with revoked_at; revoking again changes nothing', async () => {
    const created = (await admin.post('/core/v2/reader-entitlements', { reader_id: alice.id, product_key: 'revokable' })).json().data;
    expect((await admin.delete(`/core/v2/reader-entitlements/${created.id}`)).statusCode).toBe(204);
    const revoked = (await admin.get(`/core/v2/reader-entitlements/${created.id}`)).json().data;
    expect(revoked).toMatchObject({ id: created.id, status: 'revoked', revoked_at: expect.stringMatching(ISO_MS) });

    expect((await admin.delete(`/core/v2/reader-entitlements/${created.id}`)).statusCode).toBe(204);
    expect((await admin.get(`/core/v2/reader-entitlements/${created.id}`)).json().data.revoked_at).toBe(revoked.revoked_at);

    const listed = (await admin.get(`/core/v2/reader-entitlements?reader_id=${alice.id}&status=revoked`)).json();
    expect(listed.data.map((x: { id: string }) => x.id)).toContain(created.id);
  });

  it("answers 404 for another media's entitlement on read and revoke, and leaves it alone", async () => {
    const foreign = (
      await client(ctx.app, other.keys.admin).post('/core/v2/reader-entitlements', { reader_id: foreignReader.id, product_key: 'x' })
    ).json().data;
    expectError(await admin.get(`/core/v2/reader-entitlements/${foreign.id}`), 404, 'entitlement_not_found');
    expectError(await admin.delete(`/core/v2/reader-entitlements/${foreign.id}`), 404, 'entitlement_not_found');
    expectError(await admin.delete(`/core/v2/reader-entitlements/${randomUUID()}`), 404, 'entitlement_not_found');
    const untouched = await client(ctx.app, other.keys.admin).get(`/core/v2/reader-entitlements/${foreign.id}`);
    expect(untouched.json().data.revoked_at).toBeNull();
  });

  it('leaves nothing behind when the audit entry of a grant or a revoke cannot be written: one transaction', async () => {
    const kept = (await admin.post('/core/v2/reader-entitlements', { reader_id: alice.id, product_key: 'audited' })).json().data;
    await withAuditRefused(ctx.database.db, 'createReaderEntitlement', async () => {
      expectError(await admin.post('/core/v2/reader-entitlements', { reader_id: alice.id, product_key: 'never-granted' }), 500, 'internal');
    });
    await withAuditRefused(ctx.database.db, 'deleteReaderEntitlement', async () => {
      expectError(await admin.delete(`/core/v2/reader-entitlements/${kept.id}`), 500, 'internal');
    });
    expect((await admin.get('/core/v2/reader-entitlements?product_key=never-granted')).json().data).toEqual([]);
    expect((await admin.get(`/core/v2/reader-entitlements/${kept.id}`)).json().data).toMatchObject({ id: kept.id, status: 'active', revoked_at: null });
  });

  it('is refused to roles lacking readerhub permissions: editors and viewers, 403 on reads and writes', async () => {
    const created = (await admin.post('/core/v2/reader-entitlements', { reader_id: alice.id, product_key: 'perm' })).json().data;
    const body = { reader_id: alice.id, product_key: 'perm' };
    for (const key of [media.keys.editor, media.keys.ad_manager, media.keys.messenger]) {
      const api = client(ctx.app, key);
      expectError(await api.post('/core/v2/reader-entitlements', body), 403, 'forbidden');
      expectError(await api.get('/core/v2/reader-entitlements'), 403, 'forbidden');
      expectError(await api.get(`/core/v2/reader-entitlements/${created.id}`), 403, 'forbidden');
      expectError(await api.delete(`/core/v2/reader-entitlements/${created.id}`), 403, 'forbidden');
    }
    // Readers' personal data needs readerhub:read, which viewers do not have (issue 7's decision).
    for (const res of [
      await viewer.post('/core/v2/reader-entitlements', body),
      await viewer.get('/core/v2/reader-entitlements'),
      await viewer.get(`/core/v2/reader-entitlements/${created.id}`),
      await viewer.delete(`/core/v2/reader-entitlements/${created.id}`),
      await viewer.get('/core/v2/readers'),
    ]) {
      expectError(res, 403, 'forbidden');
    }
    expect((await admin.get(`/core/v2/reader-entitlements/${created.id}`)).json().data.revoked_at).toBeNull();
  });
});

describe('reader invitations', () => {
  it('creates an invitation (201) with the e-mail in lower case, then reads and lists it', async () => {
    const expiresAt = at(24 * HOUR);
    const res = await admin.post('/core/v2/reader-invitations', {
      email: 'Invitee@Example.TEST',
      product_key: 'digital',
      expires_at: expiresAt,
    });
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data;
    expect(data).toEqual({
      id: expect.stringMatching(UUID),
      email: 'invitee@example.test',
      product_key: 'digital',
      status: 'pending',
      expires_at: expiresAt,
      inserted_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
    });
    expect((await admin.get(`/core/v2/reader-invitations/${data.id}`)).json().data).toEqual(data);
    const listed = (await admin.get('/core/v2/reader-invitations')).json();
    expect(listed.data[0]).toEqual(data);
    expect(listed.meta).toMatchObject({ base: '/core/v2/reader-invitations', previous: null });

    const plain = await admin.post('/core/v2/reader-invitations', { email: 'plain@example.test', expires_at: expiresAt });
    expect(plain.json().data.product_key).toBeNull();
  });

  it('refuses a past expiry, a malformed e-mail, a missing expiry and unknown fields (400)', async () => {
    for (const body of [
      { email: 'a@example.test', expires_at: at(-HOUR) },
      { email: 'not-an-email', expires_at: at(HOUR) },
      { email: 'a@example.test' },
      { email: 'a@example.test', expires_at: at(HOUR), accepted: true },
      { email: 'a@example.test', expires_at: at(HOUR), product_key: 'has space' },
    ]) {
      expectError(await admin.post('/core/v2/reader-invitations', body), 400, 'validation_failed');
    }
  });

  it('lists expired invitations as expired, and answers 404 for another media', async () => {
    const expired = await ctx.app.services.readerhub.invitations.create(systemContext(ctx.app.db, media.mediaId), {
      email: 'late@example.test',
      expires_at: new Date(Date.now() - HOUR),
    });
    expect((await admin.get(`/core/v2/reader-invitations/${expired.id}`)).json().data.status).toBe('expired');
    const foreign = await ctx.app.services.readerhub.invitations.create(systemContext(ctx.app.db, other.mediaId), {
      email: 'x@example.test',
      expires_at: new Date(Date.now() + HOUR),
    });
    expectError(await admin.get(`/core/v2/reader-invitations/${foreign.id}`), 404, 'invitation_not_found');
  });

  it('is answered on the Reader by id to an application token; expired and foreign ones are 404', async () => {
    const app = readerClient(ctx.app, media.mediaId, (await clientToken(ctx.app, await registerClient(ctx.app, media.keys.admin))).access_token);
    const created = (await admin.post('/core/v2/reader-invitations', { email: 'reader@example.test', expires_at: at(HOUR) })).json().data;
    const res = await app.get(`/api/media/v1/invitations/${created.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      data: { id: created.id, email: 'reader@example.test', product_key: null, expires_at: created.expires_at },
    });

    const expired = await ctx.app.services.readerhub.invitations.create(systemContext(ctx.app.db, media.mediaId), {
      email: 'late@example.test',
      expires_at: new Date(Date.now() - 1000),
    });
    expectError(await app.get(`/api/media/v1/invitations/${expired.id}`), 404, 'invitation_expired');
    const foreign = await ctx.app.services.readerhub.invitations.create(systemContext(ctx.app.db, other.mediaId), {
      email: 'x@example.test',
      expires_at: new Date(Date.now() + HOUR),
    });
    expectError(await app.get(`/api/media/v1/invitations/${foreign.id}`), 404, 'invitation_not_found');
    expectError(await app.get(`/api/media/v1/invitations/${randomUUID()}`), 404, 'invitation_not_found');
    expectError(await app.get('/api/media/v1/invitations/nope'), 400, 'invalid_uuid');
    expectError(await readerClient(ctx.app, media.mediaId).get(`/api/media/v1/invitations/${created.id}`), 401, 'missing_token');
  });

  it('is refused to editors and viewers (403)', async () => {
    expectError(await editor.post('/core/v2/reader-invitations', { email: 'a@example.test', expires_at: at(HOUR) }), 403, 'forbidden');
    expectError(await editor.get('/core/v2/reader-invitations'), 403, 'forbidden');
    expectError(await viewer.post('/core/v2/reader-invitations', { email: 'a@example.test', expires_at: at(HOUR) }), 403, 'forbidden');
    expectError(await viewer.get('/core/v2/reader-invitations'), 403, 'forbidden');
  });
});
