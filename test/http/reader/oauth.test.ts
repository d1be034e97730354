import { createHash, randomUUID } from 'node:crypto';
import { SignJWT, base64url, decodeJwt, decodeProtectedHeader } from 'jose';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACT_PATHS } from '../../../src/plugins/request-log.js';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { withAuditRefused } from '../../setup/audit.js';
import { type SeededMedia, client, createCategory, seedMedia } from '../../setup/factories.js';
import { type JwksTestProvider, type OidcTestProvider, startJwksProvider, startOidcProvider } from '../../setup/identity-providers.js';
import { clientToken, legacyRefreshToken, readerClient, registerClient, registerProvider, tokenRequest } from '../../setup/reader.js';

let ctx: TestContext;
let media: SeededMedia;
let other: SeededMedia;
let oidc: OidcTestProvider;
let jwks: JwksTestProvider;
let oidcProviderId: string;
let jwksProviderId: string;
let creds: { clientId: string; clientSecret: string };
/** A front end's registration: no secret, as in the spec's authorization-code request. */
let spa: { clientId: string };

beforeAll(async () => {
  // Generous limits here; the token endpoint's own limit is tested below.
  ctx = await createTestApp({ rateLimit: { backoffice: 10_000, reader: 10_000, anonymous: 10_000, token: 10_000 } });
  media = await seedMedia(ctx.app);
  other = await seedMedia(ctx.app);
  oidc = await startOidcProvider();
  jwks = await startJwksProvider();
  oidcProviderId = await registerProvider(ctx.app, media.keys.admin, oidc.registration);
  jwksProviderId = await registerProvider(ctx.app, media.keys.admin, jwks.registration);
  creds = await registerClient(ctx.app, media.keys.admin);
  spa = await registerClient(ctx.app, media.keys.admin, ['media:read', 'account:read', 'account:write'], 'public');
  await createCategory(client(ctx.app, media.keys.editor));
});
afterAll(async () => {
  await ctx?.close();
  await oidc?.close();
  await jwks?.close();
});

const categories = '/api/media/v1/categories';

