import { tracingChannel } from 'node:diagnostics_channel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../setup/app.js';
import { type SeededMedia, client, seedMedia } from '../setup/factories.js';

let ctx: TestContext;
let media: SeededMedia;

beforeAll(async () => {
  // With CORS on, as in production: @fastify/cors decorates the request in each tree it is registered in.
  ctx = await createTestApp({ corsOrigins: ['https://front.example'], corsBackofficeOrigins: ['https://admin.example'] });
  media = await seedMedia(ctx.app);
});
afterAll(() => ctx.close());

describe('one request shape (src/internals/fastify-request-shape.ts)', () => {
  it("gives the requests of every tree the root's class: Backoffice, Reader, Public and the root's own routes", async () => {
    // Fastify publishes each handler's start with its request on this channel.
    const channel = tracingChannel<unknown, { request: object; route: { url: string } }>('fastify.request.handler');
    const seen = new Map<string, object>();
    const start = (message: { request: object; route: { url: string } }) => void seen.set(message.route.url, Object.getPrototypeOf(message.request) as object);
    channel.start.subscribe(start as (message: unknown) => void);
    try {
      const backoffice = await client(ctx.app, media.keys.admin).get('/core/v2/categories');
      const reader = await ctx.app.inject({ method: 'GET', url: '/api/media/v1/oauth/jwks', headers: { 'x-service-media-id': media.mediaId } });
      const publicApi = await ctx.app.inject({ method: 'GET', url: `/api/public/core/v2/medias/${media.mediaId}` });
      const health = await ctx.app.inject({ method: 'GET', url: '/health' });
      expect([backoffice.statusCode, reader.statusCode, publicApi.statusCode, health.statusCode]).toEqual([200, 200, 200, 200]);
    } finally {
      channel.start.unsubscribe(start as (message: unknown) => void);
    }
    expect([...seen.keys()].sort()).toEqual(['/api/media/v1/oauth/jwks', '/api/public/core/v2/medias/:media_id', '/core/v2/categories', '/health']);
    // Four trees, one class (Fastify alone gives each plugin its own: 97 in this app).
    expect(new Set(seen.values()).size).toBe(1);
  });
});
