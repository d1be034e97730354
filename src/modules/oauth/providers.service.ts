import type { Db } from '../../db/client.js';
import { errors } from '../../shared/errors.js';
import type { PagingQuery } from '../../shared/schemas.js';
import type { OAuthRepository } from './oauth.repository.js';
import type { OAuthProviderCreate } from './oauth.schemas.js';

export function createProvidersService(deps: { db: Db; repo: OAuthRepository; onChange: (mediaId: string) => void }) {
  const { db, repo, onChange } = deps;
  return {
    async create(mediaId: string, input: OAuthProviderCreate) {
      const row = await repo.insertProvider(db, {
        mediaId,
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
      onChange(mediaId);
      return row;
    },

    list: (mediaId: string, query: PagingQuery) => repo.listProviders(db, mediaId, query),

    /** Every live provider of the media, for the Reader's sign-in screen. */
    live: (mediaId: string) => repo.liveProviders(db, mediaId),

    async get(mediaId: string, id: string) {
      const row = await repo.findProvider(db, mediaId, id);
      if (!row) throw errors.notFound('oauth_provider');
      return row;
    },

    async remove(mediaId: string, id: string): Promise<void> {
      if (!(await repo.deleteProvider(db, mediaId, id))) throw errors.notFound('oauth_provider');
      onChange(mediaId);
    },
  };
}

export type ProvidersService = ReturnType<typeof createProvidersService>;
