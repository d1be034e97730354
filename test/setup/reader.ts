import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { App } from '../../src/app.js';
import type { Database } from '../../src/db/client.js';
import { oauthRefreshTokens } from '../../src/modules/oauth/oauth.table.js';
import { sha256 } from '../../src/shared/ids.js';
import { client } from './factories.js';
import type { JwksTestProvider } from './identity-providers.js';

/** Registers an OAuth client through the Backoffice and returns its credentials. */
export async function registerClient(
  app: App,
  adminKey: string,
  scopes = ['media:read', 'account:read', 'account:write'],
  type: 'confidential' | 'public' = 'confidential',
) {
  const res = await client(app, adminKey).post('/core/v2/oauth/clients', { name: 'Test app', scopes, type });
  if (res.statusCode !== 201) throw new Error(`registerClient: ${res.statusCode} ${res.body}`);
  const { id, secret } = res.json().data as { id: string; secret: string };
  return { clientId: id, clientSecret: secret };
}

/** Registers an identity provider through the Backoffice; returns its id. */
export async function registerProvider(app: App, adminKey: string, registration: Record<string, unknown>) {
  const res = await client(app, adminKey).post('/core/v2/oauth/providers', registration);
  if (res.statusCode !== 201) throw new Error(`registerProvider: ${res.statusCode} ${res.body}`);
  return (res.json().data as { id: string }).id;
}

/** POST /api/media/v1/oauth/token with query parameters, as the spec shows. */
export function tokenRequest(
  app: App,
  params: Record<string, string>,
  headers: Record<string, string> = {},
  remoteAddress?: string,
) {
  return app.inject({
    method: 'POST',
    url: `/api/media/v1/oauth/token?${new URLSearchParams(params)}`,
    headers,
    ...(remoteAddress && { remoteAddress }),
  });
}

/** A client-credentials access token for the client. */
export async function clientToken(app: App, creds: { clientId: string; clientSecret: string }, scope?: string) {
  const res = await tokenRequest(app, {
    grant_type: 'client_credentials',
    client_id: creds.clientId,
    client_secret: creds.clientSecret,
    ...(scope && { scope }),
  });
  if (res.statusCode !== 200) throw new Error(`clientToken: ${res.statusCode} ${res.body}`);
  return res.json() as { access_token: string; expires_in: number; scope: string; token_type: string };
}

/**
 * A refresh token of our own, stored as client credentials issued them before they followed
 * RFC 6749 4.4.3 (no refresh token); the refresh grant still honours those until they expire.
 */
export async function legacyRefreshToken(
  database: Database,
  client: { clientId: string; mediaId: string },
  scope = 'media:read account:read account:write',
) {
  const token = `mpr_${randomBytes(32).toString('base64url')}`;
  await database.db.insert(oauthRefreshTokens).values({
    mediaId: client.mediaId,
    clientId: client.clientId,
    familyId: randomUUID(),
    tokenHash: sha256(token),
    scope,
    expiresAt: new Date(Date.now() + 3600_000),
  });
  return token;
}

/** A Reader client sending the media header and a bearer token. */
export function readerClient(app: App, mediaId: string, token?: string) {
  const headers = (extra: Record<string, string> = {}) => ({
    'x-service-media-id': mediaId,
    ...(token && { authorization: `Bearer ${token}` }),
    ...extra,
  });
  return {
    get: (url: string, extra?: Record<string, string>) => app.inject({ method: 'GET', url, headers: headers(extra) }),
    post: (url: string, payload?: unknown, extra?: Record<string, string>) =>
      app.inject({ method: 'POST', url, headers: headers(extra), ...(payload !== undefined && { payload: payload as object }) }),
    put: (url: string, payload?: unknown, extra?: Record<string, string>) =>
      app.inject({ method: 'PUT', url, headers: headers(extra), ...(payload !== undefined && { payload: payload as object }) }),
    patch: (url: string, payload?: unknown, extra?: Record<string, string>) =>
      app.inject({ method: 'PATCH', url, headers: headers(extra), ...(payload !== undefined && { payload: payload as object }) }),
    delete: (url: string, extra?: Record<string, string>) => app.inject({ method: 'DELETE', url, headers: headers(extra) }),
  };
}

/** Readers of one media, with tokens that `provider` signs (a JWKS provider registered for it). */
export function readersOf(app: App, provider: Pick<JwksTestProvider, 'mint'>, mediaId: string) {
  /** A Reader client with a token for `sub`, before any Verify. */
  const asReader = async (sub: string, claims: Record<string, unknown> = {}) =>
    readerClient(app, mediaId, await provider.mint({ sub, ...claims }));

  /** A signed-in reader: Verify created (201) or found (200) the account. */
  const signIn = async (sub: string, claims: Record<string, unknown> = {}) => {
    const api = await asReader(sub, claims);
    const res = await api.post('/api/media/v1/oauth/verify');
    expect([200, 201], res.body).toContain(res.statusCode);
    return { api, id: res.json().data.id as string, status: res.statusCode };
  };

  return { asReader, signIn };
}
