import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { oneRequestShape } from './fastify-request-shape.js';

type Seen = Record<string, { proto: object; request: FastifyRequest & Record<string, unknown> }>;

/**
 * An app shaped like ours: the root decorated, plugins that decorate nothing, one that adds a plain
 * value (as @fastify/rate-limit does in each tree), one that adds a method (as @fastify/multipart
 * does), and routes at each level. Each route notes its request's prototype and the request.
 */
async function appOf(unify: boolean): Promise<{ app: FastifyInstance; seen: Seen }> {
  const app = Fastify();
  const seen: Seen = {};
  const note = (req: FastifyRequest) => {
    seen[req.url] = { proto: Object.getPrototypeOf(req) as object, request: req as FastifyRequest & Record<string, unknown> };
    return { ok: true };
  };
  app.decorateRequest('user', null);
  if (unify) oneRequestShape(app);
  app.get('/root', note);
  await app.register(async (plain) => {
    plain.get('/plain', note);
    await plain.register(async (nested) => {
      nested.get('/plain/nested', note);
    });
  });
  await app.register(async (flagged) => {
    flagged.decorateRequest('flag', false);
    flagged.get('/flagged', (req) => {
      note(req);
      (req as FastifyRequest & { flag: boolean }).flag = true;
      return { ok: true };
    });
    await flagged.register(async (nested) => {
      nested.get('/flagged/nested', note);
    });
  });
  // The same plain decorator in two sibling plugins, as @fastify/cors in each tree.
  for (const tree of ['/one', '/two']) {
    await app.register(async (sibling) => {
      sibling.decorateRequest('preflight', false);
      sibling.get(`${tree}/thing`, note);
    });
  }
  await app.register(async (withMethod) => {
    withMethod.decorateRequest('greet', function (this: FastifyRequest) {
      return `hello ${this.url}`;
    });
    withMethod.get('/method', note);
  });
  await app.ready();
  for (const url of ['/root', '/plain', '/plain/nested', '/flagged', '/flagged/nested', '/one/thing', '/two/thing', '/method', '/flagged']) {
    expect((await app.inject({ method: 'GET', url })).statusCode).toBe(200);
  }
  return { app, seen };
}

describe('oneRequestShape', () => {
  it("makes every plugin's requests the root's class unless the plugin adds a method, keeping each decorator where it was", async () => {
    const { app, seen } = await appOf(true);
    const root = seen['/root']!.proto;
    for (const url of ['/plain', '/plain/nested', '/flagged', '/flagged/nested', '/one/thing', '/two/thing']) expect(seen[url]!.proto, url).toBe(root);
    // A plugin that adds a method keeps a class of its own, with its method.
    expect(seen['/method']!.proto).not.toBe(root);
    expect((seen['/method']!.request.greet as () => string).call(seen['/method']!.request)).toBe('hello /method');
    expect('greet' in seen['/root']!.request).toBe(false);
    // A plain value moved to the root: every request starts with it, and one request's value is its own.
    expect(seen['/root']!.request.flag).toBe(false);
    expect(seen['/plain']!.request.flag).toBe(false);
    expect(seen['/flagged/nested']!.request.flag).toBe(false);
    expect(seen['/flagged']!.request.flag).toBe(true);
    expect(seen['/two/thing']!.request.preflight).toBe(false);
    expect(seen['/root']!.request.preflight).toBe(false);
    // The root's own decorator is on all of them.
    for (const url of ['/root', '/plain', '/flagged', '/method']) expect(seen[url]!.request.user, url).toBeNull();
    await app.close();
  });

  it("is what makes them one class: without it Fastify keeps a class per plugin once the root is decorated", async () => {
    const { app, seen } = await appOf(false);
    const protos = new Set(Object.values(seen).map((s) => s.proto));
    // root, plain, plain/nested, flagged, flagged/nested, one, two, method: eight classes. Should a
    // Fastify release drop undecorated plugins' classes by itself, this fails and oneRequestShape can go.
    expect(protos.size).toBe(8);
    await app.close();
  });
});
