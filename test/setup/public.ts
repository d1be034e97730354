import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { App } from '../../src/app.js';
import { type CommunityFixture, communityFixture } from './community.js';
import { type Client, type SeededMedia, client, seedMedia } from './factories.js';
import { clientToken, readerClient, registerClient } from './reader.js';

/** Every Public answer: deprecated since 2026-01-01 (RFC 9745); the sunset is the default PUBLIC_API_SUNSET. */
export const PUBLIC_DEPRECATION = '@1767225600';
export const PUBLIC_SUNSET = 'Fri, 31 Dec 2027 00:00:00 GMT';

/**
 * GET of a Public path, anonymous. Checks what every Public answer carries (Deprecation, Sunset,
 * Cache-Control for its status: `cacheControl` for a success, the tree's rule unless the route has
 * its own) and, when `successor` is given, the Link to the Reader path.
 */
export async function publicGet(app: App, url: string, successor?: string, cacheControl = 'public, max-age=60'): Promise<LightMyRequestResponse> {
  const res = await app.inject({ method: 'GET', url });
  expect(res.headers.deprecation, url).toBe(PUBLIC_DEPRECATION);
  expect(res.headers.sunset, url).toBe(PUBLIC_SUNSET);
  expect(res.headers['cache-control'], url).toBe(res.statusCode < 300 ? cacheControl : 'no-store');
  if (successor !== undefined) expect(res.headers.link, url).toBe(`<${successor}>; rel="successor-version"`);
  if (res.statusCode < 300) expect(res.headers.etag, url).toMatch(/^"[^"]+"$/);
  return res;
}

/** Expects a 404 `{error, code}` from a Public path (another media's record, an unknown id). */
export async function expectPublicNotFound(app: App, url: string, code?: string) {
  const res = await publicGet(app, url);
  expect(res.statusCode, url).toBe(404);
  expect(res.json(), url).toEqual({ error: expect.any(String), code: code ?? expect.stringMatching(/_not_found$/) });
}

/** Expects a 400 `invalid_uuid` from a Public path with a malformed id. */
export async function expectPublicBadId(app: App, url: string) {
  const res = await publicGet(app, url);
  expect(res.statusCode, url).toBe(400);
  expect(res.json(), url).toMatchObject({ error: expect.any(String), code: 'invalid_uuid' });
}

/** A Reader client of the media with an application token (media:read), to compare with its successor. */
export async function readerOf(app: App, adminKey: string, mediaId: string) {
  const creds = await registerClient(app, adminKey, ['media:read']);
  const { access_token } = await clientToken(app, creds, 'media:read');
  return readerClient(app, mediaId, access_token);
}

export type ReaderOf = Awaited<ReturnType<typeof readerOf>>;

/** A media (en, fr) with its editor, its community fixture (statuses, a profile type per kind) and a Reader client: one of a Public test's media. */
export interface PublicMedia {
  media: SeededMedia;
  editor: Client;
  community: CommunityFixture;
  reader: ReaderOf;
}

export async function publicMedia(app: App): Promise<PublicMedia> {
  const media = await seedMedia(app, { locales: ['en', 'fr'] });
  const editor = client(app, media.keys.editor);
  return { media, editor, community: await communityFixture(editor, media.workspaceId), reader: await readerOf(app, media.keys.admin, media.mediaId) };
}

/**
 * The Public answer equals its Reader successor's: the same `data` (same records, same order,
 * field by field) and `assocs`; paging links differ only by where they point.
 */
export async function expectSameAsReader(app: App, reader: ReaderOf, publicUrl: string, readerUrl: string) {
  const rd = await reader.get(readerUrl);
  // A route's own Cache-Control (a random draw's no-store) holds in both trees; else each tree's rule.
  const own = String(rd.headers['cache-control'] ?? '');
  const pub = await publicGet(app, publicUrl, undefined, own.startsWith('public') ? 'public, max-age=60' : own);
  expect(pub.statusCode, publicUrl).toBe(200);
  expect(rd.statusCode, readerUrl).toBe(200);
  const [p, r] = [pub.json(), rd.json()];
  expect(p.data, publicUrl).toEqual(r.data);
  expect(p.assocs, publicUrl).toEqual(r.assocs);
  if (r.meta?.locales) expect(p.meta.locales, publicUrl).toEqual(r.meta.locales);
  return p;
}
