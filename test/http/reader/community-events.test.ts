import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { type CommunityFixture, communityFixture, createProfile } from '../../setup/community.js';
import { expectError } from '../../setup/expect.js';
import { type Client, type SeededMedia, client, seedMedia } from '../../setup/factories.js';
import { type JwksTestProvider, startJwksProvider } from '../../setup/identity-providers.js';
import { clientToken, readerClient, readersOf, registerClient, registerProvider } from '../../setup/reader.js';

let ctx: TestContext;
let media: SeededMedia;
let api: Client;
let f: CommunityFixture;
let jwks: JwksTestProvider;
let readers: ReturnType<typeof readersOf>;
let appReader: ReturnType<typeof readerClient>;

const registration = (id: string) => `/api/media/v1/community/events/${id}/registration`;

beforeAll(async () => {
  ctx = await createTestApp({ rateLimit: { backoffice: 10_000, reader: 10_000, anonymous: 10_000, token: 10_000 } });
  media = await seedMedia(ctx.app, { locales: ['en', 'fr'] });
  api = client(ctx.app, media.keys.editor);
  f = await communityFixture(api, media.workspaceId);
  jwks = await startJwksProvider();
  await registerProvider(ctx.app, media.keys.admin, jwks.registration);
  readers = readersOf(ctx.app, jwks, media.mediaId);
  appReader = readerClient(ctx.app, media.mediaId, (await clientToken(ctx.app, await registerClient(ctx.app, media.keys.admin))).access_token);
});
afterAll(async () => {
  await ctx?.close();
  await jwks?.close();
});

