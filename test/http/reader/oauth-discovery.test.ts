import { randomUUID } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audienceFor } from '../../../src/modules/oauth/index.js';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { expectError } from '../../setup/expect.js';
import { type SeededMedia, seedMedia } from '../../setup/factories.js';
import { freePort } from '../../setup/processes.js';
import { clientToken, registerClient } from '../../setup/reader.js';

// RFC 8414 authorization server metadata, read by a standard OAuth client library (oauth4webapi)
// over real HTTP, and a client credentials grant made with what it discovered.

let ctx: TestContext;
let media: SeededMedia;
let other: SeededMedia;
let base: string;
let issuer: URL;
let confidential: { clientId: string; clientSecret: string };
const insecure = { [oauth.allowInsecureRequests]: true } as const;
const WELL_KNOWN = '/.well-known/oauth-authorization-server/api/media/v1';

beforeAll(async () => {
  // The issuer is PUBLIC_BASE_URL's: the address this test serves on, known before the app is built.
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  ctx = await createTestApp({ publicBaseUrl: base, rateLimit: { backoffice: 10_000, reader: 10_000, anonymous: 10_000, token: 10_000 } });
  await ctx.app.listen({ port, host: '127.0.0.1' });
  issuer = new URL(`${base}/api/media/v1`);
  media = await seedMedia(ctx.app);
  other = await seedMedia(ctx.app);
  confidential = await registerClient(ctx.app, media.keys.admin, ['media:read', 'account:read']);
});
afterAll(() => ctx?.close());

/** The metadata as oauth4webapi discovers it for a media (the media named in its header). */
async function discover(mediaId: string) {
  const response = await oauth.discoveryRequest(issuer, {
    algorithm: 'oauth2',
    headers: new Headers({ 'x-service-media-id': mediaId }),
    ...insecure,
  });
  expect(new URL(response.url).pathname).toBe(WELL_KNOWN);
  return { response, as: await oauth.processDiscoveryResponse(issuer, response) };
}

