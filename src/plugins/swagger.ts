import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { SCOPE_DESCRIPTIONS } from '../shared/scopes.js';

/**
 * OpenAPI 3.1 generated from the routes' zod schemas, at /openapi.json, and an
 * interactive reference at /docs served from the installed swagger-ui assets (no CDN).
 */
export const swaggerPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Media Publishing Service',
          version: '1.0.0',
          description:
            'Backoffice (x-api-key), Reader (/api/media/v1, OAuth 2 bearer tokens) and the deprecated Public API. ' +
            'Errors are `{error, code, details?}`; lists are `{data, meta: {base, next, previous}}` with cursor paging.',
        },
        components: {
          securitySchemes: {
            apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'Backoffice API key' },
            apiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key', description: 'Backoffice API key (mail webhook only)' },
            // Reader bearer tokens: ours (client credentials, below) or an identity provider's
            // (authorization code at /api/media/v1/oauth/token); each operation lists its scope.
            bearer: {
              type: 'oauth2',
              description:
                'Reader access token sent as `Authorization: Bearer <token>` with `x-service-media-id`. ' +
                "Client credentials give the service's own JWTs; the authorization-code flow returns an identity " +
                "provider's tokens (see GET /api/media/v1/oauth/providers).",
              flows: {
                clientCredentials: { tokenUrl: '/api/media/v1/oauth/token', scopes: SCOPE_DESCRIPTIONS },
              },
            },
          },
        },
      },
      transform: jsonSchemaTransform,
      // Each area's tag, described once where its routes declare it.
      transformObject: (input) => {
        const document = jsonSchemaTransformObject(input) as Record<string, unknown>;
        const tags = [...app.openapiTags].map(([name, description]) => ({ name, description }));
        return { ...document, tags: tags.sort((a, b) => a.name.localeCompare(b.name)) } as never;
      },
    });

    await app.register(swaggerUi, {
      routePrefix: '/docs',
      staticCSP: true,
      uiConfig: { deepLinking: true, persistAuthorization: false },
    });

    app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  },
  { name: 'swagger' },
);
