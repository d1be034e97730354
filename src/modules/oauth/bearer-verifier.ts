import type { JWTPayload, JWTVerifyGetKey } from 'jose';
import { type CacheBus, createCacheBus } from '../../shared/cache-bus.js';
import { sha256 } from '../../shared/ids.js';
import { type ReaderPrincipal, type Scope, isScope } from '../../shared/scopes.js';
import type { ClientsService } from './clients.service.js';
import { bearerErrors } from './oauth.errors.js';
import type { OAuthProviderRow } from './oauth.table.js';
import { fetchUserInfo } from './provider-client.js';
import type { ProvidersService } from './providers.service.js';
import { SIGNING_ALG, type SigningKeysService } from './signing-keys.service.js';
import { audienceFor } from './tokens.service.js';
import { LoadingCache, lruCache } from '../../shared/cache.js';
import { type MaybePromise, andThen } from '../../shared/maybe-async.js';

// Asymmetric algorithms only: `none` and HMAC (the "HS256 signed with a public key"
// confusion) are refused before any key is looked at.
const PROVIDER_ALGS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
const CLOCK_SKEW_SECONDS = 60;
const MAX_TOKEN_LENGTH = 8192;

const scopesOf = (value: unknown, fallback: readonly string[] = []): Scope[] =>
  (typeof value === 'string' ? value.split(' ') : [...fallback]).filter(isScope);

const str = (value: unknown) => (typeof value === 'string' ? value : undefined);

/**
 * Turns a bearer token into a principal for one media: our own ES256 tokens (client
 * credentials), identity-provider JWTs (checked against its JWKS), or opaque provider
 * tokens (checked at its userinfo endpoint, cached briefly).
 */
