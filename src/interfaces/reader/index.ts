import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { uuid } from '../../shared/schemas.js';
import { bearerErrors, oauthDiscoveryRoutes } from '../../modules/oauth/index.js';
import { mountAreas } from '../../shared/area.js';
import { applyCors } from '../../plugins/cors.js';
import { applyRateLimit } from '../../plugins/rate-limit.js';
import { readerAuth } from '../../plugins/reader-auth.js';
import { declarePreview, previewable, readerPreview } from '../../plugins/reader-preview.js';
import { recordRoutes } from '../../shared/http/route-table.js';
import { validators } from '../../shared/http/conditional.js';
import { originOf } from '../../shared/envelopes.js';
import { type ErrorStatus, documentRoute } from '../../shared/http/route.js';
import { surrogateKeyHook } from '../../shared/http/surrogate.js';
import type { TreeOptions } from '../backoffice/index.js';
import { routeOf } from '../../shared/http/route-options.js';

const mediaId = uuid.describe('The media this request is about');
const providerHint = uuid
  .optional()
  .describe('With an opaque identity-provider token: the provider that issued it (needed when the media has several)');
const mediaHeader = z.object({ 'x-service-media-id': mediaId, 'x-oauth-provider-id': providerHint });
const optionalMediaHeader = z.object({
  'x-service-media-id': mediaId.optional().describe('Optional here: the client or provider names the media'),
});

/**
 * The Reader's rules for the routes registered in `app` after it: x-service-media-id and a bearer
 * token with the route's scope, rate limits per token subject, absolute paging links.
 */
async function readerRules(app: Parameters<FastifyPluginAsync<TreeOptions>>[0], { config, services, redis, authFailures }: TreeOptions) {
  // Browser front ends, the token endpoint included (CORS_ORIGINS).
  await applyCors(app, config.corsOrigins ?? (config.corsBackofficeOrigins ? false : undefined), [
    'GET',
    'HEAD',
    'POST',
    'PUT',
    'PATCH',
    'DELETE',
  ]);
  app.addHook('onRoute', (route) => {
    const { anonymous, scope, mediaOptional, mediaFromQuery } = route.config ?? {};
    // Fail at start-up rather than ship a Reader route nobody thought to protect.
    if (!anonymous && !scope) throw new Error(`Reader route ${route.method} ${route.url} declares no scope`);
    const errors: ErrorStatus[] = [429];
    if (!anonymous) errors.push(401, 403);
    // The media header: 400 when missing (unless optional) or malformed, 404 when unknown.
    errors.push(400, 404);
    // Documents the media header (readerAuth has already checked it by the time this validates);
    // documentRoute adds the Idempotency-Key to it.
    const headers = route.schema?.headers ?? (mediaOptional || mediaFromQuery ? optionalMediaHeader : mediaHeader);
    route.schema = { ...route.schema, headers };
    // A read may be asked for as a preview (x-preview-token): 401 preview_token_invalid besides.
    if (previewable(route)) declarePreview(route);
    documentRoute(app, route, errors);
    const security = route.schema?.security ?? (anonymous ? [] : [{ bearer: [scope!] }]);
    route.schema = { ...route.schema, security };
    // Every answer says how it may be kept (`validators` below): errors and writes `no-store`; every
    // success with a body, a write's too, carries its ETag.
    route.config = { ...route.config, answerHeaders: [...(route.config?.answerHeaders ?? []), 'Cache-Control'], responseHeaders: [...(route.config?.responseHeaders ?? []), 'ETag'] };
    if (route.method === 'GET') {
      const surrogateKind = route.config?.serves ?? undefined;
      route.config = {
        ...route.config,
        // A published read may go to the replica (DATABASE_READ_URL); one that declares `primary` never.
        replica: !route.config?.primary,
        ...(surrogateKind && { surrogateKind, responseHeaders: [...(route.config?.responseHeaders ?? []), 'Surrogate-Key' as const] }),
      };
    }
    // Routes open without a token count per IP at the anonymous rate, unless they set their own.
    if (anonymous && !route.config?.rateLimit) {
      route.config = { ...route.config, rateLimit: { max: config.rateLimit.anonymous } };
    }
    recordRoutes(app, 'reader', route);
  });
  app.addHook('preSerialization', surrogateKeyHook);
  app.addHook('onRequest', (req, _reply, done) => {
    req.linkOrigin = originOf(req, config.publicBaseUrl);
    done();
  });
  app.addHook(
    'onRequest',
    readerAuth({
      findMedia: services.core.tenancy.findCachedMedia,
      verify: services.oauth.verifier.verify,
      failures: authFailures,
      errors: bearerErrors,
    }),
  );
  // After the token: a preview token of the media opens what it names (req.preview), else 401.
  app.addHook('onRequest', readerPreview(services.core.previewTokens));
  // A strong ETag on every answer with a body and 304 to a matching If-None-Match; published
  // data may be cached a minute (and served stale while revalidating), a reader's own never.
  app.addHook(
    'onSend',
    validators((req, reply) => {
      const read = req.method === 'GET' || req.method === 'HEAD';
      if (!read || (reply.statusCode >= 300 && reply.statusCode !== 304)) return 'no-store';
      // A preview is one editor's view of what readers do not see (yet): never kept by a shared cache.
      if (req.preview) return 'private, no-store';
      const own = routeOf(req).config.cacheControl;
      if (own) return own;
      const { scope, readerRequired } = routeOf(req).config;
      if (readerRequired || scope?.startsWith('account:') || req.bearer?.kind === 'reader') return 'private, no-store';
      // The media comes from a header: a shared cache keeps one answer per media.
      const vary = reply.getHeader('vary');
      reply.header('vary', vary ? `${String(vary)}, x-service-media-id` : 'x-service-media-id');
      return 'public, max-age=60, stale-while-revalidate=300';
    }),
  );
  await applyRateLimit(app, {
    max: config.rateLimit.reader,
    keyGenerator: (req) => (req.bearer ? `sub:${req.bearer.subject}` : `ip:${req.ip}`),
    redis,
    namespace: 'reader',
  });
}

/** The Reader interface at /api/media/v1. */
export const readerTree: FastifyPluginAsync<TreeOptions> = async (app, options) => {
  await readerRules(app, options);
  await mountAreas(app, 'reader', options.areas.reader, options);
};

/**
 * RFC 8414's authorization server metadata: at the host's root (`/.well-known/...` followed by the
 * issuer's path), outside /api/media/v1, under the Reader's rules; per media, as the JWKS it names.
 */
export const readerWellKnownTree: FastifyPluginAsync<TreeOptions> = async (app, options) => {
  await readerRules(app, options);
  await app.register(oauthDiscoveryRoutes, { oauth: options.services.oauth });
};
