import { STATUS_CODES } from 'node:http';
import { type JsonSchema, exampleOf } from './openapi-examples.js';

/**
 * The last pass over the generated OpenAPI document, for every route alike: servers, a
 * description and the response headers of each answer, an example of each request body,
 * and no component that nothing uses.
 */

const integer = { type: 'integer', minimum: 0 };

/** Response headers the service sends, each described once under components.headers. */
export const RESPONSE_HEADERS = {
  'X-Request-Id': {
    description: 'The request id: the `x-request-id` sent when it is short and plain, else a generated UUID; every log line of the request carries it',
    required: true,
    schema: { type: 'string' },
  },
  // Not on a refusal by authentication (401, 403), which comes before the request is counted.
  'RateLimit-Limit': { description: 'Requests allowed in the current one-minute window (on every answer to a counted request)', schema: integer },
  'RateLimit-Remaining': { description: 'Requests left in the current window', schema: integer },
  'RateLimit-Reset': { description: 'Seconds until the current window ends', schema: integer },
  'Retry-After': { description: 'Seconds to wait before trying again', schema: integer },
  Deprecation: {
    description: 'Since when this operation is deprecated (RFC 9745): `@` and Unix seconds',
    schema: { type: 'string', pattern: '^@\\d+$' },
  },
  Sunset: { description: 'When this deprecated operation stops answering (an HTTP date)', schema: { type: 'string' } },
  Link: { description: 'The operation that replaces this one: `<path>; rel="successor-version"`', schema: { type: 'string' } },
  ETag: { description: 'The version of the representation, for `If-None-Match`', schema: { type: 'string' } },
  'Cache-Control': { description: 'How long shared caches and browsers may keep the answer', schema: { type: 'string' } },
  'Surrogate-Key': {
    description: 'The records this answer holds (`content:<id>`, an assoc\'s `category:<id>`) and, for a list, its collection (`content`), space-separated: the keys a CDN purges when a webhook `purge` event names them',
    schema: { type: 'string' },
  },
  'X-Robots-Tag': {
    description: '`noindex` on an answer to a request with a preview token (`x-preview-token`): what it shows is not for search engines',
    schema: { type: 'string', enum: ['noindex'] },
  },
  'Idempotent-Replayed': {
    description: '`true` when this answer is the stored one of an earlier request with the same `Idempotency-Key`, replayed',
    schema: { type: 'string', enum: ['true'] },
  },
} as const;
export type ResponseHeader = keyof typeof RESPONSE_HEADERS;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Headers this route's success answers carry beyond those its tree documents (an asset's ETag). */
    responseHeaders?: ResponseHeader[];
    /** Headers every answer of this route carries, errors included (its tree's Cache-Control). */
    answerHeaders?: ResponseHeader[];
  }
}

/** What a route's config tells the document that its schema cannot. */
export interface OperationFacts {
  /** The Reader path that replaces a Public one: answers carry a `Link`. */
  successor?: string | undefined;
  responseHeaders?: ResponseHeader[] | undefined;
  answerHeaders?: ResponseHeader[] | undefined;
  /** A read whose answers carry an `ETag`: a matching `If-None-Match` is answered 304 with no body. */
  conditional?: boolean | undefined;
  /** What the caller must hold: a Backoffice permission (and the built-in roles that grant it) or a Reader scope. */
  requires?: { permission: string; roles: string[] } | { scope: string; reader: boolean } | undefined;
  /** A body example the route's zod schema accepted (present, maybe undefined, when the body is zod). */
  example?: unknown;
}

