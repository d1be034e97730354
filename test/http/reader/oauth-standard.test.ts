import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { type SeededMedia, seedMedia } from '../../setup/factories.js';
import { type OidcTestProvider, startOidcProvider } from '../../setup/identity-providers.js';
import { legacyRefreshToken, registerClient, registerProvider, tokenRequest } from '../../setup/reader.js';

// The token endpoint driven by a standard OAuth 2 client library (oauth4webapi) over real HTTP,
// and its error answers as RFC 6749 section 5.2 has them.

let ctx: TestContext;
let media: SeededMedia;
let oidc: OidcTestProvider;
let providerId: string;
let base: string;
let confidential: { clientId: string; clientSecret: string };
let spa: { clientId: string };
/** Our token endpoint, described the way a client library wants an authorization server. */
let server: oauth.AuthorizationServer;
const insecure = { [oauth.allowInsecureRequests]: true } as const;

beforeAll(async () => {
  ctx = await createTestApp({ rateLimit: { backoffice: 10_000, reader: 10_000, anonymous: 10_000, token: 10_000 } });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  media = await seedMedia(ctx.app);
  oidc = await startOidcProvider();
  providerId = await registerProvider(ctx.app, media.keys.admin, oidc.registration);
  confidential = await registerClient(ctx.app, media.keys.admin, ['media:read', 'account:read']);
  spa = await registerClient(ctx.app, media.keys.admin, ['media:read', 'account:read', 'account:write'], 'public');
  server = { issuer: 'urn:media-publishing-service', token_endpoint: `${base}/api/media/v1/oauth/token` };
});
afterAll(async () => {
  await ctx?.close();
  await oidc?.close();
});

const readerCall = (accessToken: string, path: string) =>
  oauth.protectedResourceRequest(
    accessToken,
    'GET',
    new URL(path, base),
    new Headers({ 'x-service-media-id': media.mediaId }),
    null,
    insecure,
  );

/** The error a client library reports for a refused token request. */
async function refusal(request: Promise<Response>, process: (response: Response) => Promise<unknown>) {
  const response = await request;
  const error = await process(response).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error, `expected a refusal, got ${response.status}`).toBeInstanceOf(oauth.ResponseBodyError);
  return error as oauth.ResponseBodyError;
}

