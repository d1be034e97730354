import { randomBytes } from 'node:crypto';
import type { Executor } from '../../db/client.js';
import { newId } from '../../db/columns.js';
import { type RequestContext, transaction } from '../../shared/context.js';
import { isUuid, sha256 } from '../../shared/ids.js';
import { type Scope, isScope } from '../../shared/scopes.js';
import type { ClientsService } from './clients.service.js';
import { oauthErrors } from './oauth.errors.js';
import type { OAuthRepository } from './oauth.repository.js';
import type { TokenParams } from './oauth.schemas.js';
import type { OAuthClientRow } from './oauth.table.js';
import { type ProviderTokens, requestProviderTokens } from './provider-client.js';
import type { ProvidersService } from './providers.service.js';
import { SIGNING_ALG, type SigningKeysService } from './signing-keys.service.js';

export interface TokenSettings {
  issuer: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
}

/** The grants the token endpoint takes (also in the authorization server metadata). */
export const GRANT_TYPES = ['authorization_code', 'client_credentials', 'refresh_token'] as const;
type GrantType = (typeof GRANT_TYPES)[number];
const isGrantType = (value: string): value is GrantType => (GRANT_TYPES as readonly string[]).includes(value);

/** Our access tokens name the media they are for in `aud` as well as in `media`. */
export const audienceFor = (mediaId: string) => `urn:media-publishing-service:media:${mediaId}`;


interface ClientCredentials {
  id?: string | undefined;
  secret?: string | undefined;
  /** Sent as HTTP Basic: a refusal then carries the Basic challenge (RFC 6749 5.2). */
  viaBasic: boolean;
}

