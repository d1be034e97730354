import formbody from '@fastify/formbody';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../shared/schemas.js';
import { toOAuthProviderSummary } from './oauth.mappers.js';
import { oauthProviderSummarySchema, tokenParams, tokenResponseSchema } from './oauth.schemas.js';
import type { ProvidersService } from './providers.service.js';
import type { SigningKeysService } from './signing-keys.service.js';
import type { TokensService } from './tokens.service.js';

export interface OAuthReaderDeps {
  tokens: TokensService;
  keys: SigningKeysService;
  providers: ProvidersService;
  tokenRateLimit: number;
}

const jwksSchema = z
  .object({ keys: z.array(z.record(z.string(), z.unknown())) })
  .meta({ id: 'JWKS' });

/** /api/media/v1/oauth: the token endpoint, our JWKS and the sign-in providers. */
export const oauthReaderRoutes: FastifyPluginAsyncZod<{ oauth: OAuthReaderDeps }> = async (app, { oauth }) => {
  // RFC 6749 token requests are form-encoded; only this plugin's routes accept that.
  await app.register(formbody, { bodyLimit: 16 * 1024 });

  app.post('/token', {
    config: {
      anonymous: true,
      mediaOptional: true,
      rateLimit: {
        max: oauth.tokenRateLimit,
        // Per client and IP, so that one noisy client cannot lock out another.
        keyGenerator: (req) => {
          const q = req.query as { client_id?: unknown };
          const clientId = typeof q.client_id === 'string' ? q.client_id.slice(0, 64) : '-';
          return `token:${clientId}:${req.ip}`;
        },
      },
    },
    schema: {
      tags: ['Reader: OAuth'],
      summary: 'Token endpoint (authorization code, client credentials, refresh token)',
      description:
        'Parameters as query string (as in the spec) or as an application/x-www-form-urlencoded body (RFC 6749). ' +
        '`grand_type` (the spec\'s spelling) and `grant_type` are both accepted. Client credentials may also come as ' +
        'HTTP Basic. Authorization code: the provider\'s tokens are returned unchanged. Errors carry the RFC 6749 code.',
      security: [],
      querystring: tokenParams,
      body: tokenParams.nullish(),
      response: { 200: tokenResponseSchema, ...errorResponses(400, 401, 403, 413, 415, 429, 502) },
    },
    handler: async (req, reply) => {
      const mediaHeader = req.headers['x-service-media-id'];
      const result = await oauth.tokens.token(
        { ...req.query, ...req.body },
        {
          authorization: req.headers.authorization,
          mediaId: typeof mediaHeader === 'string' ? req.mediaId : undefined,
        },
      );
      return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(result);
    },
  });

  app.get('/jwks', {
    config: { anonymous: true },
    schema: {
      tags: ['Reader: OAuth'],
      summary: "The media's public token signing keys (JWKS)",
      security: [],
      response: { 200: jwksSchema, ...errorResponses(400, 404, 429) },
    },
    handler: async (req, reply) =>
      reply
        .header('cache-control', 'public, max-age=60')
        // The keys depend on the media header: a shared cache must not serve one media's to another.
        .header('vary', 'x-service-media-id')
        .send(await oauth.keys.jwks(req.mediaId)),
  });

  app.get('/providers', {
    config: { anonymous: true },
    schema: {
      tags: ['Reader: OAuth'],
      summary: 'Identity providers readers can sign in with',
      description: 'What a front end needs to start an authorization-code sign-in; no secrets.',
      security: [],
      response: { 200: z.object({ data: z.array(oauthProviderSummarySchema) }), ...errorResponses(400, 404, 429) },
    },
    handler: async (req) => ({ data: (await oauth.providers.live(req.mediaId)).map(toOAuthProviderSummary) }),
  });
};
