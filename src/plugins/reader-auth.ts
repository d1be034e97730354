import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import { AppError } from '../shared/errors.js';
import { type MaybePromise, andThen, checkHook } from '../shared/maybe-async.js';
import { isUuid } from '../shared/ids.js';
import type { AuthFailureThrottle } from './auth-failures.js';
import type { MediaInfo } from '../shared/http/reader.js';
import type { ReaderPrincipal } from '../shared/scopes.js';
import { routeOf } from '../shared/http/route-options.js';

// RFC 6750 b64token.
const BEARER = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/;

export interface ReaderAuthDeps {
  failures: AuthFailureThrottle;
  /** The media by id, from a cache; undefined when there is none. */
  findMedia: (id: string) => MaybePromise<MediaInfo | undefined>;
  /** A token verified before answers at once (no promise) while what vouched for it still does. */
  verify: (mediaId: string, token: string, providerHint?: string) => MaybePromise<ReaderPrincipal>;
  errors: {
    missing: () => AppError;
    invalid: () => AppError;
    insufficientScope: (scope: string) => AppError;
    readerRequired: () => AppError;
  };
}

/**
 * Reader front door, on onRequest (before the body is read): x-service-media-id names an
 * existing media (resolved once, as req.media), then the bearer token must be valid for that media and carry the
 * route's scope. Routes marked `anonymous` skip the token; `mediaOptional` the header.
 */
export function readerAuth(deps: ReaderAuthDeps): onRequestHookHandler {
  const bearerOf = (req: FastifyRequest): MaybePromise<ReaderPrincipal> => {
    const authorization = req.headers.authorization;
    const match = authorization ? BEARER.exec(authorization) : null;
    if (!match) throw authorization ? deps.errors.invalid() : deps.errors.missing();
    const hint = req.headers['x-oauth-provider-id'];
    return deps.verify(req.mediaId, match[1]!, typeof hint === 'string' ? hint : undefined);
  };
  const admitMedia = (req: FastifyRequest, media: MediaInfo | undefined) => {
    if (!media) throw new AppError(404, 'media_not_found', 'media not found');
    req.media = media;
    req.mediaId = media.id;
  };
  const admitBearer = (req: FastifyRequest, principal: ReaderPrincipal) => {
    const config = routeOf(req).config;
    if (config.scope && !principal.scopes.includes(config.scope)) throw deps.errors.insufficientScope(config.scope);
    if (config.readerRequired && principal.kind !== 'reader') throw deps.errors.readerRequired();
    req.bearer = principal;
  };
  /** The media the request names, when it names one (cached: answered at once). */
  const mediaOf = (req: FastifyRequest): MaybePromise<void> => {
    const config = routeOf(req).config;
    let header = req.headers['x-service-media-id'];
    // Feed readers and crawlers send no headers: these routes take the media from ?media_id= too.
    if ((header === undefined || header === '') && config.mediaFromQuery) header = (req.query as Record<string, string | undefined>).media_id;
    if (header === undefined || header === '') {
      if (!config.mediaOptional) {
        throw new AppError(400, 'missing_media_id', `the x-service-media-id header${config.mediaFromQuery ? ' (or the media_id query parameter)' : ''} is required`);
      }
      return;
    }
    if (typeof header !== 'string' || !isUuid(header)) {
      throw new AppError(400, 'invalid_media_id', 'x-service-media-id must be a UUID');
    }
    return andThen(deps.findMedia(header.toLowerCase()), (media) => admitMedia(req, media));
  };
  // Callback hooks all the way when the media and the token are cached: no promise per request.
  return checkHook((req) =>
    andThen(mediaOf(req), () => {
      if (routeOf(req).config.anonymous) return;
      return andThen(deps.failures.guard(req.ip, bearerOf, req), (principal) => admitBearer(req, principal));
    }),
  );
}