describe('client credentials', () => {
  it('issues a signed ES256 JWT with kid, issuer, audience, media, scope, exp and jti that works on Reader routes', async () => {
    const res = await tokenRequest(ctx.app, {
      grand_type: 'client_credentials',
      client_id: creds.clientId,
      client_secret: creds.clientSecret,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 900, scope: 'media:read account:read account:write' });
    // RFC 6749 4.4.3: client credentials answer no refresh token.
    expect(body).not.toHaveProperty('refresh_token');
    const header = decodeProtectedHeader(body.access_token);
    expect(header).toMatchObject({ alg: 'ES256', typ: 'at+jwt' });
    expect(header.kid).toMatch(/^[0-9a-f-]{36}$/);
    const claims = decodeJwt(body.access_token);
    expect(claims).toMatchObject({
      iss: 'urn:media-publishing-service',
      aud: `urn:media-publishing-service:media:${media.mediaId}`,
      media: media.mediaId,
      sub: `client:${creds.clientId}`,
      scope: 'media:read account:read account:write',
    });
    expect(claims.exp! - claims.iat!).toBe(900);
    expect(claims.jti).toBeTruthy();

    const list = await readerClient(ctx.app, media.mediaId, body.access_token).get(categories);
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toHaveLength(1);
    expect(list.json().meta.base).toMatch(/^http:\/\/localhost(:\d+)?\/api\/media\/v1\/categories$/);
  });

  it('accepts a form body and HTTP Basic client authentication (RFC 6749)', async () => {
    const form = await ctx.app.inject({
      method: 'POST',
      url: '/api/media/v1/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: creds.clientId,
        client_secret: creds.clientSecret,
        scope: 'media:read',
      }).toString(),
    });
    expect(form.statusCode).toBe(200);
    expect(form.json().scope).toBe('media:read');

    const basic = await ctx.app.inject({
      method: 'POST',
      url: '/api/media/v1/oauth/token',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${creds.clientId}:${creds.clientSecret}`).toString('base64')}`,
      },
      payload: 'grant_type=client_credentials',
    });
    expect(basic.statusCode).toBe(200);
  });

  it('answers invalid_client 401 for a wrong secret, an unknown client or another media, and invalid_scope 400', async () => {
    const wrong = await tokenRequest(ctx.app, { grant_type: 'client_credentials', client_id: creds.clientId, client_secret: 'nope' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ code: 'invalid_client' });
    const unknown = await tokenRequest(ctx.app, {
      grant_type: 'client_credentials',
      client_id: randomUUID(),
      client_secret: creds.clientSecret,
    });
    expect(unknown.statusCode).toBe(401);
    const elsewhere = await tokenRequest(
      ctx.app,
      { grant_type: 'client_credentials', client_id: creds.clientId, client_secret: creds.clientSecret },
      { 'x-service-media-id': other.mediaId },
    );
    expect(elsewhere.statusCode).toBe(401);
    const scope = await tokenRequest(ctx.app, {
      grant_type: 'client_credentials',
      client_id: creds.clientId,
      client_secret: creds.clientSecret,
      scope: 'media:read admin',
    });
    expect(scope.statusCode).toBe(400);
    expect(scope.json().code).toBe('invalid_scope');
  });

  it('answers unsupported_grant_type, invalid_request for a missing or contradictory grant type', async () => {
    expect((await tokenRequest(ctx.app, { grant_type: 'password' })).json().code).toBe('unsupported_grant_type');
    expect((await tokenRequest(ctx.app, {})).json().code).toBe('invalid_request');
    const both = await tokenRequest(ctx.app, { grant_type: 'client_credentials', grand_type: 'refresh_token' });
    expect(both.statusCode).toBe(400);
    expect(both.json().code).toBe('invalid_request');
  });

  it('refuses a token of one media on another media (401)', async () => {
    const { access_token } = await clientToken(ctx.app, creds);
    const res = await readerClient(ctx.app, other.mediaId, access_token).get(categories);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('invalid_token');
  });

  it('answers 403 insufficient_scope when the token lacks the route scope', async () => {
    const { access_token } = await clientToken(ctx.app, creds, 'account:read');
    const res = await readerClient(ctx.app, media.mediaId, access_token).get(categories);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('insufficient_scope');
  });

  it('stops accepting the tokens of a revoked client', async () => {
    const own = await registerClient(ctx.app, media.keys.admin);
    const { access_token } = await clientToken(ctx.app, own);
    const refresh_token = await legacyRefreshToken(ctx.database, { ...own, mediaId: media.mediaId });
    expect((await readerClient(ctx.app, media.mediaId, access_token).get(categories)).statusCode).toBe(200);
    expect((await client(ctx.app, media.keys.admin).delete(`/core/v2/oauth/clients/${own.clientId}`)).statusCode).toBe(204);
    expect((await readerClient(ctx.app, media.mediaId, access_token).get(categories)).statusCode).toBe(401);
    const refresh = await tokenRequest(ctx.app, {
      grant_type: 'refresh_token',
      refresh_token,
      client_id: own.clientId,
      client_secret: own.clientSecret,
    });
    expect(refresh.statusCode).toBe(401);
  });

  it('keeps a client whose revocation cannot be audited, its tokens with it: one transaction', async () => {
    const own = await registerClient(ctx.app, media.keys.admin);
    const { access_token } = await clientToken(ctx.app, own);
    const refresh_token = await legacyRefreshToken(ctx.database, { ...own, mediaId: media.mediaId });
    await withAuditRefused(ctx.database.db, 'deleteOAuthClient', async () => {
      expect((await client(ctx.app, media.keys.admin).delete(`/core/v2/oauth/clients/${own.clientId}`)).statusCode).toBe(500);
    });
    expect((await readerClient(ctx.app, media.mediaId, access_token).get(categories)).statusCode).toBe(200);
    const refresh = await tokenRequest(ctx.app, { grant_type: 'refresh_token', refresh_token, client_id: own.clientId, client_secret: own.clientSecret });
    expect(refresh.statusCode, refresh.body).toBe(200);
  });
});