export function createBearerVerifier(deps: {
  issuer: string;
  keys: SigningKeysService;
  clients: ClientsService;
  providers: ProvidersService;
  /** Where a revoked client or changed providers are forgotten across instances; local when left out. */
  cacheBus?: CacheBus;
}) {
  const { issuer, keys, clients, providers } = deps;
  const providerCache = new LoadingCache<string, OAuthProviderRow[]>({ entries: 1000, ttl: 10_000, load: (mediaId) => providers.live(mediaId) });
  const jwksCache = lruCache<string, JWTVerifyGetKey>({ entries: 1000, ttl: 3_600_000 });
  const clientCache = new LoadingCache<string, boolean>({ entries: 10_000, ttl: 10_000, load: async (id) => Boolean(await clients.findLive(id)) });
  // Every instance forgets a changed provider list or a revoked client at once (REDIS_URL); the
  // verified tokens and userinfo answers below are checked against both on every hit.
  const bus = deps.cacheBus ?? createCacheBus();
  const forgetProviders = bus.channel('oauth-providers', providerCache);
  const forgetClient = bus.channel('oauth-clients', clientCache);
  // Opaque tokens: a positive answer is kept a minute, a refusal a few seconds.
  const userinfoCache = lruCache<string, ReaderPrincipal | false>({ entries: 10_000, ttl: 60_000 });
  // A JWT whose signature and claims checked out stays valid until its exp: verifying the
  // signature again on every request (ES256 or RSA) costs more than the rest of auth. What
  // can change meanwhile (a revoked client, a removed provider) is checked on every hit.
  const verifiedJwts = lruCache<string, ReaderPrincipal>({ entries: 10_000, ttl: 300_000 });

  const remember = (key: string, principal: ReaderPrincipal, exp: number | undefined) => {
    const ttl = exp ? Math.min(exp * 1000 - Date.now(), 300_000) : 0;
    if (ttl > 0) verifiedJwts.set(key, principal, { ttl });
    return principal;
  };

  /** Whether what vouched for a verified token still does: answered at once from the caches. */
  const stillTrusted = (principal: ReaderPrincipal): MaybePromise<boolean> =>
    principal.kind === 'client'
      ? clientIsLive(principal.clientId!)
      : andThen(liveProviders(principal.mediaId), (rows) => rows.some((p) => p.id === principal.providerId));

  const liveProviders = (mediaId: string): MaybePromise<OAuthProviderRow[]> => andThen(providerCache.get(mediaId), (rows) => rows ?? []);

  const clientIsLive = (id: string): MaybePromise<boolean> => andThen(clientCache.get(id), Boolean);

  const verifyOwn = async (mediaId: string, token: string, kid: string | undefined): Promise<ReaderPrincipal> => {
    const key = kid ? await keys.verificationKey(mediaId, kid) : undefined;
    if (!key) throw bearerErrors.invalid();
    // jose loads with the first token to verify, not at start-up.
    const { jwtVerify } = await import('jose');
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, key, {
        issuer,
        audience: audienceFor(mediaId),
        algorithms: [SIGNING_ALG],
        typ: 'at+jwt',
        clockTolerance: CLOCK_SKEW_SECONDS,
        requiredClaims: ['exp', 'iat', 'jti', 'sub'],
      }));
    } catch {
      throw bearerErrors.invalid();
    }
    const clientId = str(payload.client_id);
    if (payload.media !== mediaId || !clientId || !(await clientIsLive(clientId))) throw bearerErrors.invalid();
    return remember(
      `${mediaId}\0${token}`,
      { kind: 'client', mediaId, subject: `client:${clientId}`, scopes: scopesOf(payload.scope), clientId },
      payload.exp,
    );
  };

  const verifyProviderJwt = async (mediaId: string, token: string, provider: OAuthProviderRow): Promise<ReaderPrincipal> => {
    const { createRemoteJWKSet, jwtVerify } = await import('jose');
    let jwks = jwksCache.get(provider.id);
    if (!jwks) {
      jwks = createRemoteJWKSet(new URL(provider.jwksUri!), { timeoutDuration: 5_000, cooldownDuration: 30_000 });
      jwksCache.set(provider.id, jwks);
    }
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, jwks, {
        issuer: provider.issuer,
        audience: provider.audience ?? provider.clientId,
        algorithms: PROVIDER_ALGS,
        clockTolerance: CLOCK_SKEW_SECONDS,
        requiredClaims: ['exp', 'sub'],
      }));
    } catch {
      throw bearerErrors.invalid();
    }
    return remember(
      `${mediaId}\0${token}`,
      {
        kind: 'reader',
        mediaId,
        subject: `${provider.id}:${payload.sub}`,
        scopes: scopesOf(undefined, provider.scopes),
        providerId: provider.id,
        sub: payload.sub!,
        email: str(payload.email),
        emailVerified: payload.email_verified === true,
        name: str(payload.name),
      },
      payload.exp,
    );
  };

  /**
   * An opaque token is shown to one provider only, never to all of them: the one the client
   * names in x-oauth-provider-id, or the media's only provider with a userinfo endpoint.
   */
  const userinfoProvider = async (mediaId: string, hint: string | undefined) => {
    const candidates = (await liveProviders(mediaId)).filter((p) => p.userinfoEndpoint);
    if (hint) return candidates.find((p) => p.id === hint);
    return candidates.length === 1 ? candidates[0] : undefined;
  };

  const verifyAtUserinfo = async (mediaId: string, token: string, provider: OAuthProviderRow | undefined) => {
    if (!provider) throw bearerErrors.invalid();
    const cacheKey = `${mediaId}:${provider.id}:${sha256(token)}`;
    const cached = userinfoCache.get(cacheKey);
    if (cached) {
      if (await stillTrusted(cached)) return cached;
      throw bearerErrors.invalid();
    }
    if (cached === false) throw bearerErrors.invalid();
    const info = await fetchUserInfo(provider.userinfoEndpoint!, token);
    if (!info) {
      userinfoCache.set(cacheKey, false, { ttl: 5_000 });
      throw bearerErrors.invalid();
    }
    const principal: ReaderPrincipal = {
      kind: 'reader',
      mediaId,
      subject: `${provider.id}:${info.sub}`,
      scopes: scopesOf(undefined, provider.scopes),
      providerId: provider.id,
      sub: info.sub,
      email: info.email,
      emailVerified: info.emailVerified,
      name: info.name,
    };
    userinfoCache.set(cacheKey, principal);
    return principal;
  };

  /** A token not verified before: its signature and claims, or its provider's userinfo. */
  const verifyNew = async (mediaId: string, token: string, providerHint: string | undefined): Promise<ReaderPrincipal> => {
    let header: { alg?: string; kid?: string };
    const { decodeJwt, decodeProtectedHeader } = await import('jose');
    let payload: JWTPayload;
    try {
      header = decodeProtectedHeader(token);
      payload = decodeJwt(token);
    } catch {
      // Not a JWT: an opaque provider token, or garbage.
      return verifyAtUserinfo(mediaId, token, await userinfoProvider(mediaId, providerHint));
    }
    if (payload.iss === issuer) return verifyOwn(mediaId, token, header.kid);
    if (typeof payload.iss !== 'string') throw bearerErrors.invalid();
    const provider = (await liveProviders(mediaId)).find((p) => p.issuer === payload.iss);
    if (!provider) throw bearerErrors.invalid();
    // A provider without a JWKS vouches for its JWTs at its userinfo endpoint, like for opaque ones.
    if (!provider.jwksUri) return verifyAtUserinfo(mediaId, token, provider.userinfoEndpoint ? provider : undefined);
    return verifyProviderJwt(mediaId, token, provider);
  };

  return {
    /** `providerHint`: the x-oauth-provider-id header, which names the provider of an opaque token. */
    verify(mediaId: string, token: string, providerHint?: string): MaybePromise<ReaderPrincipal> {
      if (token.length > MAX_TOKEN_LENGTH) throw bearerErrors.invalid();
      const key = `${mediaId}\0${token}`;
      const known = verifiedJwts.get(key);
      if (!known) return verifyNew(mediaId, token, providerHint);
      // A token verified before: no promise unless a cache has to ask the database again.
      return andThen(stillTrusted(known), (trusted) => {
        if (trusted) return known;
        verifiedJwts.delete(key);
        throw bearerErrors.invalid();
      });
    },

    /** Forget cached providers of a media (they changed). */
    providersChanged: (mediaId: string) => forgetProviders(mediaId),
    /** Forget a client's cached liveness (it was revoked). */
    clientChanged: (clientId: string) => forgetClient(clientId),
  };
}

export type BearerVerifier = ReturnType<typeof createBearerVerifier>;
