import cors from '@fastify/cors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { forgetRoute } from '../shared/http/route-options.js';

/** Sends the request to the 404 route, forgetting the route it had (see routeOf). */
function notFound(req: FastifyRequest, reply: FastifyReply): void {
  forgetRoute(req);
  reply.callNotFound();
}

/** Response headers a browser script may read: limits, caching, paging, deprecation, tracing. */
export const CORS_EXPOSED_HEADERS = [
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'RateLimit-Policy',
  'RateLimit',
  'Retry-After',
  'ETag',
  'Idempotent-Replayed',
  'Link',
  'Deprecation',
  'Sunset',
  'x-request-id',
];

/** Browsers cache a preflight this long (Chromium caps it at two hours). */
export const CORS_MAX_AGE_SECONDS = 7200;

/**
 * CORS for one interface tree, registered before the tree's auth hook and its onRoute hooks:
 * a preflight is answered before authentication (browsers send it without credentials), and
 * the preflight route is neither documented nor rate limited. `undefined`: no CORS at all;
 * `false`: no CORS either, for a tree beside the Backoffice's catch-all preflight route (which
 * has no prefix) when that one is on.
 */
export async function applyCors(
  app: FastifyInstance,
  origins: '*' | string[] | false | undefined,
  methods: string[],
): Promise<void> {
  if (origins === undefined) return;
  if (origins === false) {
    // Routed here rather than to the Backoffice's catch-all, a preflight finds no route, as
    // without CORS, before any auth hook of the tree can answer it.
    app.addHook('onRequest', (req, reply, done) => (req.method === 'OPTIONS' ? notFound(req, reply) : done()));
    app.options('*', { schema: { hide: true } }, (req, reply) => notFound(req, reply));
    return;
  }
  await app.register(cors, {
    origin: origins,
    methods,
    // allowedHeaders unset: the requested headers are echoed; every header is an input the
    // routes validate anyway.
    exposedHeaders: CORS_EXPOSED_HEADERS,
    // Bearer tokens and API keys travel in headers, never in cookies.
    credentials: false,
    maxAge: CORS_MAX_AGE_SECONDS,
    // An OPTIONS request that is not a preflight gets the CORS headers and a 204 rather than
    // @fastify/cors's plain-text 400 outside the error envelope.
    strictPreflight: false,
  });
}
