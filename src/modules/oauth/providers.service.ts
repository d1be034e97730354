import type { Db } from '../../db/client.js';
import { type RequestContext, afterCommit } from '../../shared/context.js';
import type { PagingQuery } from '../../shared/schemas.js';
import { oauthErrors } from './oauth.errors.js';
import type { OAuthRepository } from './oauth.repository.js';
import type { OAuthProviderCreate } from './oauth.schemas.js';
import { checkProviderUrls } from './provider-urls.js';

export function createProvidersService(deps: {
  /** For the lookups made outside any request's context: the bearer verifier's cache, shared by every request. */
  db: Db;
  repo: OAuthRepository;
  onChange: (mediaId: string) => void;
  /** OAUTH_ALLOW_INSECURE_PROVIDERS: http:// and loopback or private addresses accepted (development, tests). */
  allowInsecureUrls?: boolean;
}) {
  const { db, repo, onChange, allowInsecureUrls = false } = deps;
  return {
    async create(ctx: RequestContext, input: OAuthProviderCreate) {
      if (!allowInsecureUrls) checkProviderUrls(input);
      const row = await repo.insertProvider(ctx.db, {
        mediaId: ctx.mediaId,
        name: input.name,
        issuer: input.issuer,
        authorizationEndpoint: input.authorization_endpoint,
        tokenEndpoint: input.token_endpoint,
        userinfoEndpoint: input.userinfo_endpoint ?? null,
        jwksUri: input.jwks_uri ?? null,
        clientId: input.client_id,
        clientSecret: input.client_secret,
        tokenEndpointAuthMethod: input.token_endpoint_auth_method,
        audience: input.audience ?? null,
        scopes: input.scopes,
        redirectUris: input.redirect_uris,
      });
      // Once committed: a cache refilled before then would miss the provider.
      afterCommit(ctx, () => onChange(ctx.mediaId));
      return row;
    },

    list: (ctx: RequestContext, query: PagingQuery) => repo.listProviders(ctx.db, ctx.mediaId, query),

    async get(ctx: RequestContext, id: string) {
      const row = await repo.findProvider(ctx.db, ctx.mediaId, id);
      if (!row) throw oauthErrors.providerNotFound();
      return row;
    },

    async remove(ctx: RequestContext, id: string): Promise<void> {
      if (!(await repo.deleteProvider(ctx.db, ctx.mediaId, id))) throw oauthErrors.providerNotFound();
      afterCommit(ctx, () => onChange(ctx.mediaId));
    },

    /** Every live provider of the media, for the Reader's sign-in screen and the bearer verifier. */
    live: (mediaId: string) => repo.liveProviders(db, mediaId),

    /** A live provider of the media, for the token endpoint; undefined when there is none. */
    findLive: (mediaId: string, id: string) => repo.findProvider(db, mediaId, id),
  };
}

export type ProvidersService = ReturnType<typeof createProvidersService>;
