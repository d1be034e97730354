import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { coreTags } from '../../modules/core/index.js';
import { mountAreas } from '../../shared/area.js';
import { applyCors } from '../../plugins/cors.js';
import { applyRateLimit } from '../../plugins/rate-limit.js';
import { recordRoutes } from '../../shared/http/route-table.js';
import { deprecationMarker, successorPath } from '../../shared/http/deprecation.js';
import { validators } from '../../shared/http/conditional.js';
import { originOf } from '../../shared/envelopes.js';
import { documentRoute, route } from '../../shared/http/route.js';
import { surrogateKeyHook } from '../../shared/http/surrogate.js';
import { errors } from '../../shared/errors.js';
import { dataOf } from '../../shared/schemas.js';
import type { TreeOptions } from '../backoffice/index.js';
import { routeOf } from '../../shared/http/route-options.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Path of the Reader operation that replaces a Public one, for the Link header. */
    successor?: string;
    /** The Public tree's own index (`GET /api/public`): documentation of the migration, not a deprecated operation. */
    publicIndex?: boolean;
  }
}

const publicOperationSchema = z
  .object({
    operation_id: z.string(),
    method: z.string(),
    path: z.string().describe('Path template, `{name}` for a parameter'),
    successor: z.string().nullable().describe('The Reader operation that replaces it; null when none does'),
  })
  .meta({ id: 'PublicOperation' });

/** `/api/public/docs/v2/contents/:id` as the OpenAPI template `/api/public/docs/v2/contents/{id}`. */
const template = (url: string) => url.replace(/:(\w+)/g, '{$1}');

/**
 * The deprecated Public interface: anonymous, read-only, published data only. Every operation
 * is marked deprecated in OpenAPI and answers with `Deprecation`, `Sunset` (PUBLIC_API_SUNSET)
 * and a `Link` to its Reader successor; its answers are cacheable (`Cache-Control`, a strong
 * `ETag`, 304 to a matching `If-None-Match`).
 */
export const publicTree: FastifyPluginAsync<TreeOptions> = async (app, options) => {
  const { config, services, redis } = options;
  // Read-only, and open to the same browser origins as the Reader.
  await applyCors(app, config.corsOrigins ?? (config.corsBackofficeOrigins ? false : undefined), ['GET', 'HEAD']);
  app.addHook('onRoute', (route) => {
    documentRoute(app, route, [429]);
    const operation = !route.config?.publicIndex;
    route.schema = { ...route.schema, ...(operation && { deprecated: true }), security: [] };
    const surrogateKind = operation ? (route.config?.serves ?? undefined) : undefined;
    route.config = {
      ...route.config,
      // A published read may go to the replica (DATABASE_READ_URL); one that declares `primary` never.
      replica: (route.method === 'GET' || route.method === 'HEAD') && !route.config?.primary,
      ...(surrogateKind && { surrogateKind }),
      responseHeaders: [...(route.config?.responseHeaders ?? []), 'ETag', ...(surrogateKind ? (['Surrogate-Key'] as const) : [])],
      // Every answer says how it may be kept (errors `no-store`, the onSend hook below).
      answerHeaders: [...(route.config?.answerHeaders ?? []), 'Cache-Control'],
    };
    recordRoutes(app, 'public', route);
  });
  app.addHook('preSerialization', surrogateKeyHook);
  // The media of the request, from the path or the addressed record (after the params validated):
  // the handlers, a Reader operation's own among them, read it as req.media and the context's mediaId.
  app.addHook('preHandler', async (req) => {
    // Paging links stay relative; a document whose links must be absolute (RSS) gets the Reader's origin.
    if (routeOf(req).config.absoluteLinks) req.linkOrigin = originOf(req, config.publicBaseUrl);
    const from = routeOf(req).config.publicMedia;
    if (!from) return;
    const params = req.params as Record<string, string>;
    const mediaId = from === 'path' ? params.media_id! : await from.of(params[from.param]!);
    const media = await services.core.tenancy.findCachedMedia(mediaId);
    if (!media) throw errors.notFound('media_not_found', 'media not found');
    req.media = media;
    req.mediaId = media.id;
  });
  const markDeprecated = deprecationMarker(config.publicApiSunset);
  app.addHook('onSend', (req, reply, payload, done) => {
    const { successor, publicIndex } = routeOf(req).config;
    if (!publicIndex) markDeprecated(reply, successor && successorPath(successor, req.params));
    // Published data may be cached a minute by browsers and shared caches; errors are not.
    const success = reply.statusCode < 300 || reply.statusCode === 304;
    reply.header('cache-control', success ? (routeOf(req).config.cacheControl ?? 'public, max-age=60') : 'no-store');
    done(null, payload);
  });
  // The Backoffice's and Reader's validators (a strong ETag of the answer, 304 to If-None-Match,
  // HEAD alike), after the onSend above: its Cache-Control stands, and the ETag hashes the answer as sent.
  app.addHook('onSend', validators(() => undefined));
  await applyRateLimit(app, {
    max: config.rateLimit.anonymous,
    keyGenerator: (req) => `ip:${req.ip}`,
    redis,
    namespace: 'public',
  });

  await mountAreas(app, 'public', options.areas.public, options);

  // What a team planning its migration needs: every Public operation and its successor.
  route(app, {
    method: 'GET',
    url: '',
    operationId: 'publicListOperations',
    primary: true,
    summary: 'Public operations and their successors',
    description:
      'Every operation of the deprecated Public API with the Reader operation that replaces it, for the teams moving to `/api/media/v1`. ' +
      'Every Public answer also names its successor in a `Link` header and the day it stops answering in `Sunset`.',
    tag: coreTags.public,
    access: { anonymous: true },
    config: { publicIndex: true },
    response: { 200: dataOf(z.array(publicOperationSchema)) },
    handler: async (_ctx, _input, reply) => ({
      data: reply.server.routeTable
        .filter((entry) => entry.interface === 'public' && entry.operationId !== 'publicListOperations')
        .map((entry) => ({ operation_id: entry.operationId, method: entry.method, path: template(entry.url), successor: entry.successor ?? null })),
    }),
  });
};