const DESCRIPTIONS: Record<string, string> = {
  200: 'Success',
  201: 'Created',
  202: 'Accepted',
  204: 'Done; no content',
  304: 'Not modified: `If-None-Match` names the current version (`ETag`); no body',
  400: 'The request is invalid: a malformed id, header, query or body (`validation_failed`, `invalid_uuid`, …)',
  401: 'Missing, malformed, unknown, revoked or expired credentials',
  403: 'The credentials lack the permission or scope this operation needs',
  404: 'No such record for this caller (another media’s records answer the same)',
  409: 'The request conflicts with the current state of a record',
  413: 'The request body is larger than the service accepts',
  414: 'A path parameter is longer than the service accepts (`url_too_long`)',
  415: 'The request body has a media type this operation does not take',
  422: 'The request is well formed but cannot be carried out',
  429: 'Too many requests; retry after `Retry-After` seconds',
  431: 'The request headers are larger than the service accepts (`headers_too_large`)',
  500: 'The service failed; the answer is `{"error": "internal error", "code": "internal"}` and the failure is logged with the request id',
  502: 'An upstream service (an identity provider) failed or answered badly',
  503: 'The database is unavailable, or the service is shutting down; retry after `Retry-After` seconds',
};

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

type Node = { [key: string]: unknown };
interface Operation extends Node {
  operationId?: string;
  deprecated?: boolean;
  requestBody?: { content?: Record<string, Node> };
  responses?: Record<string, Node & { description?: string; headers?: Record<string, unknown> }>;
  security?: Array<Record<string, string[]>>;
}
interface Document extends Node {
  servers?: Array<{ url: string; description?: string }>;
  paths?: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown> | undefined>;
  security?: Array<Record<string, string[]>>;
}

export interface FinishOptions {
  /** PUBLIC_BASE_URL; unset, the document's own origin. */
  publicBaseUrl?: string | undefined;
  facts: ReadonlyMap<string, OperationFacts>;
}

export function finishDocument(doc: Document, options: FinishOptions): Document {
  doc.servers = [
    options.publicBaseUrl
      ? { url: options.publicBaseUrl, description: 'This deployment' }
      : { url: '/', description: 'The host that serves this document' },
  ];
  const components = (doc.components ??= {});
  const schemas = (components.schemas ?? {}) as Record<string, JsonSchema>;
  const resolve = (schema: JsonSchema): JsonSchema => {
    let current = schema;
    for (let i = 0; i < 16 && typeof current.$ref === 'string'; i++) {
      current = schemas[current.$ref.replace('#/components/schemas/', '')] ?? {};
    }
    return current;
  };

  for (const operation of operations(doc)) {
    const facts = (operation.operationId && options.facts.get(operation.operationId)) || {};
    const responses = (operation.responses ??= {});
    if (facts.conditional) responses['304'] ??= { description: DESCRIPTIONS[304]! };
    if (facts.requires) describeRequirement(operation, facts.requires);
    // A route that can answer 429 runs behind a rate limit, which counts its other answers too.
    const rateLimited = '429' in responses;
    for (const [status, response] of Object.entries(responses)) {
      if (!response.description || response.description === 'Default Response') {
        response.description = DESCRIPTIONS[status] ?? STATUS_CODES[Number(status)] ?? 'Answer';
      }
      const success = /^2/.test(status);
      const names: ResponseHeader[] = ['X-Request-Id'];
      if (rateLimited) names.push('RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset');
      // An idempotent route's 409 idempotency_key_in_use says when the first request should be done.
      const idempotent = facts.answerHeaders?.includes('Idempotent-Replayed');
      if (status === '429' || status === '503' || (idempotent && status === '409')) names.push('Retry-After');
      if (operation.deprecated) names.push('Deprecation', 'Sunset');
      if (facts.successor) names.push('Link');
      // A 304 carries the headers the 200 would have carried.
      if (success || status === '304') names.push(...(facts.responseHeaders ?? []));
      names.push(...(facts.answerHeaders ?? []));
      response.headers = {
        ...response.headers,
        ...Object.fromEntries([...new Set(names)].map((name) => [name, { $ref: `#/components/headers/${name}` }])),
      };
    }
    for (const media of Object.values(operation.requestBody?.content ?? {})) {
      if (media.example !== undefined || media.examples !== undefined || !media.schema) continue;
      const example = 'example' in facts ? facts.example : exampleOf(media.schema as JsonSchema, resolve);
      if (example !== undefined) media.example = example;
    }
  }
  components.headers = { ...RESPONSE_HEADERS, ...components.headers };
  hoistShared(doc);
  pruneComponents(doc);
  return doc;
}

