import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Where a request keeps its route's options once read (a request decorator: every request has the slot). */
const ROUTE = Symbol('routeOptions');

type RouteOptions = FastifyRequest['routeOptions'];
type WithRoute = FastifyRequest & { [ROUTE]: RouteOptions | null };

/** Gives every request the slot routeOf fills, so that filling it does not change the request's shape. */
export function decorateRouteOptions(app: FastifyInstance): void {
  app.decorateRequest(ROUTE, null);
}

/**
 * The request's `routeOptions`, read once per request. Fastify's getter builds a new object of
 * twelve fields on every read and asks the router whether a version constraint is in use; the
 * hooks of one Reader request read it eight times or so (auth, scope, cache control, surrogate
 * keys, conditional answers, the request log).
 */
export function routeOf(req: FastifyRequest): RouteOptions {
  const held = req as WithRoute;
  return (held[ROUTE] ??= req.routeOptions);
}

/** Forgets what routeOf read: before `reply.callNotFound()`, which moves the request to the 404 route. */
export function forgetRoute(req: FastifyRequest): void {
  (req as WithRoute)[ROUTE] = null;
}
