import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { oncePer } from '../shared/schemas.js';
import { ROLES, can } from '../shared/permissions.js';
import { SCOPE_DESCRIPTIONS } from '../shared/scopes.js';
import { z } from 'zod';
import { type OperationFacts, finishDocument } from './openapi-document.js';
import { bodyExample } from './openapi-examples.js';
import { documentedRegistry } from './openapi-registry.js';

/**
 * The CSP sources (`'sha256-…'`) of the `<style>` elements a script renders: swagger-ui's standalone
 * preset draws its top bar's logo with one, which `style-src 'self'` refused (an error in the
 * console of every visit). Allowed by the hash of its text, so that no other inline style is.
 */
export function inlineStyleSources(script: string): string[] {
  const texts = [...script.matchAll(/createElement\("style",null,("(?:[^"\\]|\\.)*")\)/g)].map((m) => JSON.parse(m[1]!) as string);
  return [...new Set(texts)].map((text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`);
}

/** The static files /docs serves (`/docs/static/…`), as installed. */
const DOCS_STATIC = join(dirname(createRequire(import.meta.url).resolve('@fastify/swagger-ui')), 'static');

// Everything /docs loads is its own (no CDN, no validator badge); read when the first app is built.
let docsPolicyBase: string | undefined;
const basePolicy = () =>
  (docsPolicyBase ??=
    "default-src 'self'; base-uri 'self'; font-src 'self' data:; frame-ancestors 'self'; img-src 'self' data:; " +
    "object-src 'none'; script-src 'self'; script-src-attr 'none'; " +
    `style-src ${["'self'", ...inlineStyleSources(readFileSync(join(DOCS_STATIC, 'swagger-ui-standalone-preset.js'), 'utf8'))].join(' ')}; form-action 'self'`);

/**
 * The policy of /docs. `upgrade-insecure-requests` only over HTTPS (TLS, or X-Forwarded-Proto from a
 * trusted proxy): over plain HTTP on any host but localhost it made the browser ask for every asset
 * over https, and the page stayed blank.
 */
export const docsPolicy = (protocol: string) => (protocol === 'https' ? `${basePolicy()}; upgrade-insecure-requests` : basePolicy());

/** A named object's fields as an unnamed object (one per named object): @fastify/swagger makes no parameters of a $ref. */
const unnamedCopy = oncePer((schema: z.ZodObject) => z.object(schema.shape));
const unnamed = (schema: unknown) => (schema instanceof z.ZodObject && z.globalRegistry.get(schema)?.id ? unnamedCopy(schema) : schema);

/** The areas /docs shows first, in this order: what a newcomer reads first. Every other area follows alphabetically. */
const FIRST_AREAS = ['Core', 'Docs'];
const areaRank = (tag: string) => {
  const rank = FIRST_AREAS.indexOf(tag.split(':')[0]!.trim());
  return rank === -1 ? FIRST_AREAS.length : rank;
};
/** Tags by area (`Core: Categories` is of the area Core), then by name. */
export const byArea = (a: { name: string }, b: { name: string }) => areaRank(a.name) - areaRank(b.name) || a.name.localeCompare(b.name);

type RouteTransform = ReturnType<typeof createJsonSchemaTransform>;
type TransformInput = Parameters<RouteTransform>[0];
type TransformObject = ReturnType<typeof createJsonSchemaTransformObject>;

/**
 * What the document converts once for the process, as fastify-type-provider-zod converts it: each
 * zod schema's JSON Schema by part (`body`, `params`, a response), and the named schemas as
 * components. The document converts the same objects (the error bodies, a record's wire shape) for
 * hundreds of operations, and a process that builds several apps (a test worker) would convert
 * them all again for each document. Kept as JSON text, so that no document shares an object another
 * one could change; made again when the set of named schemas changes, as component references
 * depend on it (the library's own registry cache keys on the same count).
 */
let conversions: { size: number; parts: WeakMap<object, Map<string, string>>; components?: string } | undefined;
function currentConversions() {
  const size = z.globalRegistry._idmap.size;
  if (conversions?.size !== size) conversions = { size, parts: new WeakMap() };
  return conversions;
}

function convertPart(transform: RouteTransform, input: TransformInput, part: string, schema: object, status?: string): unknown {
  const { parts } = currentConversions();
  // A response converts alike under every status (the error body under each of a route's errors).
  const key = status === undefined ? part : 'response';
  let byPart = parts.get(schema);
  let json = byPart?.get(key);
  if (json === undefined) {
    const one = status === undefined ? { [part]: schema } : { response: { [status]: schema } };
    const out = transform({ ...input, schema: one } as TransformInput).schema as Record<string, unknown> & { response?: Record<string, unknown> };
    json = JSON.stringify(status === undefined ? out[part] : out.response![status]);
    if (!byPart) parts.set(schema, (byPart = new Map()));
    byPart.set(key, json);
  }
  return JSON.parse(json);
}

/** The document with the named schemas as components (`conversions`); the rest of the document is the one given. */
function withComponents(input: Parameters<TransformObject>[0], transform: () => TransformObject): Record<string, unknown> {
  const { openapiObject } = input as unknown as { openapiObject: Record<string, unknown> & { components?: Record<string, unknown> } };
  const current = currentConversions();
  // Converted over a document of no components, so that only the named schemas are kept.
  current.components ??= JSON.stringify(
    (transform()({ ...input, openapiObject: { ...openapiObject, components: {} } } as never) as { components: { schemas: Record<string, unknown> } }).components.schemas,
  );
  const ownComponents = openapiObject.components ?? {};
  return {
    ...openapiObject,
    components: { ...ownComponents, schemas: { ...(ownComponents.schemas as object | undefined), ...JSON.parse(current.components) } },
  };
}

/**
 * What the document says of a request body: whether it may be left out (Fastify validates a
 * missing body as null) and its example (`bodyExample`), once per body schema for the process.
 */
const bodyFactsOf = oncePer((body: z.ZodType) => {
  const example = bodyExample(body);
  return { optional: body.safeParse(null).success, example: example === undefined ? undefined : JSON.stringify(example) };
});
function factsOfBody(body: z.ZodType): { optional: boolean; example: () => unknown } {
  const { optional, example } = bodyFactsOf(body);
  return { optional, example: () => (example === undefined ? undefined : JSON.parse(example)) };
}

/** The route's schema converted part by part (`convertPart`), in the order and shape the library's transform gives. */
function convertRoute(transform: RouteTransform, input: TransformInput, schema: Record<string, unknown>): ReturnType<RouteTransform> {
  const { response, headers, querystring, body, params, hide, ...rest } = schema as Record<string, unknown> & { response?: Record<string, unknown> };
  if (hide) return transform({ ...input, schema } as TransformInput);
  const converted: Record<string, unknown> = {};
  for (const [part, value] of Object.entries({ headers, querystring, body, params })) {
    if (value) converted[part] = convertPart(transform, input, part, value as object);
  }
  if (response) {
    converted.response = Object.fromEntries(Object.entries(response).map(([status, value]) => [status, convertPart(transform, input, 'response', value as object, status)]));
  }
  Object.assign(converted, transform({ ...input, schema: rest } as TransformInput).schema);
  return { schema: converted, url: input.url } as ReturnType<RouteTransform>;
}

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
        const bodyFacts = body instanceof z.ZodType ? factsOfBody(body) : undefined;
        if (operationId && bodyFacts?.optional) optionalBodies.add(operationId);
        if (operationId) {
          facts.set(operationId, {
            successor: config?.successor,
            responseHeaders: config?.responseHeaders,
            answerHeaders: config?.answerHeaders,
            conditional: input.route.method === 'GET' && config?.responseHeaders?.includes('ETag'),
            requires: config?.permission
              ? { permission: config.permission, roles: ROLES.filter((role) => can(role, config.permission!)) }
              : config?.scope
                ? { scope: config.scope, reader: Boolean(config.readerRequired) }
                : undefined,
            ...(bodyFacts && { example: bodyFacts.example() }),
          });
        }
        transformRoute ??= createJsonSchemaTransform({ schemaRegistry: (registry ??= documentedRegistry()) });
        if (!input.schema) return transformRoute(input);
        const schema = {
          ...input.schema,
          querystring: unnamed(input.schema.querystring),
          params: unnamed(input.schema.params),
          headers: unnamed(input.schema.headers),
        };
        return convertRoute(transformRoute, input, schema);
      },
      // Each area's tag, described once where its routes declare it; then servers, response
      // descriptions and headers, body examples and unused components, for every route alike.
      transformObject: (input) => {
        const document = withComponents(input, () => createJsonSchemaTransformObject({ schemaRegistry: (registry ??= documentedRegistry()) }));
        const tags = [...app.openapiTags].map(([name, description]) => ({ name, description }));
        const tagged = { ...document, tags: tags.sort(byArea) };
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
        // Collapsed, with the tag filter: expanded, the ~400 operations took ~11 s to show the first one.
        uiConfig: {
          deepLinking: true,
          persistAuthorization: false,
          docExpansion: 'none',
          filter: true,
          defaultModelsExpandDepth: -1,
          urls: [{ url: '/openapi.json', name: 'Media Publishing Service' }],
        },
      });
    });

    app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  },
  { name: 'swagger' },
);