/**
 * What the caller must hold, for programs (`x-required-permission`, `x-required-scope`) and for
 * people (a sentence after the description).
 */
function describeRequirement(operation: Operation, requires: NonNullable<OperationFacts['requires']>): void {
  const sentence =
    'permission' in requires
      ? `Requires the permission \`${requires.permission}\` (roles: ${requires.roles.map((r) => `\`${r}\``).join(', ')}).`
      : `Requires a token with the scope \`${requires.scope}\`${requires.reader ? ' issued to a reader (authorization code), not to a client alone' : ''}.`;
  if ('permission' in requires) operation['x-required-permission'] = requires.permission;
  else operation['x-required-scope'] = requires.scope;
  const description = typeof operation.description === 'string' ? operation.description : '';
  operation.description = description ? `${description}\n\n${sentence}` : sentence;
}

const SHARED_REF = /^#\/components\/schemas\/__shared#\/\$defs\/(.+)$/;

/**
 * zod puts what several named schemas share (a recursive `z.json()`) under `__shared` and points
 * at it with `$ref`s no resolver can follow (`…/__shared#/$defs/schema0`): each becomes a
 * component of its own (`SharedSchema0`; a schema named with `.meta({ id })` keeps its name).
 */
function hoistShared(doc: Document): void {
  const schemas = doc.components?.schemas as Record<string, JsonSchema> | undefined;
  const shared = schemas?.__shared?.$defs as Record<string, JsonSchema> | undefined;
  if (!schemas || !shared) return;
  delete schemas.__shared;
  const names = new Map<string, string>();
  for (const [name, schema] of Object.entries(shared)) {
    let component = `Shared${name[0]!.toUpperCase()}${name.slice(1)}`;
    while (schemas[component]) component += '_';
    names.set(name, component);
    schemas[component] = schema;
  }
  const rewrite = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(rewrite);
    if (!node || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    for (const [key, value] of Object.entries(record)) {
      const match = key === '$ref' && typeof value === 'string' ? SHARED_REF.exec(value) : null;
      if (match && names.has(match[1]!)) record[key] = `#/components/schemas/${names.get(match[1]!)}`;
      else rewrite(value);
    }
  };
  rewrite(doc);
}

function* operations(doc: Document): Generator<Operation> {
  for (const item of Object.values(doc.paths ?? {})) {
    for (const method of METHODS) if (item[method]) yield item[method] as Operation;
  }
}

/** Drops every component that no operation reaches, directly or through other components. */
function pruneComponents(doc: Document): void {
  const components = doc.components ?? {};
  const used = new Set<string>();
  const queue: unknown[] = [doc.paths];
  const visit = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/') && !used.has(value)) {
        used.add(value);
        const [kind, name] = value.slice('#/components/'.length).split('/').map(decodePointer);
        queue.push(components[kind!]?.[name!]);
      } else {
        visit(value);
      }
    }
  };
  while (queue.length > 0) visit(queue.shift());

  for (const requirement of [...(doc.security ?? []), ...[...operations(doc)].flatMap((op) => op.security ?? [])]) {
    for (const scheme of Object.keys(requirement)) used.add(`#/components/securitySchemes/${scheme}`);
  }
  for (const [kind, entries] of Object.entries(components)) {
    if (!entries) continue;
    for (const name of Object.keys(entries)) {
      if (!used.has(`#/components/${kind}/${encodePointer(name)}`) && !used.has(`#/components/${kind}/${name}`)) delete entries[name];
    }
    if (Object.keys(entries).length === 0) delete components[kind];
  }
}

const decodePointer = (part: string) => part.replace(/~1/g, '/').replace(/~0/g, '~');
const encodePointer = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1');
