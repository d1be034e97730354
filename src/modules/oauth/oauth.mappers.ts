import { iso, isoOrNull } from '../../shared/time.js';
import type { Scope } from '../../shared/scopes.js';
import type { OAuthClientRow, OAuthProviderRow } from './oauth.table.js';

export const toOAuthClient = (row: OAuthClientRow) => ({
  id: row.id,
  name: row.name,
  type: row.clientType as 'confidential' | 'public',
  scopes: row.scopes as Scope[],
  secret_prefix: row.secretPrefix,
  revoked_at: isoOrNull(row.revokedAt),
  inserted_at: iso(row.insertedAt),
  updated_at: iso(row.updatedAt),
});

export const toOAuthProvider = (row: OAuthProviderRow) => ({
  id: row.id,
  name: row.name,
  issuer: row.issuer,
  authorization_endpoint: row.authorizationEndpoint,
  token_endpoint: row.tokenEndpoint,
  userinfo_endpoint: row.userinfoEndpoint,
  jwks_uri: row.jwksUri,
  client_id: row.clientId,
  token_endpoint_auth_method: row.tokenEndpointAuthMethod as 'client_secret_basic' | 'client_secret_post',
  audience: row.audience,
  scopes: row.scopes as Scope[],
  redirect_uris: row.redirectUris,
  inserted_at: iso(row.insertedAt),
  updated_at: iso(row.updatedAt),
});

export const toOAuthProviderSummary = (row: OAuthProviderRow) => ({
  id: row.id,
  name: row.name,
  issuer: row.issuer,
  authorization_endpoint: row.authorizationEndpoint,
  client_id: row.clientId,
  scopes: row.scopes,
  updated_at: iso(row.updatedAt),
});
