import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CryptoKey, type JWK, type JWTPayload, SignJWT, exportJWK, generateKeyPair } from 'jose';
import { type DevOidcProvider, startDevOidcProvider } from '../../dev/oidc-provider.js';

const listen = async (server: Server): Promise<string> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

export type OidcTestProvider = DevOidcProvider;

/**
 * A real OpenID provider (panva/oidc-provider) on loopback, with its development
 * interactions (login and consent forms) that the tests fill in over HTTP: the one
 * `npm run dev:idp` runs, on a free port.
 */
export function startOidcProvider(options: { accessTokenFormat?: 'opaque' | 'jwt' } = {}): Promise<OidcTestProvider> {
  return startDevOidcProvider(options);
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