describe('client credentials through oauth4webapi', () => {
  it.each([
    ['HTTP Basic', () => oauth.ClientSecretBasic(confidential.clientSecret)],
    ['client_secret_post', () => oauth.ClientSecretPost(confidential.clientSecret)],
  ])('issues a Bearer access token without a refresh token (%s) that a Reader route accepts', async (_name, auth) => {
    const client: oauth.Client = { client_id: confidential.clientId };
    const response = await oauth.clientCredentialsGrantRequest(server, client, auth(), { scope: 'media:read' }, insecure);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const tokens = await oauth.processClientCredentialsResponse(server, client, response);
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.expires_in).toBe(900);
    expect(tokens.scope).toBe('media:read');
    expect(tokens.access_token).toMatch(/^ey/);
    // RFC 6749 4.4.3.
    expect(tokens.refresh_token).toBeUndefined();
    expect(Object.keys(tokens).sort()).toEqual(['access_token', 'expires_in', 'scope', 'token_type']);

    const categories = await readerCall(tokens.access_token, '/api/media/v1/categories');
    expect(categories.status).toBe(200);
    expect(((await categories.json()) as { data: unknown[] }).data).toEqual([]);
  });

  it('reports a wrong secret sent as parameters as invalid_client, with no challenge to read instead', async () => {
    const client: oauth.Client = { client_id: confidential.clientId };
    const err = await refusal(
      oauth.clientCredentialsGrantRequest(server, client, oauth.ClientSecretPost('wrong'), {}, insecure),
      (response) => oauth.processClientCredentialsResponse(server, client, response),
    );
    expect(err.status).toBe(401);
    expect(err.error).toBe('invalid_client');
    expect(err.error_description).toBe('client authentication failed');
    expect(err.cause).toEqual({ error: 'invalid_client', error_description: 'client authentication failed', code: 'invalid_client' });
    expect(err.response.headers.get('www-authenticate')).toBeNull();
  });

  it('answers a wrong secret sent as HTTP Basic with 401 and the Basic challenge (RFC 6749 5.2)', async () => {
    const client: oauth.Client = { client_id: confidential.clientId };
    const response = await oauth.clientCredentialsGrantRequest(server, client, oauth.ClientSecretBasic('wrong'), {}, insecure);
    const err = await oauth.processClientCredentialsResponse(server, client, response).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
    expect((err as oauth.WWWAuthenticateChallengeError).cause).toEqual([{ scheme: 'basic', parameters: { realm: 'oauth' } }]);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      error: 'invalid_client',
      error_description: 'client authentication failed',
      code: 'invalid_client',
    });
  });

  it('reports a scope the client may not ask for as invalid_scope', async () => {
    const client: oauth.Client = { client_id: confidential.clientId };
    const err = await refusal(
      oauth.clientCredentialsGrantRequest(
        server,
        client,
        oauth.ClientSecretBasic(confidential.clientSecret),
        { scope: 'media:read account:write' },
        insecure,
      ),
      (response) => oauth.processClientCredentialsResponse(server, client, response),
    );
    expect(err.status).toBe(400);
    expect(err.error).toBe('invalid_scope');
    expect(err.error_description).toBe('scope not allowed for this client: account:write');
    expect(err.cause.code).toBe('invalid_scope');
  });

  it('reports a public client asking for client credentials as unauthorized_client', async () => {
    const client: oauth.Client = { client_id: spa.clientId };
    const err = await refusal(
      oauth.clientCredentialsGrantRequest(server, client, oauth.None(), {}, insecure),
      (response) => oauth.processClientCredentialsResponse(server, client, response),
    );
    expect(err.status).toBe(400);
    expect(err.error).toBe('unauthorized_client');
    expect(err.cause).toEqual({
      error: 'unauthorized_client',
      error_description: 'a public client cannot use client credentials',
      code: 'unauthorized_client',
    });
  });

  it('reports an unknown grant type as unsupported_grant_type', async () => {
    const client: oauth.Client = { client_id: confidential.clientId };
    const response = await fetch(server.token_endpoint!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ grant_type: 'password', username: 'u', password: 'p' }),
    });
    const err = await refusal(Promise.resolve(response), (r) => oauth.processGenericTokenEndpointResponse(server, client, r));
    expect(err.status).toBe(400);
    expect(err.error).toBe('unsupported_grant_type');
    expect(err.cause.code).toBe('unsupported_grant_type');
  });
});

describe('refresh tokens through oauth4webapi', () => {
  it('rotates one of our refresh tokens and reports its reuse as invalid_grant', async () => {
    const client: oauth.Client = { client_id: confidential.clientId };
    const auth = oauth.ClientSecretBasic(confidential.clientSecret);
    const first = await legacyRefreshToken(ctx.database, { ...confidential, mediaId: media.mediaId }, 'media:read');
    const rotated = await oauth.processRefreshTokenResponse(
      server,
      client,
      await oauth.refreshTokenGrantRequest(server, client, auth, first, insecure),
    );
    expect(rotated.refresh_token).toMatch(/^mpr_/);
    expect(rotated.refresh_token).not.toBe(first);
    expect(rotated.scope).toBe('media:read');
    expect((await readerCall(rotated.access_token, '/api/media/v1/categories')).status).toBe(200);

    const err = await refusal(oauth.refreshTokenGrantRequest(server, client, auth, first, insecure), (response) =>
      oauth.processRefreshTokenResponse(server, client, response),
    );
    expect(err.status).toBe(400);
    expect(err.error).toBe('invalid_grant');
    expect(err.cause.code).toBe('invalid_grant');
  });
});

