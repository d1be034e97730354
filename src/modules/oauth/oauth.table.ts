import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { deletedAt, idColumn, refColumn, timestamps, tstz } from '../../db/columns.js';
import { mediaIdColumn } from '../core/tenancy/tenancy.table.js';

/** Applications that get tokens with client credentials; `id` is the client_id. */
export const oauthClients = pgTable(
  'oauth_clients',
  {
    id: idColumn(),
    mediaId: mediaIdColumn(),
    name: text('name').notNull(),
    // SHA-256 of the secret, hex; the secret is shown once at creation.
    secretHash: text('secret_hash').notNull(),
    secretPrefix: text('secret_prefix').notNull(),
    scopes: text('scopes').array().notNull(),
    // 'confidential' (a server that keeps its secret) or 'public' (a browser or mobile app:
    // no secret, PKCE instead). RFC 6749 2.1.
    clientType: text('client_type').notNull().default('confidential'),
    revokedAt: tstz('revoked_at'),
    ...timestamps(),
  },
  (t) => [index('oauth_clients_media_page_idx').on(t.mediaId, t.insertedAt.desc(), t.id.desc())],
);

/** External identity providers that sign readers in (authorization code flow). */
export const oauthProviders = pgTable(
  'oauth_providers',
  {
    id: idColumn(),
    mediaId: mediaIdColumn(),
    name: text('name').notNull(),
    issuer: text('issuer').notNull(),
    authorizationEndpoint: text('authorization_endpoint').notNull(),
    tokenEndpoint: text('token_endpoint').notNull(),
    userinfoEndpoint: text('userinfo_endpoint'),
    jwksUri: text('jwks_uri'),
    clientId: text('client_id').notNull(),
    // Sent to the provider's token endpoint, so it cannot be a hash; never returned by the API.
    clientSecret: text('client_secret').notNull(),
    tokenEndpointAuthMethod: text('token_endpoint_auth_method').notNull().default('client_secret_basic'),
    audience: text('audience'),
    scopes: text('scopes').array().notNull(),
    redirectUris: text('redirect_uris').array().notNull(),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    index('oauth_providers_media_page_idx').on(t.mediaId, t.insertedAt.desc(), t.id.desc()),
    uniqueIndex('oauth_providers_media_issuer_uq')
      .on(t.mediaId, t.issuer)
      .where(sql`${t.deletedAt} is null`),
  ],
);

/** Per-media signing keys for our own access tokens; retired keys stay in the JWKS until retire_at. */
export const oauthSigningKeys = pgTable(
  'oauth_signing_keys',
  {
    id: idColumn(),
    mediaId: mediaIdColumn(),
    alg: text('alg').notNull(),
    publicJwk: jsonb('public_jwk').notNull(),
    privateJwk: jsonb('private_jwk').notNull(),
    retireAt: tstz('retire_at'),
    ...timestamps(),
  },
  (t) => [index('oauth_signing_keys_media_idx').on(t.mediaId, t.insertedAt)],
);

/** Our opaque refresh tokens: single use, rotating, grouped in families for reuse detection. */
export const oauthRefreshTokens = pgTable(
  'oauth_refresh_tokens',
  {
    id: idColumn(),
    mediaId: mediaIdColumn(),
    clientId: refColumn('client_id', () => oauthClients.id),
    familyId: uuid('family_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    scope: text('scope').notNull(),
    expiresAt: tstz('expires_at').notNull(),
    usedAt: tstz('used_at'),
    revokedAt: tstz('revoked_at'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('oauth_refresh_tokens_hash_uq').on(t.tokenHash),
    index('oauth_refresh_tokens_family_idx').on(t.familyId),
  ],
);

export type OAuthClientRow = typeof oauthClients.$inferSelect;
export type OAuthProviderRow = typeof oauthProviders.$inferSelect;
export type OAuthSigningKeyRow = typeof oauthSigningKeys.$inferSelect;
export type OAuthRefreshTokenRow = typeof oauthRefreshTokens.$inferSelect;
