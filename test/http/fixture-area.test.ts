import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noteLocales, notes, notesArea } from '../fixtures/notes.area.js';
import { type TestContext, createTestApp } from '../setup/app.js';
import { ISO_MS, UUID, expectError } from '../setup/expect.js';
import { type Client, type SeededMedia, client, seedMedia } from '../setup/factories.js';
import { backofficeRouteTable, readerRouteTable } from '../setup/kits/route-table.js';
import { restoreChecks } from '../setup/kits/restore.js';
import { tenancyChecks } from '../setup/kits/tenancy.js';
import { clientToken, registerClient } from '../setup/reader.js';

// An area declared in one file (test/fixtures/notes.area.ts) and mounted by the test alone: the
// shared kits give it the checks every area's routes get.
const ctx: TestContext = await createTestApp(
  { rateLimit: { backoffice: 10_000, reader: 10_000, anonymous: 10_000, token: 10_000 } },
  { areas: [notesArea] },
  { tables: [notes, noteLocales] },
);
afterAll(() => ctx.close());

const createNote = async (api: Client, body: Record<string, unknown> = {}) => {
  const res = await api.post('/notes/v2/notes', { locales: [{ locale: 'en', title: `Note ${randomUUID().slice(0, 8)}` }, { locale: 'fr', title: 'Note' }], ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
};

let media: SeededMedia;
let foreign: SeededMedia;
let editor: Client;
let token: string;
beforeAll(async () => {
  [media, foreign] = [await seedMedia(ctx.app), await seedMedia(ctx.app)];
  editor = client(ctx.app, media.keys.editor);
  token = (await clientToken(ctx.app, await registerClient(ctx.app, media.keys.admin, ['media:read']))).access_token;
});

const routes = ctx.app.routeTable.filter((r) => r.url.includes('/notes'));

describe('the fixture area', () => {
  it('mounts Backoffice CRUD and restore, the Reader list and read by id, and the Public reads, declared by its record', () => {
    expect(routes.map((r) => `${r.interface} ${r.method} ${r.url} ${r.operationId}`)).toEqual([
      'backoffice GET /notes/v2/notes listNotes',
      'backoffice POST /notes/v2/notes createNote',
      'backoffice GET /notes/v2/notes/:id getNote',
      'backoffice PATCH /notes/v2/notes/:id updateNote',
      'backoffice DELETE /notes/v2/notes/:id deleteNote',
      'backoffice POST /notes/v2/notes/:id/restore restoreNote',
      'reader GET /api/media/v1/notes readerListNotes',
      'reader GET /api/media/v1/notes/:id readerGetNote',
      'public GET /api/public/notes/v2/medias/:media_id/notes publicListNotes',
      'public GET /api/public/notes/v2/notes/:id publicGetNote',
    ]);
  });

  it('is in no production app: neither its routes nor its schemas', async () => {
    const plain = await createTestApp();
    try {
      expect(plain.app.routeTable.filter((r) => r.url.includes('/notes'))).toEqual([]);
      const document = JSON.stringify(plain.app.swagger());
      expect(document).not.toContain('FixtureNote');
      expect(document).not.toContain('/notes');
    } finally {
      await plain.close();
    }
    expect(JSON.stringify(ctx.app.swagger())).toContain('/notes/v2/notes');
  });

  it('creates a note with its locales, reads and updates it on the Backoffice', async () => {
    const note = await createNote(editor);
    expect(note).toEqual({
      id: expect.stringMatching(UUID),
      is_hidden: false,
      locales: [
        { id: expect.stringMatching(UUID), locale: 'en', title: expect.stringMatching(/^Note /), deleted_at: null },
        { id: expect.stringMatching(UUID), locale: 'fr', title: 'Note', deleted_at: null },
      ],
      inserted_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
      deleted_at: null,
    });
    expect((await editor.get(`/notes/v2/notes/${note.id}`)).json().data).toEqual(note);
    const updated = await editor.patch(`/notes/v2/notes/${note.id}`, { is_hidden: true });
    expect(updated.json().data).toMatchObject({ id: note.id, is_hidden: true, locales: note.locales });
    expectError(await editor.post('/notes/v2/notes', { locales: [{ locale: 'de', title: 'Nein' }] }), 400);
    expectError(await editor.post('/notes/v2/notes', { locales: [] }), 400);
  });

  it('serves readers the notes not hidden, in the asked language, and the Public read with its successor', async () => {
    const shown = await createNote(editor);
    const hidden = await createNote(editor, { is_hidden: true });
    const reader = (url: string) => ctx.app.inject({ url, headers: { 'x-service-media-id': media.mediaId, authorization: `Bearer ${token}` } });
    const one = await reader(`/api/media/v1/notes/${shown.id}?locale=fr`);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().data).toEqual({
      id: shown.id,
      is_hidden: false,
      localized: { id: shown.locales[1].id, locale: 'fr', title: 'Note' },
      meta: { locales: { current: 'fr', available: ['en', 'fr'], requested: 'fr' } },
      inserted_at: shown.inserted_at,
      updated_at: shown.updated_at,
    });
    expect(one.headers['surrogate-key']).toContain(`note:${shown.id}`);
    expectError(await reader(`/api/media/v1/notes/${hidden.id}`), 404, 'note_not_found');
    const listed = (await reader('/api/media/v1/notes?limit=100')).json().data.map((n: { id: string }) => n.id);
    expect(listed).toContain(shown.id);
    expect(listed).not.toContain(hidden.id);

    const open = await ctx.app.inject({ url: `/api/public/notes/v2/notes/${shown.id}?locale=fr` });
    expect(open.statusCode, open.body).toBe(200);
    expect(open.json()).toEqual(one.json());
    expect(open.headers.deprecation).toBeDefined();
    expect(open.headers.link).toContain(`/api/media/v1/notes/${shown.id}`);
    expectError(await ctx.app.inject({ url: `/api/public/notes/v2/notes/${hidden.id}` }), 404, 'note_not_found');
    const byMedia = await ctx.app.inject({ url: `/api/public/notes/v2/medias/${media.mediaId}/notes?limit=100` });
    expect(byMedia.json().data.map((n: { id: string }) => n.id)).toEqual(listed);
  });
});

describe('its Backoffice routes, by the route-table kit', () => {
  backofficeRouteTable(ctx, routes.filter((r) => r.interface === 'backoffice'), {
    '/notes/v2/notes': () => ({ locales: [{ locale: 'en', title: 'Route table' }] }),
  });
});

describe('its Reader routes, by the route-table kit', () => {
  readerRouteTable(() => ctx, (r) => r.url.startsWith('/api/media/v1/notes'), { routes: 2, uuid: 1 });
});

tenancyChecks(() => ctx, { collection: '/notes/v2/notes', notFound: 'note_not_found', create: (api) => createNote(api), update: { is_hidden: true } });

restoreChecks(() => ({ api: editor, foreign: client(ctx.app, foreign.keys.editor) }), {
  collection: '/notes/v2/notes',
  notFound: 'note_not_found',
  create: (api) => createNote(api),
  narrow: { locales: [{ locale: 'en', title: 'Only english' }] },
});