// Our own refresh tokens, as client credentials issued them before they followed RFC 6749 4.4.3.
describe('refresh tokens', () => {
  const issued = async () => ({
    ...(await clientToken(ctx.app, creds)),
    refresh_token: await legacyRefreshToken(ctx.database, { ...creds, mediaId: media.mediaId }),
  });

  it('rotate: a refresh token works once and answers a new pair', async () => {
    const first = await issued();
    const res = await tokenRequest(ctx.app, {
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
      client_id: creds.clientId,
      client_secret: creds.clientSecret,
    });
    expect(res.statusCode).toBe(200);
    const second = res.json();
    expect(second.refresh_token).toMatch(/^mpr_/);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.access_token).not.toBe(first.access_token);
    expect((await readerClient(ctx.app, media.mediaId, second.access_token).get(categories)).statusCode).toBe(200);
  });

  it('reuse of a rotated token revokes its whole family', async () => {
    const first = await issued();
    const params = { grant_type: 'refresh_token', client_id: creds.clientId, client_secret: creds.clientSecret };
    const second = (await tokenRequest(ctx.app, { ...params, refresh_token: first.refresh_token })).json();
    const replay = await tokenRequest(ctx.app, { ...params, refresh_token: first.refresh_token });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().code).toBe('invalid_grant');
    // The thief's replay also killed the legitimate holder's newer token.
    const next = await tokenRequest(ctx.app, { ...params, refresh_token: second.refresh_token });
    expect(next.statusCode).toBe(400);
    expect(next.json().code).toBe('invalid_grant');
  });

  it('a reuse racing the legitimate refresh still revokes the successor it raced', async () => {
    const params = { grant_type: 'refresh_token', client_id: creds.clientId, client_secret: creds.clientSecret };
    for (let trial = 0; trial < 5; trial++) {
      const first = await issued();
      const answers = await Promise.all([
        tokenRequest(ctx.app, { ...params, refresh_token: first.refresh_token }),
        tokenRequest(ctx.app, { ...params, refresh_token: first.refresh_token }),
      ]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
      const winner = answers.find((a) => a.statusCode === 200)!.json();
      const next = await tokenRequest(ctx.app, { ...params, refresh_token: winner.refresh_token });
      expect(next.statusCode).toBe(400);
      expect(next.json().code).toBe('invalid_grant');
    }
  });

  it('refuses an unknown refresh token and one presented by another client', async () => {
    const params = { grant_type: 'refresh_token', client_id: creds.clientId, client_secret: creds.clientSecret };
    expect((await tokenRequest(ctx.app, { ...params, refresh_token: 'mpr_forged' })).json().code).toBe('invalid_grant');
    const mine = await issued();
    const thief = await registerClient(ctx.app, media.keys.admin);
    const stolen = await tokenRequest(ctx.app, {
      grant_type: 'refresh_token',
      refresh_token: mine.refresh_token,
      client_id: thief.clientId,
      client_secret: thief.clientSecret,
    });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json().code).toBe('invalid_grant');
  });
});

