import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { route } from '../../shared/http/route.js';
import { SCOPES } from '../../shared/scopes.js';
import { mediaIdQuery } from './oauth.schemas.js';
import { oauthTags } from './oauth.tags.js';
import { GRANT_TYPES } from './tokens.service.js';

/** Where the Reader's routes are, the token endpoint and the JWKS among them. */
const READER_PATH = '/api/media/v1';

const authorizationServerMetadataSchema = z
  .object({
    issuer: z.string().describe("Exactly the `iss` of the service's access tokens"),
    token_endpoint: z.url(),
    jwks_uri: z.url().describe("The media's public signing keys; the media is in the URL, so that no header is needed"),
    scopes_supported: z.array(z.enum(SCOPES)),
    response_types_supported: z
      .array(z.literal('code'))
      .describe("The code of the authorization-code grant, obtained at the media's identity provider: this server has no authorization endpoint"),
    grant_types_supported: z.array(z.enum(GRANT_TYPES)),
    token_endpoint_auth_methods_supported: z
      .array(z.enum(['client_secret_basic', 'client_secret_post', 'none']))
      .describe('`none`: a public client, which identifies itself with its client_id alone'),
    service_documentation: z.url(),
  })
  .meta({ id: 'OAuthAuthorizationServerMetadata' });

/**
 * RFC 8414 section 3: the metadata of an issuer with a path is at `/.well-known/oauth-authorization-server`
 * followed by that path. The issuer is `PUBLIC_BASE_URL` + the Reader's path, or a URN without it:
 * then the Reader's path, where the issuer would be with the host's origin as its base.
 */
const wellKnownPath = (issuer: string) =>
  `/oauth-authorization-server${/^https?:/.test(issuer) ? new URL(issuer).pathname : READER_PATH}`;

/** /.well-known: the authorization server metadata, so that standard OAuth clients configure themselves. */
export const oauthDiscoveryRoutes: FastifyPluginAsyncZod<{ oauth: { issuer: string } }> = async (app, { oauth }) => {
  route(app, {
    method: 'GET',
    url: wellKnownPath(oauth.issuer),
    operationId: 'readerOAuthServerMetadata',
    primary: true,
    summary: 'OAuth 2 authorization server metadata (RFC 8414)',
    description:
      'What a standard OAuth client needs to configure itself for a media: the token endpoint, the media\'s JWKS, the ' +
      "grants and client authentications the token endpoint takes, the scopes. `issuer` equals the access tokens' `iss`: " +
      'with `PUBLIC_BASE_URL` set it is the URL this path is derived from, as RFC 8414 asks; without it, a URN that no ' +
      "client can derive a path from. The authorization code comes from the media's identity provider (its " +
      '`authorization_endpoint` is listed at `GET /api/media/v1/oauth/providers`) and is exchanged at the token ' +
      'endpoint with `oauth_provider_id`, so the document names no authorization endpoint.',
    tag: oauthTags.reader,
    access: { anonymous: true, mediaFromQuery: true },
    querystring: mediaIdQuery,
    response: { 200: authorizationServerMetadataSchema },
    handler: async (ctx, _input, reply) => {
      const reader = `${reply.request.linkOrigin}${READER_PATH}`;
      return {
        issuer: oauth.issuer,
        token_endpoint: `${reader}/oauth/token`,
        jwks_uri: `${reader}/oauth/jwks?media_id=${ctx.mediaId}`,
        scopes_supported: [...SCOPES],
        response_types_supported: ['code' as const],
        grant_types_supported: [...GRANT_TYPES],
        token_endpoint_auth_methods_supported: ['client_secret_basic' as const, 'client_secret_post' as const, 'none' as const],
        service_documentation: `${reply.request.linkOrigin}/docs`,
      };
    },
  });
};