describe('authorization code through oauth4webapi, with a real OpenID provider', () => {
  it('exchanges a PKCE code for a public client, reads the reader account, and refreshes at the provider', async () => {
    const verifier = oauth.generateRandomCodeVerifier();
    const challenge = await oauth.calculatePKCECodeChallenge(verifier);
    const state = oauth.generateRandomState();
    const { code } = await oidc.authorize('olivia', { code_challenge: challenge, code_challenge_method: 'S256', state });

    // The provider's tokens come back unchanged: its id_token is the provider's, issued to the
    // client this service is at the provider, which is whom the library checks it against.
    const provider: oauth.AuthorizationServer = { issuer: oidc.issuer, token_endpoint: server.token_endpoint! };
    const ours: oauth.Client = { client_id: spa.clientId };
    const atProvider: oauth.Client = { client_id: oidc.clientId };
    const callback = oauth.validateAuthResponse(provider, ours, new URLSearchParams({ code, state }), state);
    const response = await oauth.authorizationCodeGrantRequest(provider, ours, oauth.None(), callback, oidc.redirectUri, verifier, {
      ...insecure,
      additionalParameters: { oauth_provider_id: providerId },
    });
    const tokens = await oauth.processAuthorizationCodeResponse(provider, atProvider, response);
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.scope).toContain('openid');
    expect(tokens.refresh_token).toEqual(expect.any(String));
    expect(oauth.getValidatedIdTokenClaims(tokens)).toMatchObject({ sub: 'olivia', iss: oidc.issuer, aud: oidc.clientId });

    const userinfo = await readerCall(tokens.access_token, '/api/media/v1/oauth/userinfo');
    expect(userinfo.status).toBe(200);
    expect(((await userinfo.json()) as { data: Record<string, unknown> }).data).toMatchObject({
      sub: 'olivia',
      email: 'olivia@example.test',
      name: 'Reader olivia',
    });

    const refreshed = await oauth.processRefreshTokenResponse(
      provider,
      atProvider,
      await oauth.refreshTokenGrantRequest(provider, ours, oauth.None(), tokens.refresh_token!, {
        ...insecure,
        additionalParameters: { oauth_provider_id: providerId },
      }),
    );
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect((await readerCall(refreshed.access_token, '/api/media/v1/categories')).status).toBe(200);
  });

  it('reports a wrong PKCE verifier as the provider says: invalid_grant', async () => {
    const verifier = oauth.generateRandomCodeVerifier();
    const challenge = await oauth.calculatePKCECodeChallenge(verifier);
    const { code, state } = await oidc.authorize('peter', { code_challenge: challenge, code_challenge_method: 'S256' });
    const provider: oauth.AuthorizationServer = { issuer: oidc.issuer, token_endpoint: server.token_endpoint! };
    const ours: oauth.Client = { client_id: spa.clientId };
    const callback = oauth.validateAuthResponse(provider, ours, new URLSearchParams({ code, state }), state);
    const err = await refusal(
      oauth.authorizationCodeGrantRequest(provider, ours, oauth.None(), callback, oidc.redirectUri, oauth.generateRandomCodeVerifier(), {
        ...insecure,
        additionalParameters: { oauth_provider_id: providerId },
      }),
      (response) => oauth.processAuthorizationCodeResponse(provider, { client_id: oidc.clientId }, response),
    );
    expect(err.status).toBe(400);
    expect(err.error).toBe('invalid_grant');
  });
});

