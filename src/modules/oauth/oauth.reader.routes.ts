import formbody from '@fastify/formbody';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { route } from '../../shared/http/route.js';
import { toTokenError } from './oauth.errors.js';
import { toOAuthProviderSummary } from './oauth.mappers.js';
import { mediaIdQuery, oauthProviderSummarySchema, tokenBody, tokenErrorSchema, tokenParams, tokenResponseSchema } from './oauth.schemas.js';
import { oauthTags } from './oauth.tags.js';
import type { ClientsService } from './clients.service.js';
import type { ProvidersService } from './providers.service.js';
import type { SigningKeysService } from './signing-keys.service.js';
import type { TokensService } from './tokens.service.js';

export interface OAuthReaderDeps {
  tokens: TokensService;
  clients: ClientsService;
  keys: SigningKeysService;
  providers: ProvidersService;
  tokenRateLimit: number;
}

const jwksSchema = z
  .object({ keys: z.array(z.record(z.string(), z.unknown())) })
  .meta({ id: 'JWKS' });

/** The client_id a token request names: HTTP Basic, then the form or JSON body, then the query. */
function namedClient(req: FastifyRequest): string | undefined {
  const auth = req.headers.authorization;
  if (auth?.startsWith('Basic ')) {
    const decoded = Buffer.from(auth.slice(6), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0) return safeDecode(decoded.slice(0, colon));
  }
  for (const source of [req.body, req.query]) {
    const value = (source as { client_id?: unknown } | null | undefined)?.client_id;
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

const safeDecode = (value: string) => {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
};

/** /api/media/v1/oauth: the token endpoint, our JWKS and the sign-in providers. */
export const oauthReaderRoutes: FastifyPluginAsyncZod<{ oauth: OAuthReaderDeps }> = async (app, { oauth }) => {
  // RFC 6749 token requests are form-encoded; only this plugin's routes accept that.
  await app.register(formbody, { bodyLimit: 16 * 1024 });
  const tag = oauthTags.reader;

  route(app, {
    method: 'POST',
    url: '/token',
    operationId: 'readerOAuthToken',
    summary: 'Token endpoint (authorization code, client credentials, refresh token)',
    description:
      'Parameters as query string (as in the spec) or as an application/x-www-form-urlencoded body (RFC 6749; a JSON ' +
      'body is accepted too), the body being optional. `grand_type` (the spec\'s spelling) and `grant_type` are both ' +
      'accepted. Client credentials may also come as HTTP Basic; they answer no refresh token (RFC 6749 4.4.3). ' +
      'Authorization code: the provider\'s tokens are returned unchanged. Errors are RFC 6749 section 5.2 objects ' +
      '(`error`, `error_description`) that keep the service\'s `code`.',
    tag,
    access: { anonymous: true, mediaOptional: true },
    querystring: tokenParams,
    body: tokenBody,
    consumes: ['application/x-www-form-urlencoded', 'application/json'],
    response: { 200: tokenResponseSchema },
    errorFormat: { schema: tokenErrorSchema, format: toTokenError },
    // Every grant answers fresh tokens; a replayed answer would hand out a code's tokens twice.
    idempotent: false,
    // invalid_client (401) comes from the client's own credentials, not from a bearer token;
    // 502 when the identity provider cannot be reached.
    errors: [401, 502],
    config: {
      rateLimit: {
        max: oauth.tokenRateLimit,
        // Counted once the body is read, on the client the request names however it names it
        // (query, form or Basic): per client and IP for a registered client, so one noisy client
        // cannot lock out another; unknown client ids all share their IP's one bucket.
        hook: 'preHandler',
        keyGenerator: async (req: FastifyRequest) => {
          const clientId = namedClient(req);
          const known = clientId ? await oauth.clients.findLive(clientId) : undefined;
          return known ? `token:${known.id}:${req.ip}` : `token:ip:${req.ip}`;
        },
      },
    },
    handler: async (ctx, { query, body }, reply) => {
      const req = reply.request;
      const mediaHeader = req.headers['x-service-media-id'];
      const result = await oauth.tokens.token(
        ctx,
        { ...query, ...body },
        {
          authorization: req.headers.authorization,
          mediaId: typeof mediaHeader === 'string' ? ctx.mediaId : undefined,
        },
      );
      reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      return result;
    },
  });

  route(app, {
    method: 'GET',
    url: '/jwks',
    operationId: 'readerOAuthJwks',
    primary: true,
    summary: "The media's public token signing keys (JWKS)",
    description: 'The media from x-service-media-id, or from `media_id`: the `jwks_uri` of the authorization server metadata names it so, for clients that send no header.',
    tag,
    access: { anonymous: true, mediaFromQuery: true },
    querystring: mediaIdQuery,
    response: { 200: jwksSchema },
    handler: async (ctx, _input, reply) => {
      // The keys depend on the media header: a shared cache must not serve one media's to another
      // (nor, with a CORS origin list, one origin's answer to another: CORS set Vary: Origin).
      const vary = reply.getHeader('vary');
      reply
        .header('cache-control', 'public, max-age=60')
        .header('vary', vary ? `${String(vary)}, x-service-media-id` : 'x-service-media-id');
      return oauth.keys.jwks(ctx.mediaId);
    },
  });

  route(app, {
    method: 'GET',
    url: '/providers',
    operationId: 'readerListOAuthProviders',
    serves: 'provider',
    primary: true,
    summary: 'Identity providers readers can sign in with',
    description: 'What a front end needs to start an authorization-code sign-in; no secrets.',
    tag,
    access: { anonymous: true },
    response: { 200: z.object({ data: z.array(oauthProviderSummarySchema) }) },
    handler: async (ctx) => ({ data: (await oauth.providers.live(ctx.mediaId)).map(toOAuthProviderSummary) }),
  });
};
