import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { SCOPE_DESCRIPTIONS } from '../shared/scopes.js';
import { z } from 'zod';
import { type OperationFacts, finishDocument } from './openapi-document.js';
import { bodyExample } from './openapi-examples.js';
import { documentedRegistry } from './openapi-registry.js';

// Everything /docs loads is its own (no CDN, no validator badge).
const DOCS_POLICY =
  "default-src 'self'; base-uri 'self'; font-src 'self' data:; frame-ancestors 'self'; img-src 'self' data:; " +
  "object-src 'none'; script-src 'self'; script-src-attr 'none'; style-src 'self'; form-action 'self'";

/**
 * The policy of /docs. `upgrade-insecure-requests` only over HTTPS (TLS, or X-Forwarded-Proto from a
 * trusted proxy): over plain HTTP on any host but localhost it made the browser ask for every asset
 * over https, and the page stayed blank.
 */
export const docsPolicy = (protocol: string) =>
  protocol === 'https' ? `${DOCS_POLICY}; upgrade-insecure-requests` : DOCS_POLICY;

/** A named object's fields as an unnamed object: @fastify/swagger makes no parameters of a $ref. */
const unnamed = (schema: unknown) => (schema instanceof z.ZodObject && z.globalRegistry.get(schema)?.id ? z.object(schema.shape) : schema);

/**
 * OpenAPI 3.1 generated from the routes' zod schemas, at /openapi.json, and an
 * interactive reference at /docs served from the installed swagger-ui assets (no CDN).
 */
export const swaggerPlugin = fp(
  async (app: FastifyInstance, options: { operator?: boolean; publicBaseUrl?: string | undefined }) => {
    // What route configs tell the document (a Public successor, an asset's ETag), by operationId.
    const facts = new Map<string, OperationFacts>();
    // Made when the document is, once every route (and every schema it names) exists.
    let registry: ReturnType<typeof documentedRegistry> | undefined;
    let transformRoute: ReturnType<typeof createJsonSchemaTransform> | undefined;
    // Operations whose body may be left out (the token endpoint: query parameters do as well);
    // @fastify/swagger marks every request body required.
    const optionalBodies = new Set<string>();
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
            // Documented only where the operator API exists (OPERATOR_API_KEY set).
            ...(options.operator && {
              operatorKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'The deployment operator\'s key (OPERATOR_API_KEY); not a Backoffice key' },
            }),
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
      transform: (input) => {
        const { config } = input.route;
        const operationId = input.schema?.operationId;
        const body = input.schema?.body;
        // Fastify validates a missing body as null.
        if (operationId && body instanceof z.ZodType && body.safeParse(null).success) optionalBodies.add(operationId);
        if (operationId) {
          facts.set(operationId, {
            successor: config?.successor,
            responseHeaders: config?.responseHeaders,
            ...(body instanceof z.ZodType && { example: bodyExample(body) }),
          });
        }
        transformRoute ??= createJsonSchemaTransform({ schemaRegistry: (registry ??= documentedRegistry()) });
        const schema = input.schema && {
          ...input.schema,
          querystring: unnamed(input.schema.querystring),
          params: unnamed(input.schema.params),
          headers: unnamed(input.schema.headers),
        };
        return transformRoute({ ...input, schema });
      },
      // Each area's tag, described once where its routes declare it; then servers, response
      // descriptions and headers, body examples and unused components, for every route alike.
      transformObject: (input) => {
        const document = createJsonSchemaTransformObject({ schemaRegistry: (registry ??= documentedRegistry()) })(input) as Record<string, unknown>;
        const tags = [...app.openapiTags].map(([name, description]) => ({ name, description }));
        const tagged = { ...document, tags: tags.sort((a, b) => a.name.localeCompare(b.name)) };
        const finished = finishDocument(tagged, { publicBaseUrl: options.publicBaseUrl, facts });
        for (const item of Object.values(finished.paths ?? {})) {
          for (const operation of Object.values(item) as Array<{ operationId?: string; requestBody?: { required?: boolean } }>) {
            if (operation?.requestBody && operation.operationId && optionalBodies.has(operation.operationId)) operation.requestBody.required = false;
          }
        }
        return finished as never;
      },
    });

    // /docs and its assets in a scope of their own, whose policy replaces the API's.
    await app.register(async (docs) => {
      docs.addHook('onRequest', (req, reply, done) => {
        reply.header('content-security-policy', docsPolicy(req.protocol));
        done();
      });
      await docs.register(swaggerUi, {
        routePrefix: '/docs',
        // One document, the one clients fetch. With `urls` swagger-ui loads it instead of /docs/json.
        uiConfig: { deepLinking: true, persistAuthorization: false, urls: [{ url: '/openapi.json', name: 'Media Publishing Service' }] },
      });
    });

    app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  },
  { name: 'swagger' },
);
