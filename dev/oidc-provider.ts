import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/**
 * A real OpenID provider (panva/oidc-provider) with its development interactions (login and
 * consent forms that take any name and any password): the tests' identity provider, and
 * `npm run dev:idp`'s. Development and tests only; it signs with oidc-provider's quick-start keys.
 */

export interface DevOidcProviderOptions {
  /** 0 (the default): any free port. */
  port?: number;
  host?: string;
  /** 'jwt': access tokens are JWTs for `urn:test:media-api` (verified at the JWKS); default opaque (userinfo). */
  accessTokenFormat?: 'opaque' | 'jwt';
  /** Where the provider sends the reader back with the code; default a port nothing listens on. */
  redirectUri?: (issuer: string) => string;
  /** Requests the provider itself does not serve (the dev script's pages); answer true when handled. */
  extraRoutes?: (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;
}

export interface DevOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** Fields for POST /core/v2/oauth/providers. */
  registration: Record<string, unknown>;
  /** The authorization request a front end sends the reader to. */
  authorizationUrl: (extra?: Record<string, string>) => string;
  /** Drives authorize → login → consent through the provider's own HTTP endpoints; returns the code. */
  authorize: (login: string, extra?: Record<string, string>) => Promise<{ code: string; state: string }>;
  close: () => Promise<void>;
}

const SCOPE = 'openid email profile offline_access';

export async function startDevOidcProvider(options: DevOidcProviderOptions = {}): Promise<DevOidcProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve);
  });
  const { address, port } = server.address() as AddressInfo;
  const issuer = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  const clientId = 'media-publishing-service';
  const clientSecret = 'a-long-test-client-secret-for-the-provider';
  const redirectUri = options.redirectUri?.(issuer) ?? 'http://127.0.0.1:9/callback';
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
    // Every login name is a reader: `alice` is alice@example.test, "Reader alice".
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
  const handle = provider.callback();
  server.on('request', async (req: IncomingMessage, res: ServerResponse) => {
    if (options.extraRoutes && (await options.extraRoutes(req, res))) return;
    handle(req, res);
  });

  const authorizationUrl = (extra: Record<string, string> = {}) =>
    `${issuer}/auth?${new URLSearchParams({
      client_id: clientId,
      response_type: 'code',
      scope: SCOPE,
      redirect_uri: redirectUri,
      state: `state-${Math.random().toString(36).slice(2)}`,
      prompt: 'consent',
      ...extra,
    })}`;

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

    let res = await go(authorizationUrl(extra));
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
      name: 'Development OpenID provider',
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
    authorizationUrl,
    authorize,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
