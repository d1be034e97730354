import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CryptoKey, type JWK, type JWTPayload, SignJWT, exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

const listen = async (server: Server): Promise<string> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

export interface OidcTestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** Fields for POST /core/v2/oauth/providers. */
  registration: Record<string, unknown>;
  /** Drives authorize → login → consent through the provider's own HTTP endpoints; returns the code. */
  authorize: (login: string, extra?: Record<string, string>) => Promise<{ code: string; state: string }>;
  close: () => Promise<void>;
}

/**
 * A real OpenID provider (panva/oidc-provider) on loopback, with its development
 * interactions (login and consent forms) that the tests fill in over HTTP.
 */
export async function startOidcProvider(options: { accessTokenFormat?: 'opaque' | 'jwt' } = {}): Promise<OidcTestProvider> {
  const server = createServer();
  const issuer = await listen(server);
  const clientId = 'media-publishing-service';
  const clientSecret = 'a-long-test-client-secret-for-the-provider';
  const redirectUri = 'http://127.0.0.1:9/callback';
  const resource = 'urn:test:media-api';
  const jwt = options.accessTokenFormat === 'jwt';

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    cookies: { keys: ['test-cookie-signing-key'] },
    findAccount: async (_ctx, id) => ({
      accountId: id,
      claims: async () => ({ sub: id, email: `${id}@example.test`, name: `Reader ${id}` }),
    }),
    claims: { openid: ['sub'], email: ['email'], profile: ['name'] },
    scopes: ['openid', 'email', 'profile', 'offline_access'],
    issueRefreshToken: async () => true,
    features: {
      devInteractions: { enabled: true },
      resourceIndicators: {
        enabled: jwt,
        defaultResource: async () => resource,
        useGrantedResource: async () => true,
        getResourceServerInfo: async () => ({ scope: 'openid email profile', audience: resource, accessTokenFormat: 'jwt' }),
      },
    },
    ttl: { AccessToken: 600, AuthorizationCode: 60, RefreshToken: 3600, Interaction: 600, Session: 600, Grant: 600 },
  });
  server.on('request', provider.callback());

  const authorize = async (login: string, extra: Record<string, string> = {}) => {
    const jar = new Map<string, string>();
    const remember = (res: Response) => {
      for (const cookie of res.headers.getSetCookie()) {
        const [pair] = cookie.split(';');
        const eq = pair!.indexOf('=');
        jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
      }
    };
    const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const go = async (url: string, init: RequestInit = {}) => {
      const res = await fetch(new URL(url, issuer), {
        ...init,
        redirect: 'manual',
        headers: { ...(init.headers as Record<string, string>), cookie: cookieHeader() },
      });
      remember(res);
      return res;
    };

    const state = `state-${Math.random().toString(36).slice(2)}`;
    const query = new URLSearchParams({
      client_id: clientId,
      response_type: 'code',
      scope: 'openid email profile offline_access',
      redirect_uri: redirectUri,
      state,
      prompt: 'consent',
      ...extra,
    });
    let res = await go(`/auth?${query}`);
    for (let step = 0; step < 12; step++) {
      const location = res.headers.get('location');
      if (!location) throw new Error(`authorize: expected a redirect, got ${res.status} ${await res.text()}`);
      if (location.startsWith(redirectUri)) {
        const params = new URL(location).searchParams;
        const code = params.get('code');
        if (!code) throw new Error(`authorize: provider answered ${location}`);
        return { code, state: params.get('state')! };
      }
      if (new URL(location, issuer).pathname.startsWith('/interaction/')) {
        const page = await (await go(location)).text();
        const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
        const form = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any' } : { prompt: prompt ?? 'consent' });
        res = await go(location, {
          method: 'POST',
          body: form,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
      } else {
        res = await go(location);
      }
    }
    throw new Error('authorize: too many redirects');
  };

  return {
    issuer,
    clientId,
    clientSecret,
    redirectUri,
    registration: {
      name: 'Test OpenID provider',
      issuer,
      authorization_endpoint: `${issuer}/auth`,
      token_endpoint: `${issuer}/token`,
      userinfo_endpoint: `${issuer}/me`,
      jwks_uri: `${issuer}/jwks`,
      client_id: clientId,
      client_secret: clientSecret,
      ...(jwt && { audience: resource }),
      redirect_uris: [redirectUri],
    },
    authorize,
    close: () => close(server),
  };
}

export interface JwksTestProvider {
  issuer: string;
  audience: string;
  jwksUri: string;
  registration: Record<string, unknown>;
  /** A token signed with the provider's published RS256 key. */
  mint: (claims: JWTPayload, options?: { expiresIn?: string | number; kid?: string; notBefore?: string | number }) => Promise<string>;
  privateKey: CryptoKey;
  publicJwk: JWK;
  close: () => Promise<void>;
}

/** A minimal identity provider that only publishes a JWKS: for forging and expiry tests. */
export async function startJwksProvider(): Promise<JwksTestProvider> {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  const publicJwk = { ...(await exportJWK(publicKey)), kid: 'test-key-1', alg: 'RS256', use: 'sig' };
  const server = createServer((req, res) => {
    if (req.url === '/jwks') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: [publicJwk] }));
    } else {
      res.writeHead(404).end();
    }
  });
  const issuer = await listen(server);
  const audience = 'test-audience';
  const mint: JwksTestProvider['mint'] = async (claims, options = {}) => {
    const jwt = new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? 'test-key-1' })
      .setIssuer(issuer)
      .setAudience(audience)
      .setIssuedAt()
      .setExpirationTime(options.expiresIn ?? '5m');
    if (options.notBefore !== undefined) jwt.setNotBefore(options.notBefore);
    return jwt.sign(privateKey);
  };
  return {
    issuer,
    audience,
    jwksUri: `${issuer}/jwks`,
    registration: {
      name: 'Test JWKS provider',
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      jwks_uri: `${issuer}/jwks`,
      client_id: 'jwks-client',
      client_secret: 'jwks-client-secret',
      audience,
    },
    mint,
    privateKey,
    publicJwk,
    close: () => close(server),
  };
}
