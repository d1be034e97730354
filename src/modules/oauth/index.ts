import type { Db } from '../../db/client.js';
import type { CacheBus } from '../../shared/cache-bus.js';
import type { Paginator } from '../../shared/paging.js';
import { createBearerVerifier } from './bearer-verifier.js';
import { createClientsService } from './clients.service.js';
import { createOAuthRepository } from './oauth.repository.js';
import { createProvidersService } from './providers.service.js';
import { createSigningKeysService } from './signing-keys.service.js';
import { createTokensService } from './tokens.service.js';

export { oauthBackofficeRoutes } from './oauth.backoffice.routes.js';
export { oauthReaderRoutes } from './oauth.reader.routes.js';
export { oauthDiscoveryRoutes } from './oauth.discovery.routes.js';
export { bearerErrors } from './oauth.errors.js';
export { oauthTags } from './oauth.tags.js';
export { audienceFor } from './tokens.service.js';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

/** The `iss` of our own access tokens. */
export const issuerFor = (publicBaseUrl: string | undefined) =>
  publicBaseUrl ? `${publicBaseUrl}/api/media/v1` : 'urn:media-publishing-service';

export function createOAuthServices(deps: { db: Db; pager: Paginator; issuer: string; allowInsecureProviderUrls?: boolean; cacheBus?: CacheBus }) {
  const { db, pager, issuer, cacheBus } = deps;
  const repo = createOAuthRepository(pager);
  // The verifier caches providers and client liveness; changes made here reach it at once, and
  // other instances' through the cache bus.
  const late: { verifier?: ReturnType<typeof createBearerVerifier> } = {};
  const clients = createClientsService({ db, repo, onRevoke: (id) => late.verifier?.clientChanged(id) });
  const providers = createProvidersService({
    db,
    repo,
    onChange: (mediaId) => late.verifier?.providersChanged(mediaId),
    allowInsecureUrls: deps.allowInsecureProviderUrls ?? false,
  });
  const keys = createSigningKeysService({ db, repo, accessTokenTtlSeconds: ACCESS_TOKEN_TTL_SECONDS, cacheBus });
  const verifier = createBearerVerifier({ issuer, keys, clients, providers, cacheBus });
  late.verifier = verifier;
  const tokens = createTokensService({
    repo,
    clients,
    providers,
    keys,
    settings: {
      issuer,
      accessTokenTtlSeconds: ACCESS_TOKEN_TTL_SECONDS,
      refreshTokenTtlSeconds: REFRESH_TOKEN_TTL_SECONDS,
    },
  });
  return { clients, providers, keys, tokens, verifier, issuer };
}

export type OAuthServices = ReturnType<typeof createOAuthServices>;