describe('event schedules and occurrences', () => {
  it('a weekly RRULE keeps its local time across the daylight-saving change (Europe/Paris, 29 March 2026)', async () => {
    const event = await createProfile(api, f, 'events', { time_zone: 'Europe/Paris' });
    const put = await api.put(`/community/v2/events/${event.id}/schedules`, {
      schedules: [
        { kind: 'recurrence', starts_local: '2026-03-17T18:30', rrule: 'FREQ=WEEKLY;BYDAY=TU;COUNT=4', duration_minutes: 90 },
        { kind: 'slot', starts_at: '2026-03-20T09:00:00+01:00', ends_at: '2026-03-20T10:00:00+01:00' },
      ],
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data).toEqual([
      { id: expect.any(String), kind: 'recurrence', position: 0, starts_at: null, ends_at: null, starts_local: '2026-03-17T18:30', rrule: 'FREQ=WEEKLY;BYDAY=TU;COUNT=4', duration_minutes: 90 },
      { id: expect.any(String), kind: 'slot', position: 1, starts_at: '2026-03-20T08:00:00.000Z', ends_at: '2026-03-20T09:00:00.000Z', starts_local: null, rrule: null, duration_minutes: null },
    ]);
    expect((await api.get(`/community/v2/events/${event.id}/schedules`)).json()).toEqual(put.json());
    const occ = await api.get(`/community/v2/events/${event.id}/occurrences?from=2026-03-01T00:00:00Z&to=2026-05-01T00:00:00Z`);
    expect(occ.statusCode, occ.body).toBe(200);
    // 18:30 in Paris is 17:30Z before the change (CET, +01:00) and 16:30Z after it (CEST, +02:00).
    expect(occ.json().data.map((o: { starts_at: string; ends_at: string }) => [o.starts_at, o.ends_at])).toEqual([
      ['2026-03-17T17:30:00.000Z', '2026-03-17T19:00:00.000Z'],
      ['2026-03-20T08:00:00.000Z', '2026-03-20T09:00:00.000Z'],
      ['2026-03-24T17:30:00.000Z', '2026-03-24T19:00:00.000Z'],
      ['2026-03-31T16:30:00.000Z', '2026-03-31T18:00:00.000Z'],
      ['2026-04-07T16:30:00.000Z', '2026-04-07T18:00:00.000Z'],
    ]);
    // The Reader's dates by range: the same occurrences within the range, the event in assocs.
    const dates = await appReader.get('/api/media/v1/community/events/dates?from=2026-03-23T00:00:00Z&to=2026-04-01T00:00:00Z');
    expect(dates.statusCode, dates.body).toBe(200);
    const mine = dates.json().data.filter((o: { event_id: string }) => o.event_id === event.id);
    expect(mine.map((o: { starts_at: string }) => o.starts_at)).toEqual(['2026-03-24T17:30:00.000Z', '2026-03-31T16:30:00.000Z']);
    expect(dates.json().assocs.events.map((e: { id: string }) => e.id)).toContain(event.id);
    expect(dates.json().assocs.events[0]).toMatchObject({ kind: 'event', time_zone: 'Europe/Paris' });
  });

  it('refuses an invalid rule, a slot ending before it starts, a range over a year or reversed', async () => {
    const event = await createProfile(api, f, 'events');
    const bad = expectError(await api.put(`/community/v2/events/${event.id}/schedules`, { schedules: [{ kind: 'recurrence', starts_local: '2026-03-17T18:30', rrule: 'FREQ=SOMETIMES', duration_minutes: 5 }] }), 400);
    expect(bad.details![0]!.path).toBe('schedules.0.rrule');
    expectError(await api.put(`/community/v2/events/${event.id}/schedules`, { schedules: [{ kind: 'slot', starts_at: '2026-03-20T10:00:00Z', ends_at: '2026-03-20T09:00:00Z' }] }), 400);
    expectError(await api.get(`/community/v2/events/${event.id}/occurrences?from=2026-01-01T00:00:00Z&to=2027-06-01T00:00:00Z`), 400);
    expectError(await api.get(`/community/v2/events/${event.id}/occurrences?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z`), 400);
    expectError(await api.get(`/community/v2/people/${event.id}/schedules`), 404);
  });
});

describe('registration', () => {
  it('registers once (again: 200 with the same), unregisters, 409 when closed, needs a signed-in reader', async () => {
    const event = await createProfile(api, f, 'events', { capacity: 5, registration_open: true });
    const { api: ada } = await readers.signIn(`ada-${randomUUID()}`);
    const first = await ada.post(registration(event.id), { listed: true, display_name: 'Ada' });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().data).toEqual({ id: expect.any(String), event_id: event.id, listed: true, display_name: 'Ada', inserted_at: expect.any(String) });
    const again = await ada.post(registration(event.id), {});
    expect(again.statusCode).toBe(200);
    expect(again.json().data.id).toBe(first.json().data.id);
    expect((await ada.delete(registration(event.id))).statusCode).toBe(204);
    expect((await ada.post(registration(event.id), {})).statusCode).toBe(201);
    // An application token is not a reader.
    expectError(await appReader.post(registration(event.id), {}), 403);
    expectError(await ada.post(registration(event.id), { listed: true }), 400);
    const closed = await createProfile(api, f, 'events', { registration_open: false });
    expectError(await ada.post(registration(closed.id), {}), 409, 'registration_closed');
    const draft = await createProfile(api, f, 'events', { profile: { status_id: f.statuses.draft } });
    expectError(await ada.post(registration(draft.id), {}), 404);
    expectError(await ada.post(registration(randomUUID()), {}), 404);
  });

  it('100 concurrent registrations of different readers for capacity 10: exactly 10 succeed, the others 409 event_full', async () => {
    const event = await createProfile(api, f, 'events', { capacity: 10, registration_open: true });
    const clients = await Promise.all(Array.from({ length: 100 }, (_, i) => readers.asReader(`crowd-${i}-${randomUUID()}`)));
    const results = await Promise.all(clients.map((c, i) => c.post(registration(event.id), { listed: true, display_name: `Reader ${String(i).padStart(3, '0')}` })));
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 409)).toHaveLength(90);
    for (const r of results.filter((x) => x.statusCode === 409)) expect(r.json().code).toBe('event_full');
    const participants = await appReader.get(`/api/media/v1/community/events/${event.id}/participants?limit=100`);
    expect(participants.json().meta.total).toBe(10);
  });

  it('20 concurrent registrations of one reader: one registration', async () => {
    const event = await createProfile(api, f, 'events', { capacity: 10, registration_open: true });
    const one = await readers.asReader(`twenty-${randomUUID()}`);
    const results = await Promise.all(Array.from({ length: 20 }, () => one.post(registration(event.id), {})));
    expect(results.map((r) => r.statusCode).filter((s) => s === 201)).toHaveLength(1);
    expect(results.every((r) => [200, 201].includes(r.statusCode))).toBe(true);
    expect(new Set(results.map((r) => r.json().data.id)).size).toBe(1);
    expect((await appReader.get(`/api/media/v1/community/events/${event.id}/participants`)).json().meta.total).toBe(1);
  });

  it('participants: only those listed, by display name, paged, with the total; no e-mail or reader id', async () => {
    const event = await createProfile(api, f, 'events', { capacity: null, registration_open: true });
    const names = ['Zoe', 'Anna', 'Mia', 'Bea'];
    for (const name of names) await (await readers.asReader(`p-${name}-${randomUUID()}`, { email: `${name}@x.test` })).post(registration(event.id), { listed: true, display_name: name });
    await (await readers.asReader(`quiet-${randomUUID()}`)).post(registration(event.id), {});
    const first = await appReader.get(`/api/media/v1/community/events/${event.id}/participants?limit=3`);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data.map((p: { display_name: string }) => p.display_name)).toEqual(['Anna', 'Bea', 'Mia']);
    expect(Object.keys(first.json().data[0]).sort()).toEqual(['display_name', 'id']);
    expect(first.body).not.toContain('@x.test');
    expect(first.json().meta.total).toBe(5);
    const next = await appReader.get(first.json().meta.next.replace(/^https?:\/\/[^/]+/, ''));
    expect(next.json().data.map((p: { display_name: string }) => p.display_name)).toEqual(['Zoe']);
  });
});

describe('Reader favorites of kind profile', () => {
  it('must be published profiles of the media', async () => {
    const reader = await readers.asReader(`fav-${randomUUID()}`);
    const path = '/api/media/v1/accounts/me/favorites';
    const person = await createProfile(api, f, 'people');
    const added = await reader.post(path, { kind: 'profile', record_id: person.id });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json().data).toMatchObject({ kind: 'profile', record_id: person.id });
    const draft = await createProfile(api, f, 'organizations', { profile: { status_id: f.statuses.draft } });
    expectError(await reader.post(path, { kind: 'profile', record_id: draft.id }), 404, 'profile_not_found');
    expectError(await reader.post(path, { kind: 'profile', record_id: randomUUID() }), 404, 'profile_not_found');
  });
});
