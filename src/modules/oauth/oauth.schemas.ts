import { z } from 'zod';
import { isoTimestamp, uuid } from '../../shared/schemas.js';
import { SCOPES } from '../../shared/scopes.js';
import { RFC6749_ERROR_CODES } from './oauth.errors.js';

const scopeList = z
  .array(z.enum(SCOPES))
  .min(1)
  .max(SCOPES.length)
  .refine((s) => new Set(s).size === s.length, { message: 'each scope may appear only once' });

const httpUrl = z
  .url({ protocol: /^https?$/, message: 'must be an http(s) URL' })
  .max(2000);

export const CLIENT_TYPES = ['confidential', 'public'] as const;

export const oauthClientSchema = z
  .object({
    id: uuid.describe('The client_id'),
    name: z.string(),
    type: z.enum(CLIENT_TYPES),
    scopes: z.array(z.enum(SCOPES)),
    secret_prefix: z.string().describe('The first characters of the secret, to tell secrets apart'),
    revoked_at: isoTimestamp.nullable(),
    inserted_at: isoTimestamp,
    updated_at: isoTimestamp,
  })
  .meta({ id: 'OAuthClient' });

export const createdOAuthClientSchema = oauthClientSchema
  .extend({ secret: z.string().nullable().describe('The client_secret, shown only in this answer; null for a public client') })
  .meta({ id: 'CreatedOAuthClient' });

export const oauthClientCreateBody = z
  .strictObject({
    name: z.string().trim().min(1).max(200),
    scopes: scopeList.describe('Scopes this client may ask for'),
    type: z
      .enum(CLIENT_TYPES)
      .default('confidential')
      .describe(
        'confidential: a server that keeps a secret (client credentials; authenticates every code exchange). ' +
          'public: a browser or mobile app with no secret (it should use PKCE: code_verifier is passed to the provider).',
      ),
  })
  .meta({ id: 'OAuthClientCreate' });

export const oauthProviderSchema = z
  .object({
    id: uuid,
    name: z.string(),
    issuer: z.string(),
    authorization_endpoint: z.string(),
    token_endpoint: z.string(),
    userinfo_endpoint: z.string().nullable(),
    jwks_uri: z.string().nullable(),
    client_id: z.string(),
    token_endpoint_auth_method: z.enum(['client_secret_basic', 'client_secret_post']),
    audience: z.string().nullable(),
    scopes: z.array(z.enum(SCOPES)),
    redirect_uris: z.array(z.string()),
    inserted_at: isoTimestamp,
    updated_at: isoTimestamp,
  })
  .meta({ id: 'OAuthProvider' });

export const oauthProviderCreateBody = z
  .strictObject({
    name: z.string().trim().min(1).max(200),
    issuer: z.string().min(1).max(2000).describe('The `iss` of its tokens'),
    authorization_endpoint: httpUrl,
    token_endpoint: httpUrl,
    userinfo_endpoint: httpUrl.nullable().optional().describe('Verifies opaque access tokens'),
    jwks_uri: httpUrl.nullable().optional().describe('Verifies JWT access tokens'),
    client_id: z.string().min(1).max(500).describe("This service's client id at the provider"),
    client_secret: z.string().min(1).max(2000).describe('Stored for the code exchange; never returned'),
    token_endpoint_auth_method: z.enum(['client_secret_basic', 'client_secret_post']).default('client_secret_basic'),
    audience: z.string().min(1).max(2000).nullable().optional().describe('Expected `aud` of its JWTs (default: client_id)'),
    scopes: scopeList
      .default(['media:read', 'account:read', 'account:write'])
      .describe("Scopes granted to readers signed in through it"),
    redirect_uris: z.array(httpUrl).max(20).default([]).describe('Allowed redirect_uri values (empty: any)'),
  })
  .refine((p) => p.jwks_uri || p.userinfo_endpoint, {
    message: 'jwks_uri or userinfo_endpoint is needed to verify its tokens',
    path: ['jwks_uri'],
  })
  .meta({ id: 'OAuthProviderCreate' });

/** What a Reader client may see of a provider: enough to start a sign-in, no secrets. */
export const oauthProviderSummarySchema = z
  .object({
    id: uuid,
    name: z.string(),
    issuer: z.string(),
    authorization_endpoint: z.string(),
    client_id: z.string(),
    scopes: z.array(z.string()),
    updated_at: isoTimestamp,
  })
  .meta({ id: 'OAuthProviderSummary' });

export const tokenResponseSchema = z
  .object({
    access_token: z.string(),
    token_type: z.string().describe('Bearer'),
    expires_in: z.int().describe('Seconds'),
    scope: z.string(),
    refresh_token: z.string().optional(),
    id_token: z.string().optional().describe('Passed through from the identity provider'),
  })
  .meta({ id: 'TokenResponse' });

/** RFC 6749 section 5.2, plus the house envelope's code and details. */
export const tokenErrorSchema = z
  .object({
    error: z
      // The section's codes, and the two a server may answer for itself.
      .enum([...RFC6749_ERROR_CODES, 'temporarily_unavailable', 'server_error'])
      .describe('The RFC 6749 error code'),
    error_description: z.string().describe('A sentence for people'),
    code: z.string().describe("The service's snake_case code (the RFC 6749 code where there is one)"),
    details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: 'TokenError' });

const tokenParam = z.string().max(4096).optional();

/**
 * Token endpoint parameters, from the query string or a form/JSON body. Deliberately not
 * named with .meta({ id }): a named querystring schema becomes a $ref that @fastify/swagger
 * cannot expand into parameters, and /openapi.json answered 500.
 */
export const tokenParams = z
  .object({
    grand_type: z.string().max(100).optional().describe("The spec's spelling of grant_type"),
    grant_type: z.string().max(100).optional(),
    client_id: z.string().max(200).optional(),
    client_secret: z.string().max(500).optional(),
    scope: z.string().max(1000).optional(),
    code: tokenParam,
    redirect_uri: z.string().max(2000).optional(),
    code_verifier: z.string().max(200).optional(),
    oauth_provider_id: z.string().max(200).optional(),
    refresh_token: tokenParam,
  });

/**
 * The same parameters as a form (or JSON) body, which may be absent: Fastify validates a missing
 * body as null. Preprocessed rather than nullish, so the document shows an object, not "or null".
 */
export const tokenBody = z.preprocess(
  (body) => body ?? {},
  tokenParams.meta({
    examples: [
      {
        grant_type: 'client_credentials',
        client_id: '0193a5c4-2b6e-7d1f-9a3c-5e8f0b1d2c4a',
        client_secret: 'mpc_2q3Vb8nTzK0xLr5yW1sJ7uHfE4dGcA9oPmNiQkBvXeY',
        scope: 'media:read',
      },
    ],
  }),
);

export type TokenParams = z.output<typeof tokenParams>;
export type OAuthClientCreate = z.output<typeof oauthClientCreateBody>;
export type OAuthProviderCreate = z.output<typeof oauthProviderCreateBody>;

/** The media of an anonymous document (JWKS, metadata) for clients that send no x-service-media-id header. */
export const mediaIdQuery = z.object({ media_id: uuid.optional().describe('The media, for clients that send no x-service-media-id header') });
