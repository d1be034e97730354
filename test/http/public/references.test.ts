import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { type SeededMedia, client, seedMedia } from '../../setup/factories.js';
import { clientToken, readerClient, registerClient } from '../../setup/reader.js';

let ctx: TestContext;
let media: SeededMedia;
let ref: string;
let urn: string;

beforeAll(async () => {
  ctx = await createTestApp({ rateLimit: { backoffice: 1000, reader: 1000, anonymous: 5, token: 1000 } });
  media = await seedMedia(ctx.app);
  urn = `urn:mps:content:${randomUUID()}`;
  const created = await client(ctx.app, media.keys.editor).post('/core/v2/references', { provider: 'wordpress', urn });
  ref = created.json().data.ref;
});
afterAll(() => ctx.close());

describe('Reader GET /api/media/v1/references/:ref', () => {
  it('resolves a reference of the media, 404 for another media or an unknown ref', async () => {
    const token = (await clientToken(ctx.app, await registerClient(ctx.app, media.keys.admin, ['media:read']))).access_token;
    const reader = readerClient(ctx.app, media.mediaId, token);
    const res = await reader.get(`/api/media/v1/references/${ref}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ ref, urn, provider: 'wordpress', expires_at: null });
    expect((await reader.get(`/api/media/v1/references/wordpress:${randomUUID()}`)).statusCode).toBe(404);

    const other = await seedMedia(ctx.app);
    const otherToken = (await clientToken(ctx.app, await registerClient(ctx.app, other.keys.admin, ['media:read']))).access_token;
    const foreign = await readerClient(ctx.app, other.mediaId, otherToken).get(`/api/media/v1/references/${ref}`);
    expect(foreign.statusCode).toBe(404);
  });
});

describe('Public (deprecated) GET /api/public/core/v2/medias/:media_id/references/:ref', () => {
  it('answers without authentication, with Deprecation and a Link to its Reader successor', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: `/api/public/core/v2/medias/${media.mediaId}/references/${ref}` });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ ref, urn });
    expect(res.headers.deprecation).toBe('@1767225600');
    expect(res.headers.sunset).toBe('Fri, 31 Dec 2027 00:00:00 GMT');
    expect(res.headers.link).toBe(`</api/media/v1/references/${encodeURIComponent(ref)}>; rel="successor-version"`);
  });

  it('answers 404 for an unknown media or ref, 400 for a malformed media id, with the headers still set', async () => {
    const unknownMedia = await ctx.app.inject({ method: 'GET', url: `/api/public/core/v2/medias/${randomUUID()}/references/${ref}` });
    expect(unknownMedia.statusCode).toBe(404);
    expect(unknownMedia.json().code).toBe('media_not_found');
    expect(unknownMedia.headers.deprecation).toBe('@1767225600');
    expect(unknownMedia.headers['cache-control']).toBe('no-store');
    const unknownRef = await ctx.app.inject({
      method: 'GET',
      url: `/api/public/core/v2/medias/${media.mediaId}/references/wordpress:${randomUUID()}`,
    });
    expect(unknownRef.statusCode).toBe(404);
    const bad = await ctx.app.inject({ method: 'GET', url: `/api/public/core/v2/medias/nope/references/${ref}` });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'invalid_uuid', error: expect.any(String) });
  });

  it('is marked deprecated in the OpenAPI document', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const op = doc.paths['/api/public/core/v2/medias/{media_id}/references/{ref}'].get;
    expect(op.deprecated).toBe(true);
    expect(op.security ?? []).toEqual([]);
  });

  it('has its own, stricter per-IP rate limit', async () => {
    const url = `/api/public/core/v2/medias/${media.mediaId}/references/${ref}`;
    let last = 200;
    for (let i = 0; i < 8 && last !== 429; i++) {
      last = (await ctx.app.inject({ method: 'GET', url, remoteAddress: '10.9.8.7' })).statusCode;
    }
    expect(last).toBe(429);
    const elsewhere = await ctx.app.inject({ method: 'GET', url, remoteAddress: '10.9.8.6' });
    expect(elsewhere.statusCode).toBe(200);
  });
});
