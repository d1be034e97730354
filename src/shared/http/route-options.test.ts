import Fastify, { type FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decorateRouteOptions, forgetRoute, routeOf } from './route-options.js';

describe('routeOf', () => {
  const app = Fastify();
  const seen: Array<{ url: string | undefined; operation: unknown; same: boolean }> = [];
  const record = (req: FastifyRequest) => {
    const first = routeOf(req);
    seen.push({ url: first.url, operation: first.config.operationId, same: routeOf(req) === first });
  };
  beforeAll(async () => {
    decorateRouteOptions(app);
    app.addHook('onRequest', (req, _reply, done) => {
      record(req);
      done();
    });
    app.get('/things/:id', { config: { operationId: 'getThing' } }, (req) => {
      record(req);
      return {};
    });
    app.get('/moved', { config: { operationId: 'moved' } }, (req, reply) => {
      forgetRoute(req);
      reply.callNotFound();
    });
    app.setNotFoundHandler((req, reply) => {
      record(req);
      return reply.status(404).send({ error: 'not_found' });
    });
    await app.ready();
  });
  afterAll(() => app.close());

  it('is the route of the request, read once and then the same object in every hook', async () => {
    seen.length = 0;
    expect((await app.inject({ url: '/things/7' })).statusCode).toBe(200);
    expect(seen).toEqual([
      { url: '/things/:id', operation: 'getThing', same: true },
      { url: '/things/:id', operation: 'getThing', same: true },
    ]);
  });

  it('holds each request its own: a second request of another route reads its own', async () => {
    seen.length = 0;
    expect((await app.inject({ url: '/nowhere' })).statusCode).toBe(404);
    expect(seen.map((s) => s.operation)).toEqual([undefined, undefined]);
    expect(seen.every((s) => s.url === undefined)).toBe(true);
  });

  it('after forgetRoute reads the route anew: a request moved to the 404 route by callNotFound reads that', async () => {
    seen.length = 0;
    expect((await app.inject({ url: '/moved' })).statusCode).toBe(404);
    expect(seen).toEqual([
      { url: '/moved', operation: 'moved', same: true },
      { url: undefined, operation: undefined, same: true },
    ]);
  });
});