describe('authorization code with a real OpenID provider', () => {
  it('exchanges the code at the provider, returns its tokens unchanged, and accepts its access token', async () => {
    const { code } = await oidc.authorize('alice');
    // Exactly the spec's request: a public client sends no secret.
    const res = await tokenRequest(ctx.app, {
      client_id: spa.clientId,
      code,
      redirect_uri: oidc.redirectUri,
      oauth_provider_id: oidcProviderId,
      grand_type: 'authorization_code',
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.token_type).toBe('Bearer');
    expect(body.access_token).toBeTruthy();
    expect(body.refresh_token).toBeTruthy();
    expect(body.expires_in).toBeGreaterThan(0);
    expect(body.scope).toContain('openid');

    // The same token works against the provider itself ...
    const me = await fetch(`${oidc.issuer}/me`, { headers: { authorization: `Bearer ${body.access_token}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { sub: string }).sub).toBe('alice');
    // ... and against the service.
    const list = await readerClient(ctx.app, media.mediaId, body.access_token).get(categories);
    expect(list.statusCode).toBe(200);

    // The provider's refresh token is exchanged at the provider.
    const refreshed = await tokenRequest(ctx.app, {
      grant_type: 'refresh_token',
      refresh_token: body.refresh_token,
      client_id: spa.clientId,
      oauth_provider_id: oidcProviderId,
    });
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.json().access_token).not.toBe(body.access_token);
  });

  it('answers invalid_grant for a forged code and for a replayed code', async () => {
    const params = {
      client_id: creds.clientId,
      client_secret: creds.clientSecret,
      redirect_uri: oidc.redirectUri,
      oauth_provider_id: oidcProviderId,
      grant_type: 'authorization_code',
    };
    const forged = await tokenRequest(ctx.app, { ...params, code: 'forged-code' });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().code).toBe('invalid_grant');

    const { code } = await oidc.authorize('bob');
    expect((await tokenRequest(ctx.app, { ...params, code })).statusCode).toBe(200);
    const replay = await tokenRequest(ctx.app, { ...params, code });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().code).toBe('invalid_grant');
  });

  it('answers invalid_grant for a redirect_uri mismatch and invalid_request for an unknown provider', async () => {
    const { code } = await oidc.authorize('carol');
    const mismatch = await tokenRequest(ctx.app, {
      client_id: spa.clientId,
      code,
      redirect_uri: 'http://127.0.0.1:9/elsewhere',
      oauth_provider_id: oidcProviderId,
      grant_type: 'authorization_code',
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().code).toBe('invalid_grant');

    const unknown = await tokenRequest(ctx.app, {
      client_id: spa.clientId,
      code,
      redirect_uri: oidc.redirectUri,
      oauth_provider_id: randomUUID(),
      grant_type: 'authorization_code',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().code).toBe('invalid_request');
  });

  it('answers 502 provider_unavailable when the provider answers something that is not an OAuth object', async () => {
    const { createServer } = await import('node:http');
    const odd = createServer((_req, res) => res.writeHead(400, { 'content-type': 'application/json' }).end('null'));
    await new Promise<void>((resolve) => odd.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(odd.address() as { port: number }).port}`;
    try {
      const id = await registerProvider(ctx.app, media.keys.admin, {
        name: 'Odd provider',
        issuer: base,
        authorization_endpoint: `${base}/auth`,
        token_endpoint: `${base}/token`,
        jwks_uri: `${base}/jwks`,
        client_id: 'odd',
        client_secret: 'odd-secret',
      });
      const res = await tokenRequest(ctx.app, {
        grant_type: 'authorization_code',
        client_id: creds.clientId,
        client_secret: creds.clientSecret,
        code: 'whatever',
        redirect_uri: 'http://127.0.0.1:9/cb',
        oauth_provider_id: id,
      });
      expect(res.statusCode).toBe(502);
      expect(res.json().code).toBe('provider_unavailable');
    } finally {
      odd.closeAllConnections();
      await new Promise((resolve) => odd.close(resolve));
    }
  });

  it('requires a confidential client to authenticate and keeps public clients to the code flow', async () => {
    const { code } = await oidc.authorize('ivan');
    const base = { code, redirect_uri: oidc.redirectUri, oauth_provider_id: oidcProviderId, grant_type: 'authorization_code' };
    const unauthenticated = await tokenRequest(ctx.app, { ...base, client_id: creds.clientId });
    expect(unauthenticated.statusCode).toBe(401);
    expect(unauthenticated.json().code).toBe('invalid_client');
    const publicWithSecret = await tokenRequest(ctx.app, { ...base, client_id: spa.clientId, client_secret: 'anything' });
    expect(publicWithSecret.statusCode).toBe(401);
    const publicCredentials = await tokenRequest(ctx.app, { grant_type: 'client_credentials', client_id: spa.clientId });
    expect(publicCredentials.statusCode).toBe(400);
    expect(publicCredentials.json().code).toBe('unauthorized_client');
    // A PKCE verifier is passed on to the provider, which checks it against the challenge.
    const verifier = 'a-long-enough-pkce-code-verifier-0123456789-abcdefghij';
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const pkce = await oidc.authorize('ivan', { code_challenge: challenge, code_challenge_method: 'S256' });
    const wrongVerifier = await tokenRequest(ctx.app, {
      ...base,
      code: pkce.code,
      client_id: spa.clientId,
      code_verifier: `${verifier}-wrong`,
    });
    expect(wrongVerifier.statusCode).toBe(400);
    expect(wrongVerifier.json().code).toBe('invalid_grant');
    const pkce2 = await oidc.authorize('ivan', { code_challenge: challenge, code_challenge_method: 'S256' });
    const right = await tokenRequest(ctx.app, { ...base, code: pkce2.code, client_id: spa.clientId, code_verifier: verifier });
    expect(right.statusCode).toBe(200);
  });

  it('answers invalid_client for an unknown client_id or a wrong client secret', async () => {
    const { code } = await oidc.authorize('dave');
    const base = { code, redirect_uri: oidc.redirectUri, oauth_provider_id: oidcProviderId, grant_type: 'authorization_code' };
    const unknown = await tokenRequest(ctx.app, { ...base, client_id: randomUUID() });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().code).toBe('invalid_client');
    const wrong = await tokenRequest(ctx.app, { ...base, client_id: creds.clientId, client_secret: 'wrong' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe('invalid_client');
  });

  it('stops accepting a provider\'s tokens, even ones already verified, once the provider is removed', async () => {
    const idp = await startJwksProvider();
    try {
      const id = await registerProvider(ctx.app, media.keys.admin, idp.registration);
      const token = await idp.mint({ sub: 'frank' });
      expect((await readerClient(ctx.app, media.mediaId, token).get(categories)).statusCode).toBe(200);
      expect((await client(ctx.app, media.keys.admin).delete(`/core/v2/oauth/providers/${id}`)).statusCode).toBe(204);
      const after = await readerClient(ctx.app, media.mediaId, token).get(categories);
      expect(after.statusCode).toBe(401);
      expect(after.json().code).toBe('invalid_token');
    } finally {
      await idp.close();
    }
  });

  it('accepts a provider token expired less than the 60 s skew ago', async () => {
    const token = await jwks.mint({ sub: 'gina' }, { expiresIn: Math.floor(Date.now() / 1000) - 20 });
    expect((await readerClient(ctx.app, media.mediaId, token).get(categories)).statusCode).toBe(200);
  });

  it('verifies provider JWT access tokens against its JWKS (issuer, audience, expiry)', async () => {
    const token = await jwks.mint({ sub: 'erin', email: 'erin@example.test' });
    expect((await readerClient(ctx.app, media.mediaId, token).get(categories)).statusCode).toBe(200);
    // A token of this provider is not valid for another media, which does not trust it.
    expect((await readerClient(ctx.app, other.mediaId, token).get(categories)).statusCode).toBe(401);
  });
});

describe('forged and broken tokens are 401', () => {
  const forgeries = async (): Promise<Array<[string, string]>> => {
    const own = await clientToken(ctx.app, creds);
    const [h, p] = own.access_token.split('.');
    const payload = decodeJwt(own.access_token);
    const now = Math.floor(Date.now() / 1000);
    const jwksRes = await ctx.app.inject({
      method: 'GET',
      url: '/api/media/v1/oauth/jwks',
      headers: { 'x-service-media-id': media.mediaId },
    });
    const publicJwk = jwksRes.json().keys[0];
    const none = `${base64url.encode(JSON.stringify({ alg: 'none', typ: 'at+jwt', kid: publicJwk.kid }))}.${p}.`;
    const hs256 = await new SignJWT(payload)
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: publicJwk.kid })
      .sign(new TextEncoder().encode(JSON.stringify(publicJwk)));
    return [
      ['alg none', none],
      ['HS256 signed with the public key', hs256],
      ['tampered payload', `${h}.${base64url.encode(JSON.stringify({ ...payload, scope: 'account:write' }))}.${own.access_token.split('.')[2]}`],
      ['wrong issuer', await jwks.mint({ sub: 'x' }).then(() => new SignJWT({ sub: 'x' }).setProtectedHeader({ alg: 'RS256', kid: 'test-key-1' }).setIssuer('http://evil.example').setAudience(jwks.audience).setExpirationTime('5m').sign(jwks.privateKey))],
      ['wrong audience', await new SignJWT({ sub: 'x' }).setProtectedHeader({ alg: 'RS256', kid: 'test-key-1' }).setIssuer(jwks.issuer).setAudience('someone-else').setExpirationTime('5m').sign(jwks.privateKey)],
      ['expired beyond the skew', await jwks.mint({ sub: 'x' }, { expiresIn: now - 120 })],
      ['not yet valid beyond the skew', await jwks.mint({ sub: 'x' }, { notBefore: now + 300 })],
      ['unknown kid', await jwks.mint({ sub: 'x' }, { kid: 'unknown-kid' })],
      ['garbage', 'not-a-token-at-all'],
      ['empty-ish', 'a.b.c'],
    ];
  };

  it('every Reader route that needs a token refuses each forgery with 401', async () => {
    const routes = ctx.app.routeTable.filter((r) => r.interface === 'reader');
    const guarded = routes.filter((r) => r.method !== 'POST' || !r.url.endsWith('/oauth/token'));
    expect(guarded.length).toBeGreaterThan(0);
    const cases = await forgeries();
    let checked = 0;
    for (const route of guarded) {
      const url = route.url.replace(/:(\w+)/g, () => randomUUID());
      for (const [name, token] of cases) {
        const res = await ctx.app.inject({
          method: route.method as 'GET',
          url,
          headers: { 'x-service-media-id': media.mediaId, authorization: `Bearer ${token}` },
        });
        const open = res.statusCode !== 401;
        // Anonymous routes (JWKS, provider list) ignore tokens altogether.
        if (open) {
          const config = ctx.app.routeTable.find((r) => r.url === route.url && r.method === route.method);
          expect(config, `${route.method} ${route.url}`).toBeDefined();
          expect(route.anonymous, `${name} on ${route.method} ${route.url} answered ${res.statusCode}`).toBe(true);
        } else {
          expect(res.json().code, `${name} on ${route.method} ${route.url}`).toBe('invalid_token');
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('a missing or malformed Authorization header is 401, a missing or bad media header 400, an unknown media 404', async () => {
    const { access_token } = await clientToken(ctx.app, creds);
    const none = await ctx.app.inject({ method: 'GET', url: categories, headers: { 'x-service-media-id': media.mediaId } });
    expect(none.statusCode).toBe(401);
    expect(none.json().code).toBe('missing_token');
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    const basic = await ctx.app.inject({
      method: 'GET',
      url: categories,
      headers: { 'x-service-media-id': media.mediaId, authorization: `Basic ${access_token}` },
    });
    expect(basic.statusCode).toBe(401);
    const noMedia = await ctx.app.inject({ method: 'GET', url: categories, headers: { authorization: `Bearer ${access_token}` } });
    expect(noMedia.statusCode).toBe(400);
    expect(noMedia.json().code).toBe('missing_media_id');
    const badMedia = await readerClient(ctx.app, 'not-a-uuid', access_token).get(categories);
    expect(badMedia.statusCode).toBe(400);
    expect(badMedia.json().code).toBe('invalid_media_id');
    const unknownMedia = await readerClient(ctx.app, randomUUID(), access_token).get(categories);
    expect(unknownMedia.statusCode).toBe(404);
    expect(unknownMedia.json().code).toBe('media_not_found');
  });
});

describe('signing key rotation', () => {
  it('a rotated key keeps verifying live tokens while new tokens use the new kid; both are in the JWKS', async () => {
    const before = await clientToken(ctx.app, creds);
    const oldKid = decodeProtectedHeader(before.access_token).kid;
    const rotated = await client(ctx.app, media.keys.admin).post('/core/v2/oauth/signing-keys/rotate');
    expect(rotated.statusCode).toBe(200);
    const keys = rotated.json().data;
    expect(keys[0].active).toBe(true);
    expect(keys[0].kid).not.toBe(oldKid);
    expect(keys.find((k: { kid: string }) => k.kid === oldKid).retire_at).not.toBeNull();

    const after = await clientToken(ctx.app, creds);
    expect(decodeProtectedHeader(after.access_token).kid).toBe(keys[0].kid);
    expect((await readerClient(ctx.app, media.mediaId, before.access_token).get(categories)).statusCode).toBe(200);
    expect((await readerClient(ctx.app, media.mediaId, after.access_token).get(categories)).statusCode).toBe(200);

    const published = await ctx.app.inject({
      method: 'GET',
      url: '/api/media/v1/oauth/jwks',
      headers: { 'x-service-media-id': media.mediaId },
    });
    expect(published.headers.vary).toBe('x-service-media-id');
    const kids = published.json().keys.map((k: { kid: string }) => k.kid);
    expect(kids).toEqual(expect.arrayContaining([oldKid, keys[0].kid]));
    expect(JSON.stringify(published.json())).not.toMatch(/"d":/);
  });

  it('keeps the signer when the rotation cannot be audited: one transaction', async () => {
    const admin = client(ctx.app, media.keys.admin);
    const before = (await admin.get('/core/v2/oauth/signing-keys')).json().data as Array<{ kid: string }>;
    await withAuditRefused(ctx.database.db, 'rotateOAuthSigningKey', async () => {
      expect((await admin.post('/core/v2/oauth/signing-keys/rotate')).statusCode).toBe(500);
    });
    expect((await admin.get('/core/v2/oauth/signing-keys')).json().data).toEqual(before);
    expect(decodeProtectedHeader((await clientToken(ctx.app, creds)).access_token).kid).toBe(before[0]!.kid);
  });
});

describe('OAuth providers list', () => {
  it('lists the media providers without secrets and without a token', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/media/v1/oauth/providers',
      headers: { 'x-service-media-id': media.mediaId },
    });
    expect(res.statusCode).toBe(200);
    const ids = res.json().data.map((p: { id: string }) => p.id);
    expect(ids).toEqual(expect.arrayContaining([oidcProviderId, jwksProviderId]));
    expect(res.body).not.toContain(oidc.clientSecret);
    expect(res.body).not.toContain('client_secret');
  });
});

describe('anonymous Reader routes rate limit', () => {
  it('counts JWKS and provider-list calls per IP at the anonymous rate', async () => {
    const limited = await createTestApp({ rateLimit: { backoffice: 100, reader: 100, anonymous: 2, token: 100 } });
    try {
      const seeded = await seedMedia(limited.app);
      const ask = (remoteAddress: string) =>
        limited.app.inject({
          method: 'GET',
          url: '/api/media/v1/oauth/jwks',
          headers: { 'x-service-media-id': seeded.mediaId },
          remoteAddress,
        });
      expect((await ask('10.1.1.1')).statusCode).toBe(200);
      expect((await ask('10.1.1.1')).statusCode).toBe(200);
      const third = await ask('10.1.1.1');
      expect(third.statusCode).toBe(429);
      expect(third.headers['ratelimit-limit']).toBe('2');
      expect((await ask('10.1.1.2')).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('token endpoint rate limit', () => {
  it('counts per client and IP, answering 429 with Retry-After past the limit', async () => {
    const limited = await createTestApp({ rateLimit: { backoffice: 100, reader: 100, anonymous: 100, token: 2 } });
    try {
      const seeded = await seedMedia(limited.app);
      const a = await registerClient(limited.app, seeded.keys.admin);
      const b = await registerClient(limited.app, seeded.keys.admin);
      const ask = (c: typeof a) =>
        tokenRequest(limited.app, { grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret });
      expect((await ask(a)).statusCode).toBe(200);
      expect((await ask(a)).statusCode).toBe(200);
      const third = await ask(a);
      expect(third.statusCode).toBe(429);
      expect(third.json().code).toBe('rate_limited');
      expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
      expect((await ask(b)).statusCode).toBe(200);

      // Client ids nobody registered all count against their IP's one bucket...
      const stranger = () =>
        tokenRequest(limited.app, { grant_type: 'client_credentials', client_id: randomUUID(), client_secret: 'x' }, {}, '10.3.3.3');
      expect((await stranger()).statusCode).toBe(401);
      expect((await stranger()).statusCode).toBe(401);
      expect((await stranger()).statusCode).toBe(429);
      // ... and a client named in HTTP Basic is counted as that client.
      const basic = () =>
        limited.app.inject({
          method: 'POST',
          url: '/api/media/v1/oauth/token?grant_type=client_credentials',
          headers: { authorization: `Basic ${Buffer.from(`${b.clientId}:${b.clientSecret}`).toString('base64')}` },
        });
      expect((await basic()).statusCode).toBe(200);
      expect((await basic()).statusCode).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe('failed authentication throttle', () => {
  it('refuses an address with 429 once it has failed too often in a minute, valid credentials included', async () => {
    const limited = await createTestApp({ authFailureLimit: 3 });
    try {
      const seeded = await seedMedia(limited.app);
      const from = (remoteAddress: string, key: string) =>
        limited.app.inject({ method: 'GET', url: '/core/v2/media', headers: { 'x-api-key': key }, remoteAddress });
      for (let i = 0; i < 3; i++) expect((await from('10.4.4.4', `mps_wrong_${i}`)).statusCode).toBe(401);
      const blocked = await from('10.4.4.4', seeded.keys.admin);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().code).toBe('rate_limited');
      expect(blocked.headers['retry-after']).toBe('60');
      expect((await from('10.4.4.5', seeded.keys.admin)).statusCode).toBe(200);

      // Reader bearer failures count the same way.
      const bearer = (token: string) =>
        limited.app.inject({
          method: 'GET',
          url: categories,
          headers: { 'x-service-media-id': seeded.mediaId, authorization: `Bearer ${token}` },
          remoteAddress: '10.4.4.6',
        });
      for (let i = 0; i < 3; i++) expect((await bearer(`garbage-${i}`)).statusCode).toBe(401);
      expect((await bearer('garbage-again')).statusCode).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe('OpenAPI and logs', () => {
  it('documents the scopes in the bearer security scheme and each Reader operation', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(doc.components.securitySchemes.bearer.flows.clientCredentials.scopes)).toEqual([
      'media:read',
      'account:read',
      'account:write',
      'mailer:send',
    ]);
    expect(doc.paths['/api/media/v1/mailer/send'].post.security).toEqual([{ bearer: ['mailer:send'] }]);
    expect(doc.paths['/api/media/v1/categories'].get.security).toEqual([{ bearer: ['media:read'] }]);
    expect(doc.paths['/api/media/v1/accounts/me/profile'].patch.security).toEqual([{ bearer: ['account:write'] }]);
    expect(doc.paths['/api/media/v1/oauth/token'].post.security).toEqual([]);
    const header = (op: { parameters: Array<{ in: string; name: string; required: boolean }> }) =>
      op.parameters.find((p) => p.in === 'header' && p.name === 'x-service-media-id');
    expect(header(doc.paths['/api/media/v1/categories'].get)?.required).toBe(true);
    expect(header(doc.paths['/api/media/v1/oauth/token'].post)?.required).toBe(false);
  });

  it('never writes codes, secrets or tokens of the token endpoint to the log', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info', redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, { write: (l: string) => lines.push(l) });
    const logged = await createTestApp({ rateLimit: { backoffice: 1000, reader: 1000, anonymous: 1000, token: 1000 } }, { logger });
    try {
      const seeded = await seedMedia(logged.app);
      const own = await registerClient(logged.app, seeded.keys.admin);
      const issued = {
        ...(await clientToken(logged.app, own)),
        refresh_token: await legacyRefreshToken(logged.database, { ...own, mediaId: seeded.mediaId }),
      };
      await tokenRequest(logged.app, {
        grant_type: 'refresh_token',
        refresh_token: issued.refresh_token,
        client_id: own.clientId,
        client_secret: own.clientSecret,
      });
      await tokenRequest(logged.app, {
        grant_type: 'authorization_code',
        code: 'secret-authorization-code',
        client_id: own.clientId,
        redirect_uri: 'http://127.0.0.1:9/cb',
        oauth_provider_id: randomUUID(),
      });
      await readerClient(logged.app, seeded.mediaId, issued.access_token).get(categories);
      const text = lines.join('\n');
      expect(text).toContain('/api/media/v1/oauth/token');
      for (const secret of [own.clientSecret, issued.refresh_token, issued.access_token, 'secret-authorization-code', seeded.keys.admin]) {
        expect(text).not.toContain(secret);
      }
    } finally {
      await logged.close();
    }
  });
});

describe('opaque provider tokens', () => {
  it('are shown only to the provider that issued them: the one named in x-oauth-provider-id, or the only one', async () => {
    const { createServer } = await import('node:http');
    const seen: string[] = [];
    const snoop = createServer((req, res) => {
      seen.push(String(req.headers.authorization));
      res.writeHead(401).end();
    });
    await new Promise<void>((resolve) => snoop.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(snoop.address() as { port: number }).port}`;
    try {
      const own = await seedMedia(ctx.app);
      const oidcId = await registerProvider(ctx.app, own.keys.admin, oidc.registration);
      const owner = await registerClient(ctx.app, own.keys.admin);
      const { code } = await oidc.authorize('hank');
      const tokens = (
        await tokenRequest(ctx.app, {
          grant_type: 'authorization_code',
          code,
          client_id: owner.clientId,
          client_secret: owner.clientSecret,
          redirect_uri: oidc.redirectUri,
          oauth_provider_id: oidcId,
        })
      ).json();
      // One provider with a userinfo endpoint: no hint needed.
      expect((await readerClient(ctx.app, own.mediaId, tokens.access_token).get(categories)).statusCode).toBe(200);

      await registerProvider(ctx.app, own.keys.admin, {
        name: 'Another provider',
        issuer: base,
        authorization_endpoint: `${base}/auth`,
        token_endpoint: `${base}/token`,
        userinfo_endpoint: `${base}/me`,
        client_id: 'another',
        client_secret: 'another-secret',
      });
      const fresh = (
        await tokenRequest(ctx.app, {
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token,
          client_id: owner.clientId,
          client_secret: owner.clientSecret,
          oauth_provider_id: oidcId,
        })
      ).json().access_token as string;
      // Two candidates and no hint: refused, and the token went to nobody.
      const ambiguous = await readerClient(ctx.app, own.mediaId, fresh).get(categories);
      expect(ambiguous.statusCode).toBe(401);
      const hinted = await readerClient(ctx.app, own.mediaId, fresh).get(categories, { 'x-oauth-provider-id': oidcId });
      expect(hinted.statusCode).toBe(200);
      expect(seen).toEqual([]);

      // Removing the provider stops its tokens at once, cached answers included.
      expect((await client(ctx.app, own.keys.admin).delete(`/core/v2/oauth/providers/${oidcId}`)).statusCode).toBe(204);
      const after = await readerClient(ctx.app, own.mediaId, fresh).get(categories, { 'x-oauth-provider-id': oidcId });
      expect(after.statusCode).toBe(401);
    } finally {
      snoop.closeAllConnections();
      await new Promise((resolve) => snoop.close(resolve));
    }
  });
});

describe('JWT access tokens of a provider without a JWKS', () => {
  it('are checked at its userinfo endpoint, like opaque ones', async () => {
    const { createServer } = await import('node:http');
    let good = '';
    const idp = createServer((req, res) => {
      const ok = req.url === '/me' && req.headers.authorization === `Bearer ${good}`;
      res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' }).end(ok ? JSON.stringify({ sub: 'jill' }) : '{}');
    });
    await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(idp.address() as { port: number }).port}`;
    try {
      const own = await seedMedia(ctx.app);
      await registerProvider(ctx.app, own.keys.admin, {
        name: 'Userinfo-only provider',
        issuer: base,
        authorization_endpoint: `${base}/auth`,
        token_endpoint: `${base}/token`,
        userinfo_endpoint: `${base}/me`,
        client_id: 'ui',
        client_secret: 'ui-secret',
      });
      const sign = (sub: string) =>
        new SignJWT({ sub }).setProtectedHeader({ alg: 'HS256' }).setIssuer(base).setExpirationTime('5m').sign(new TextEncoder().encode('k'.repeat(32)));
      good = await sign('jill');
      const accepted = await readerClient(ctx.app, own.mediaId, good).get('/api/media/v1/oauth/userinfo');
      expect(accepted.statusCode).toBe(200);
      expect(accepted.json().data.sub).toBe('jill');
      const refused = await readerClient(ctx.app, own.mediaId, await sign('mallory')).get(categories);
      expect(refused.statusCode).toBe(401);
    } finally {
      idp.closeAllConnections();
      await new Promise((resolve) => idp.close(resolve));
    }
  });
});
