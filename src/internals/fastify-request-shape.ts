import type { FastifyInstance } from 'fastify';

/** What this module reads of Fastify's Request and Reply classes (lib/request.js, lib/reply.js). */
interface FastifyClass {
  parent?: FastifyClass;
  props: Array<{ key: string | symbol; value: unknown }>;
  prototype: object;
  [mark: symbol]: unknown;
}

const ownSymbol = (target: object, description: string): symbol | undefined =>
  Object.getOwnPropertySymbols(target).find((s) => s.description === description);

/** A decorator's value that is data: kept per request on the instance, not on the prototype. */
const isPlain = (value: unknown): boolean => value === null || (typeof value !== 'object' && typeof value !== 'function');

type Decorate = (this: FastifyInstance, name: string | symbol, value: unknown, dependencies?: string[]) => FastifyInstance;

/**
 * One request shape for the whole app: every route's requests (and replies) are made by the
 * root's class, not by a class per plugin.
 *
 * Fastify gives each encapsulated plugin (97 in this app) a Request and a Reply subclass of its
 * own, and V8 gives the instances of each a hidden class of their own. The code every request runs
 * through (Fastify's handler and hooks, the auth hooks, the route primitive, the error handler,
 * the request log, @fastify/rate-limit) then meets that many shapes, and its property reads go
 * megamorphic: looked up in a global cache rather than read at a known offset, and not inlined.
 * Fastify means to use a plugin's subclass only when that plugin decorated the request and its
 * parent's otherwise (fastify/fastify#3479), but it asks a static property that subclasses
 * inherit: once the root is decorated, every subclass looks decorated and none is dropped.
 *
 * This puts the rule back. A decorator that a plugin adds with a plain value (@fastify/rate-limit's
 * flag, one per tree; @fastify/cors's; readerhub's `readerAccount`) is added to the root's class as
 * well, so every request carries it with its default; when a route is declared, each class between
 * its plugin and the root is marked undecorated unless it has a method, getter or value of its own
 * that the root does not. A plugin that adds methods (@fastify/multipart, for the three upload
 * routes) keeps its class: four classes in all, one for every other route. Call it on the root
 * before any plugin is registered (plugins take the root's hooks as they are when registered).
 *
 * It reads Fastify's internals (the classes' `parent` and `props`, found by their symbols'
 * descriptions); where they are not found it changes nothing, and request-shape.test.ts fails.
 */
export function oneRequestShape(app: FastifyInstance): void {
  const kinds = (['Request', 'Reply'] as const).flatMap((kind) => {
    const key = ownSymbol(app, `fastify.${kind}`);
    const root = key && (app as unknown as Record<symbol, FastifyClass | undefined>)[key];
    if (!key || !root || !Array.isArray(root.props)) return [];
    const method = kind === 'Request' ? 'decorateRequest' : 'decorateReply';
    const original = app[method] as unknown as Decorate;
    // Plugins are instances made from the root by Object.create: they call this one.
    (app as unknown as Record<string, Decorate>)[method] = function (this: FastifyInstance, name, value, dependencies) {
      const own = (this as unknown as Record<symbol, FastifyClass>)[key]!;
      if (own === root || !isPlain(value)) return original.call(this, name, value, dependencies);
      const atRoot = root.props.find((p) => p.key === name);
      if (!atRoot) original.call(app, name, value);
      // Another default under the same name: Fastify's own rules, as without this.
      else if (atRoot.value !== value) return original.call(this, name, value, dependencies);
      // A plugin made after the root had it has it already (a second tree's @fastify/cors).
      if (!own.props.some((p) => p.key === name)) original.call(this, name, value, dependencies);
      return this;
    };
    return [{ key, root }];
  });
  // Fastify's mark of a decorated class: an own property of the classes a decorator was added to.
  let decoratedMark: symbol | undefined;
  const markIn = (c: FastifyClass | undefined): symbol | undefined => {
    for (; c && !decoratedMark; c = c.parent) decoratedMark = ownSymbol(c, 'fastify.hasBeenDecorated');
    return decoratedMark;
  };

  app.addHook('onRoute', function (this: FastifyInstance) {
    for (const { key, root } of kinds) {
      // Every route walks its whole chain: a plugin may be decorated again after its first route
      // (a tree's rate limit after @fastify/cors's preflight route).
      for (let c = (this as unknown as Record<symbol, FastifyClass>)[key]; c && c !== root && c.parent; c = c.parent) {
        const mark = markIn(c);
        // No class decorated anywhere: Fastify drops every plugin's class by itself.
        if (!mark) break;
        if (!Object.hasOwn(c, mark) || (c[mark] === true && nothingOfItsOwn(c, root))) c[mark] = false;
      }
    }
  });
}

/** Whether a class's instances have nothing the root's lack: no method, getter or setter, and no value the root holds otherwise. */
function nothingOfItsOwn(c: FastifyClass, root: FastifyClass): boolean {
  if (Reflect.ownKeys(c.prototype).some((k) => k !== 'constructor')) return false;
  const atRoot = new Map(root.props.map((p) => [p.key, p.value]));
  return c.props.every((p) => atRoot.has(p.key) && atRoot.get(p.key) === p.value);
}