describe('GET /.well-known/oauth-authorization-server/api/media/v1', () => {
  it("is at the issuer's RFC 8414 path, and oauth4webapi accepts it: issuer, endpoints, grants, scopes", async () => {
    const { response, as } = await discover(media.mediaId);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('vary')).toContain('x-service-media-id');
    expect(as).toEqual({
      issuer: `${base}/api/media/v1`,
      token_endpoint: `${base}/api/media/v1/oauth/token`,
      jwks_uri: `${base}/api/media/v1/oauth/jwks?media_id=${media.mediaId}`,
      scopes_supported: ['media:read', 'account:read', 'account:write', 'mailer:send'],
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'client_credentials', 'refresh_token'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      service_documentation: `${base}/docs`,
    });
  });

  it('configures a client credentials grant whose token has the issuer as iss and verifies with the discovered JWKS', async () => {
    const { as } = await discover(media.mediaId);
    const client: oauth.Client = { client_id: confidential.clientId };
    const response = await oauth.clientCredentialsGrantRequest(as, client, oauth.ClientSecretBasic(confidential.clientSecret), { scope: 'media:read' }, insecure);
    const tokens = await oauth.processClientCredentialsResponse(as, client, response);
    expect(tokens.scope).toBe('media:read');
    expect(decodeJwt(tokens.access_token).iss).toBe(as.issuer);

    // A resource server's check (RFC 9068): iss, aud and the signature, against the jwks_uri as
    // discovered (the library sends no media header there).
    const request = new Request(`${base}/api/media/v1/categories`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    const claims = await oauth.validateJwtAccessToken(as, request, audienceFor(media.mediaId), insecure);
    expect(claims).toMatchObject({ iss: as.issuer, aud: audienceFor(media.mediaId), client_id: confidential.clientId, sub: `client:${confidential.clientId}` });

    const categories = await fetch(request, { headers: { authorization: `Bearer ${tokens.access_token}`, 'x-service-media-id': media.mediaId } });
    expect(categories.status).toBe(200);
  });

  it("is per media: each names its own JWKS, as x-service-media-id or media_id names the media", async () => {
    const ours = (await ctx.app.inject({ method: 'GET', url: `${WELL_KNOWN}?media_id=${media.mediaId}` })).json();
    const theirs = (await ctx.app.inject({ method: 'GET', url: WELL_KNOWN, headers: { 'x-service-media-id': other.mediaId } })).json();
    expect(ours.jwks_uri).toBe(`${base}/api/media/v1/oauth/jwks?media_id=${media.mediaId}`);
    expect(theirs.jwks_uri).toBe(`${base}/api/media/v1/oauth/jwks?media_id=${other.mediaId}`);
    expect(theirs.issuer).toBe(ours.issuer);

    // The JWKS answers by media_id as by the header: the keys that sign the media's tokens.
    await clientToken(ctx.app, confidential);
    const byQuery = await ctx.app.inject({ method: 'GET', url: new URL(ours.jwks_uri).pathname + new URL(ours.jwks_uri).search });
    const byHeader = await ctx.app.inject({ method: 'GET', url: '/api/media/v1/oauth/jwks', headers: { 'x-service-media-id': media.mediaId } });
    expect(byQuery.statusCode).toBe(200);
    expect(byQuery.json().keys.length).toBeGreaterThan(0);
    expect(byQuery.json()).toEqual(byHeader.json());
    const otherKeys = (await ctx.app.inject({ method: 'GET', url: `/api/media/v1/oauth/jwks?media_id=${other.mediaId}` })).json().keys;
    expect(otherKeys.map((k: { kid: string }) => k.kid)).not.toEqual(expect.arrayContaining(byQuery.json().keys.map((k: { kid: string }) => k.kid)));
  });

  it('answers 400 without a media, 400 for a malformed one and 404 for an unknown one, as the JWKS does', async () => {
    for (const path of [WELL_KNOWN, '/api/media/v1/oauth/jwks']) {
      expectError(await ctx.app.inject({ method: 'GET', url: path }), 400, 'missing_media_id');
      expectError(await ctx.app.inject({ method: 'GET', url: `${path}?media_id=nope` }), 400, 'invalid_media_id');
      expectError(await ctx.app.inject({ method: 'GET', url: `${path}?media_id=${randomUUID()}` }), 404, 'media_not_found');
    }
  });

  it('is in the OpenAPI document, anonymous, with the metadata schema', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const op = doc.paths[WELL_KNOWN].get;
    expect(op.operationId).toBe('readerOAuthServerMetadata');
    expect(op.security).toEqual([]);
    expect(op.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual(
      expect.arrayContaining(['query:media_id', 'header:x-service-media-id']),
    );
    const schema = doc.components.schemas.OAuthAuthorizationServerMetadata;
    expect(Object.keys(schema.properties).sort()).toEqual([
      'grant_types_supported', 'issuer', 'jwks_uri', 'response_types_supported', 'scopes_supported', 'service_documentation',
      'token_endpoint', 'token_endpoint_auth_methods_supported',
    ]);
    expect(doc.paths['/api/media/v1/oauth/jwks'].get.parameters.map((p: { name: string }) => p.name)).toContain('media_id');
  });
});

describe('without PUBLIC_BASE_URL', () => {
  let plain: TestContext;
  beforeAll(async () => {
    plain = await createTestApp();
  });
  afterAll(() => plain?.close());

  it("names the tokens' own issuer (a URN) and builds the endpoints from the request's host", async () => {
    const own = await seedMedia(plain.app);
    const res = await plain.app.inject({ method: 'GET', url: WELL_KNOWN, headers: { host: 'reader.example.test', 'x-service-media-id': own.mediaId } });
    expect(res.statusCode).toBe(200);
    const metadata = res.json();
    const token = await clientToken(plain.app, await registerClient(plain.app, own.keys.admin, ['media:read']));
    expect(metadata.issuer).toBe(decodeJwt(token.access_token).iss);
    expect(metadata.issuer).toBe('urn:media-publishing-service');
    expect(metadata.token_endpoint).toBe('http://reader.example.test/api/media/v1/oauth/token');
    expect(metadata.jwks_uri).toBe(`http://reader.example.test/api/media/v1/oauth/jwks?media_id=${own.mediaId}`);
  });
});