/** client_id/secret from HTTP Basic (RFC 6749 2.3.1) or from the parameters, not both. */
function clientCredentials(params: TokenParams, authorization: string | undefined): ClientCredentials {
  if (authorization?.startsWith('Basic ')) {
    if (params.client_secret) throw oauthErrors.invalidRequest('send client credentials once: Basic or parameters');
    const decoded = Buffer.from(authorization.slice(6), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw oauthErrors.invalidClient(undefined, true);
    try {
      return {
        id: decodeURIComponent(decoded.slice(0, colon)),
        secret: decodeURIComponent(decoded.slice(colon + 1)),
        viaBasic: true,
      };
    } catch {
      throw oauthErrors.invalidClient(undefined, true);
    }
  }
  return { id: params.client_id, secret: params.client_secret, viaBasic: false };
}

export function createTokensService(deps: {
  repo: OAuthRepository;
  clients: ClientsService;
  providers: ProvidersService;
  keys: SigningKeysService;
  settings: TokenSettings;
}) {
  const { repo, clients, providers, keys, settings } = deps;

  const authenticateClient = async (creds: ClientCredentials, mediaId: string | undefined) => {
    if (!creds.id || !creds.secret) throw oauthErrors.invalidClient('client_id and client_secret are required', creds.viaBasic);
    const client = await clients.authenticate(creds.id, creds.secret);
    // A client of another media is as unknown as a missing one.
    if (!client || (mediaId && client.mediaId !== mediaId)) throw oauthErrors.invalidClient(undefined, creds.viaBasic);
    return client;
  };

  const grantedScopes = (requested: string | undefined, allowed: readonly string[]): Scope[] => {
    if (requested === undefined || requested.trim() === '') return allowed.filter(isScope);
    const asked = [...new Set(requested.trim().split(/\s+/))];
    const refused = asked.filter((s) => !isScope(s) || !allowed.includes(s));
    if (refused.length > 0) throw oauthErrors.invalidScope(`scope not allowed for this client: ${refused.join(' ')}`);
    return asked as Scope[];
  };

  /** A signed access token (no database work: the signing key is made beforehand). */
  const signAccessToken = async (client: OAuthClientRow, scope: string) => {
    const signer = await keys.signer(client.mediaId);
    // jose loads with the first token signed, not at start-up.
    const { SignJWT } = await import('jose');
    return new SignJWT({ scope, media: client.mediaId, client_id: client.id })
      .setProtectedHeader({ alg: SIGNING_ALG, kid: signer.kid, typ: 'at+jwt' })
      .setIssuer(settings.issuer)
      .setAudience(audienceFor(client.mediaId))
      .setSubject(`client:${client.id}`)
      .setIssuedAt()
      .setExpirationTime(`${settings.accessTokenTtlSeconds}s`)
      .setJti(newId())
      .sign(signer.privateKey);
  };

  /** Stores a fresh refresh token in `familyId` and returns it (shown once). */
  const storeRefreshToken = async (tx: Executor, client: OAuthClientRow, scope: string, familyId: string) => {
    const refreshToken = `mpr_${randomBytes(32).toString('base64url')}`;
    await repo.insertRefreshToken(tx, {
      mediaId: client.mediaId,
      clientId: client.id,
      familyId,
      tokenHash: sha256(refreshToken),
      scope,
      expiresAt: new Date(Date.now() + settings.refreshTokenTtlSeconds * 1000),
    });
    return refreshToken;
  };

  const tokenResponse = (accessToken: string, scope: string, refreshToken?: string) => ({
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: settings.accessTokenTtlSeconds,
    scope,
    ...(refreshToken && { refresh_token: refreshToken }),
  });

  const findProvider = async (mediaId: string, id: string | undefined) => {
    if (!id) throw oauthErrors.invalidRequest('oauth_provider_id is required');
    if (!isUuid(id)) throw oauthErrors.invalidRequest('oauth_provider_id must be a UUID');
    const provider = await providers.findLive(mediaId, id);
    if (!provider) throw oauthErrors.invalidRequest('unknown oauth_provider_id');
    return provider;
  };

  /**
   * The app a front end registered with us (RFC 6749 2.1): a confidential client proves
   * itself with its secret; a public one has none to prove, so it is only identified.
   */
  const identifyClient = async (creds: ClientCredentials, mediaId: string | undefined) => {
    if (!creds.id) throw oauthErrors.invalidClient('client_id is required', creds.viaBasic);
    const client = await clients.findLive(creds.id);
    if (!client || (mediaId && client.mediaId !== mediaId)) throw oauthErrors.invalidClient(undefined, creds.viaBasic);
    if (client.clientType === 'public') {
      if (creds.secret) throw oauthErrors.invalidClient('a public client has no secret to send', creds.viaBasic);
      return client;
    }
    return authenticateClient(creds, mediaId);
  };

  const flows = {
    async client_credentials(params: TokenParams, creds: ClientCredentials, mediaId: string | undefined) {
      if (creds.id && !creds.secret && (await clients.findLive(creds.id))?.clientType === 'public') {
        throw oauthErrors.unauthorizedClient('a public client cannot use client credentials');
      }
      const client = await authenticateClient(creds, mediaId);
      const scope = grantedScopes(params.scope, client.scopes).join(' ');
      // No refresh token (RFC 6749 4.4.3): the client can always ask again with its credentials.
      return tokenResponse(await signAccessToken(client, scope), scope);
    },

    async authorization_code(params: TokenParams, creds: ClientCredentials, mediaId: string | undefined): Promise<ProviderTokens> {
      const client = await identifyClient(creds, mediaId);
      const provider = await findProvider(client.mediaId, params.oauth_provider_id);
      if (!params.code) throw oauthErrors.invalidRequest('code is required');
      if (!params.redirect_uri) throw oauthErrors.invalidRequest('redirect_uri is required');
      if (provider.redirectUris.length > 0 && !provider.redirectUris.includes(params.redirect_uri)) {
        throw oauthErrors.invalidGrant('redirect_uri is not registered for this provider');
      }
      return requestProviderTokens(provider, {
        grant_type: 'authorization_code',
        code: params.code,
        redirect_uri: params.redirect_uri,
        ...(params.code_verifier && { code_verifier: params.code_verifier }),
      });
    },

    async refresh_token(params: TokenParams, creds: ClientCredentials, mediaId: string | undefined, ctx: RequestContext) {
      if (!params.refresh_token) throw oauthErrors.invalidRequest('refresh_token is required');
      if (params.oauth_provider_id) {
        // A provider's refresh token: exchanged at the provider, answered unchanged.
        const client = await identifyClient(creds, mediaId);
        const provider = await findProvider(client.mediaId, params.oauth_provider_id);
        return requestProviderTokens(provider, {
          grant_type: 'refresh_token',
          refresh_token: params.refresh_token,
          ...(params.scope && { scope: params.scope }),
        });
      }
      // Our own refresh tokens: client credentials issued them until RFC 6749 4.4.3 was followed;
      // those still held keep rotating until they expire, and their reuse detection stays.
      const client = await authenticateClient(creds, mediaId);
      const hash = sha256(params.refresh_token);
      // Consuming the old token and storing its successor happen in one transaction under the
      // old row's lock: a concurrent reuse waits, then finds the token used and revokes the
      // whole family, successor included. Its revocation must commit, so the error is thrown
      // only after the transaction.
      const outcome = await transaction(ctx, async (tx) => {
        const row = await repo.findRefreshTokenForUpdate(tx, hash);
        if (!row || row.clientId !== client.id) return undefined;
        if (row.usedAt) {
          await repo.revokeRefreshFamily(tx, row.familyId);
          return undefined;
        }
        if (row.revokedAt || row.expiresAt <= new Date()) return undefined;
        const scope = grantedScopes(params.scope, row.scope.split(' ')).join(' ');
        await repo.markRefreshTokenUsed(tx, row.id);
        return { scope, refreshToken: await storeRefreshToken(tx, client, scope, row.familyId) };
      });
      if (!outcome) throw oauthErrors.invalidGrant();
      return tokenResponse(await signAccessToken(client, outcome.scope), outcome.scope, outcome.refreshToken);
    },
  } satisfies Record<GrantType, unknown>;

  return {
    /** POST /oauth/token: one of the three grants, RFC 6749 errors otherwise. */
    async token(ctx: RequestContext, params: TokenParams, context: { authorization?: string | undefined; mediaId?: string | undefined }) {
      if (params.grant_type && params.grand_type && params.grant_type !== params.grand_type) {
        throw oauthErrors.invalidRequest('grant_type and grand_type disagree');
      }
      const grant = params.grant_type ?? params.grand_type;
      if (!grant) throw oauthErrors.invalidRequest('grant_type is required');
      if (!isGrantType(grant)) throw oauthErrors.unsupportedGrantType();
      const creds = clientCredentials(params, context.authorization);
      return flows[grant](params, creds, context.mediaId, ctx);
    },
  };
}

export type TokensService = ReturnType<typeof createTokensService>;