describe('RFC 6749 error objects', () => {
  const post = (payload: string, headers: Record<string, string> = {}, url = '/api/media/v1/oauth/token') =>
    ctx.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, payload });

  it('answers a missing grant type with invalid_request, its description and the house code', async () => {
    const res = await post('');
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['www-authenticate']).toBeUndefined();
    expect(res.json()).toEqual({ error: 'invalid_request', error_description: 'grant_type is required', code: 'invalid_request' });
  });

  it('maps a validation failure to invalid_request, keeping the code and the details', async () => {
    const res = await post(new URLSearchParams({ grant_type: 'client_credentials', client_id: 'x'.repeat(201) }).toString());
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['code', 'details', 'error', 'error_description']);
    expect(body.error).toBe('invalid_request');
    expect(body.code).toBe('validation_failed');
    expect(body.error_description).toMatch(/^the request body is invalid \(client_id: /);
    expect(body.error_description).toMatch(/^[\x20-\x21\x23-\x5b\x5d-\x7e]+$/);
    expect(body.details).toEqual([{ path: 'client_id', message: expect.any(String) }]);
  });

  it('maps a body of another media type to invalid_request with the code unsupported_media_type', async () => {
    const res = await post('grant_type=client_credentials', { 'content-type': 'text/plain' });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({
      error: 'invalid_request',
      error_description: 'the request body must be application/json',
      code: 'unsupported_media_type',
    });
  });

  it('maps an unknown media header to invalid_request with the code media_not_found', async () => {
    const res = await post('grant_type=client_credentials', { 'x-service-media-id': randomUUID() });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'invalid_request', error_description: 'media not found', code: 'media_not_found' });
  });

  it('answers invalid_client with the Basic challenge only when the client tried HTTP Basic', async () => {
    const params = { grant_type: 'client_credentials', client_id: confidential.clientId, client_secret: 'wrong' };
    const inQuery = await tokenRequest(ctx.app, params);
    expect(inQuery.statusCode).toBe(401);
    expect(inQuery.headers['www-authenticate']).toBeUndefined();
    expect(inQuery.json()).toEqual({ error: 'invalid_client', error_description: 'client authentication failed', code: 'invalid_client' });

    const unknown = await post(new URLSearchParams({ ...params, client_id: randomUUID() }).toString());
    expect(unknown.statusCode).toBe(401);
    expect(unknown.headers['www-authenticate']).toBeUndefined();

    const basic = await post('grant_type=client_credentials', {
      authorization: `Basic ${Buffer.from(`${confidential.clientId}:wrong`).toString('base64')}`,
    });
    expect(basic.statusCode).toBe(401);
    expect(basic.headers['www-authenticate']).toBe('Basic realm="oauth"');
    expect(basic.json()).toEqual({ error: 'invalid_client', error_description: 'client authentication failed', code: 'invalid_client' });

    const malformed = await post('grant_type=client_credentials', { authorization: `Basic ${Buffer.from('no-colon').toString('base64')}` });
    expect(malformed.statusCode).toBe(401);
    expect(malformed.headers['www-authenticate']).toBe('Basic realm="oauth"');
  });

  it('answers the rate limit with temporarily_unavailable, code rate_limited and Retry-After', async () => {
    const limited = await createTestApp({ rateLimit: { backoffice: 100, reader: 100, anonymous: 100, token: 1 } });
    try {
      const ask = () => tokenRequest(limited.app, { grant_type: 'client_credentials' }, {}, '10.9.8.7');
      expect((await ask()).statusCode).toBe(401);
      const res = await ask();
      expect(res.statusCode).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.json()).toEqual({
        error: 'temporarily_unavailable',
        error_description: expect.stringMatching(/^rate limit of 1 requests a minute exceeded/),
        code: 'rate_limited',
      });
    } finally {
      await limited.close();
    }
  });

  it('keeps the house envelope on every other route', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/media/v1/oauth/jwks' });
    expect(res.statusCode).toBe(400);
    // The JWKS takes the media from media_id too (the jwks_uri of the authorization server metadata).
    expect(res.json()).toEqual({ error: 'the x-service-media-id header (or the media_id query parameter) is required', code: 'missing_media_id' });
  });
});

describe('OpenAPI', () => {
  it('documents an optional form body (JSON accepted too), the RFC 6749 errors and an answer with an optional refresh token', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const operation = doc.paths['/api/media/v1/oauth/token'].post;
    expect(Object.keys(operation.requestBody.content)).toEqual(['application/x-www-form-urlencoded', 'application/json']);
    // The parameters may come in the query string alone.
    expect(operation.requestBody.required).toBe(false);
    expect(doc.paths['/core/v2/oauth/clients'].post.requestBody.required).toBe(true);
    expect(operation.requestBody.content['application/x-www-form-urlencoded'].example).toMatchObject({
      grant_type: 'client_credentials',
      scope: 'media:read',
    });
    const form = operation.requestBody.content['application/x-www-form-urlencoded'].schema;
    const properties = form.properties ?? doc.components.schemas[form.$ref?.split('/').pop()]?.properties;
    expect(Object.keys(properties)).toEqual(
      expect.arrayContaining(['grant_type', 'grand_type', 'client_id', 'client_secret', 'scope', 'code', 'redirect_uri', 'refresh_token']),
    );
    expect(operation.parameters.filter((p: { in: string }) => p.in === 'query').map((p: { name: string }) => p.name)).toContain(
      'grant_type',
    );
    for (const status of ['400', '401', '429', '502']) {
      expect(operation.responses[status].content['application/json'].schema, status).toEqual({ $ref: '#/components/schemas/TokenError' });
    }
    const error = doc.components.schemas.TokenError;
    expect(error.required).toEqual(expect.arrayContaining(['error', 'error_description', 'code']));
    expect(error.properties.error.enum).toEqual(expect.arrayContaining(['invalid_request', 'invalid_client', 'invalid_grant']));
    const answer = operation.responses['200'].content['application/json'].schema;
    const tokenResponse = answer.$ref ? doc.components.schemas[answer.$ref.split('/').pop()] : answer;
    expect(tokenResponse.required).not.toContain('refresh_token');
    // Every other route keeps the house envelope.
    expect(doc.paths['/api/media/v1/oauth/jwks'].get.responses['400'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Error',
    });
  });
});
