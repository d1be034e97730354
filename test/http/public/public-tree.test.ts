import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteEntry } from '../../../src/shared/http/route-table.js';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { type SeededMedia, client, seedMedia } from '../../setup/factories.js';

// Every Public answer, whatever its status: deprecated since 2026-01-01 (RFC 9745), gone on PUBLIC_API_SUNSET.
const DEPRECATION = '@1767225600';
const SUNSET = 'Mon, 30 Jun 2031 00:00:00 GMT';

let ctx: TestContext;
let media: SeededMedia;
let publicRoutes: RouteEntry[];
let doc: { paths: Record<string, Record<string, { deprecated?: boolean; responses: Record<string, { headers?: Record<string, unknown> }> }>> };

beforeAll(async () => {
  ctx = await createTestApp({ publicApiSunset: new Date('2031-06-30T00:00:00.000Z') });
  media = await seedMedia(ctx.app);
  publicRoutes = ctx.app.routeTable.filter((r) => r.interface === 'public');
  doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
});
afterAll(() => ctx.close());

const template = (url: string) => url.replace(/:(\w+)/g, '{$1}');
const operations = () => publicRoutes.filter((r) => r.operationId !== 'publicListOperations');

describe('the Public tree, enumerated at run time', () => {
  it('holds only GET operations, each deprecated in OpenAPI and naming a Reader successor or saying there is none', () => {
    expect(operations().length).toBeGreaterThan(0);
    for (const entry of publicRoutes) {
      expect(entry.method, entry.operationId).toBe('GET');
      expect(entry.anonymous, entry.operationId).toBe(true);
    }
    for (const entry of operations()) {
      const op = doc.paths[template(entry.url)]?.get;
      expect(op, entry.url).toBeDefined();
      expect(op!.deprecated, entry.url).toBe(true);
      expect(Object.keys(op!.responses['200']!.headers ?? {}), entry.url).toEqual(
        expect.arrayContaining(['Deprecation', 'Sunset', 'ETag', 'Cache-Control', ...(entry.successor ? ['Link'] : [])]),
      );
      if (!entry.successor) expect(JSON.stringify(op), entry.url).toMatch(/no Reader successor|none/i);
    }
  });

  it('answers malformed ids with a 400 (never a 5xx), every answer carrying the deprecation headers', async () => {
    for (const entry of operations()) {
      const url = entry.url.replace(/:(\w+)/g, 'not-a-uuid');
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBeLessThan(500);
      if (entry.hasUuidParam) {
        expect(res.statusCode, url).toBe(400);
        expect(res.json(), url).toMatchObject({ error: expect.any(String), code: 'invalid_uuid' });
      }
      expect(res.headers.deprecation, url).toBe(DEPRECATION);
      expect(res.headers.sunset, url).toBe(SUNSET);
      expect(res.headers['cache-control'], url).toBe('no-store');
      if (entry.successor) expect(res.headers.link, url).toMatch(/^<\/api\/media\/v1\/[^>]*>; rel="successor-version"$/);
    }
  });

  it('accepts no method but GET and HEAD', async () => {
    for (const entry of operations()) {
      const url = entry.url.replace(/:(\w+)/g, randomUUID());
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
        const res = await ctx.app.inject({ method, url, payload: {} });
        expect([404, 405], `${method} ${url}`).toContain(res.statusCode);
      }
    }
  });
});

describe('cacheable answers', () => {
  it('answers a strong ETag, 304 to If-None-Match, the same headers to HEAD, and a minute of public caching', async () => {
    const created = await client(ctx.app, media.keys.editor).post('/core/v2/references', { provider: 'wordpress', urn: `urn:mps:content:${randomUUID()}` });
    const ref = created.json().data.ref as string;
    const url = `/api/public/core/v2/medias/${media.mediaId}/references/${ref}`;
    const res = await ctx.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    expect(res.headers.etag).toMatch(/^"[^"]+"$/);
    expect(res.headers.deprecation).toBe(DEPRECATION);
    expect(res.headers.sunset).toBe(SUNSET);
    expect(res.headers.link).toBe(`</api/media/v1/references/${encodeURIComponent(ref)}>; rel="successor-version"`);

    const again = await ctx.app.inject({ method: 'GET', url, headers: { 'if-none-match': res.headers.etag as string } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(res.headers.etag);
    expect(again.headers.deprecation).toBe(DEPRECATION);

    const stale = await ctx.app.inject({ method: 'GET', url, headers: { 'if-none-match': '"other"' } });
    expect(stale.statusCode).toBe(200);
    expect(stale.json()).toEqual(res.json());

    const head = await ctx.app.inject({ method: 'HEAD', url });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers.etag).toBe(res.headers.etag);
  });
});

describe('GET /api/public', () => {
  it('lists every Public operation with its successor, itself not deprecated', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/public' });
    expect(res.statusCode).toBe(200);
    expect(res.headers.deprecation).toBeUndefined();
    const listed = res.json().data as Array<{ operation_id: string; method: string; path: string; successor: string | null }>;
    expect(listed).toHaveLength(operations().length);
    for (const entry of operations()) {
      expect(listed).toContainEqual({ operation_id: entry.operationId, method: 'GET', path: template(entry.url), successor: entry.successor ?? null });
    }
    expect(listed).toContainEqual({
      operation_id: 'publicGetReference',
      method: 'GET',
      path: '/api/public/core/v2/medias/{media_id}/references/{ref}',
      successor: '/api/media/v1/references/{ref}',
    });
    expect(doc.paths['/api/public']?.get).toMatchObject({ operationId: 'publicListOperations' });
    expect(doc.paths['/api/public']?.get?.deprecated).toBeUndefined();
  });
});
