import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest, RawServerDefault, RouteOptions } from 'fastify';
import { type ZodTypeProvider, validatorCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { KeyPrincipal, Permission } from '../permissions.js';
import type { ErrorFormat } from '../errors.js';
import { errorBody } from '../schemas.js';
import type { ReaderPrincipal, Scope } from '../scopes.js';

export type ZodApp = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, ZodTypeProvider>;

/** Who acts, for whom, in which request: the first argument of every service method. */
export interface RequestContext {
  /** The tenant: the API key's media, the Reader's x-service-media-id, the Public path's media. */
  mediaId: string;
  /** The API key (Backoffice) or the bearer token's client or reader (Reader); null when anonymous. */
  principal: KeyPrincipal | ReaderPrincipal | null;
  requestId: string;
}

/** A context for work the service does on its own behalf (start-up, jobs, tests). */
export const systemContext = (mediaId: string, requestId = 'system'): RequestContext => ({ mediaId, principal: null, requestId });

/** An OpenAPI tag: the area a route belongs to, described once. */
export interface Tag {
  name: string;
  description: string;
}

/** Who may call a route: a Backoffice permission, a Reader scope, the deployment's operator, or nobody in particular. */
export type Access =
  | { permission: Permission; apiKeyInQuery?: boolean }
  | { scope: Scope; readerRequired?: boolean; mediaOptional?: boolean }
  | { operator: true }
  | {
      anonymous: true;
      mediaOptional?: boolean;
      /**
       * The media may also come from the query's `media_id` when the header is absent: documents
       * fetched by clients that send no headers (feed readers, crawlers). Declare `media_id` in the querystring.
       */
      mediaFromQuery?: boolean;
    };

type Schema = z.ZodType;
type Out<S> = S extends Schema ? z.output<S> : undefined;
type SuccessStatus = 200 | 201 | 202 | 204;
/** A success answer that is not JSON (image bytes): documented per media type; the handler sends the bytes itself. */
export interface ContentResponse {
  description: string;
  content: Record<string, { schema: Schema }>;
}
type Responses = Partial<Record<SuccessStatus, Schema | ContentResponse>>;
/** The bodies a handler may answer: the input side of any declared success schema. */
type Body<R extends Responses> = { [K in keyof R]: R[K] extends Schema ? z.input<R[K]> : never }[keyof R];

export interface RouteInput<P, Q, B> {
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
}

export interface RouteDef<P extends Schema | undefined, Q extends Schema | undefined, B extends Schema | undefined, R extends Responses> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  /** Unique across the service: the OpenAPI operationId and the `operation` of log lines. */
  operationId: string;
  summary: string;
  description?: string | undefined;
  tag: Tag;
  access: Access;
  params?: P;
  querystring?: Q;
  body?: B;
  headers?: Schema;
  /** Success answers; the first declared status is the default one. Error statuses are derived by the tree. */
  response: R;
  /** Error statuses this route answers beyond the derived ones (404 for a referenced record, 409, 422, 502). */
  errors?: ErrorStatus[];
  deprecated?: boolean;
  /** Extra route config: a rate limit of its own, a Public successor path. */
  config?: Record<string, unknown>;
  /** Media types of the body, when not only JSON (documented as the request body's content). */
  consumes?: string[];
  /** Errors in another standard's shape than the envelope (the token endpoint's RFC 6749 errors). */
  errorFormat?: ErrorFormat & { schema: Schema };
  /**
   * The work: parse nothing, call one service method with the context, map, return the body.
   * Answer another declared status with `reply.status(...)`.
   */
  handler: (ctx: RequestContext, input: RouteInput<P, Q, B>, reply: FastifyReply) => Promise<Body<R> | FastifyReply | void>;
}

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 502 | 503;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's operationId, for log lines and metrics. */
    operationId?: string;
    /** Error statuses declared by the route itself, merged with the derived ones by the tree. */
    errors?: ErrorStatus[];
    /** The route's own error shape; the error handler and documentRoute use it instead of the envelope. */
    errorFormat?: ErrorFormat;
  }
  interface FastifyInstance {
    /** Tags with their descriptions, collected from the routes for the OpenAPI document. */
    openapiTags: Map<string, string>;
  }
}

/** The context of a request, as every tree fills the request before the handler runs. */
export function contextOf(req: FastifyRequest): RequestContext {
  const principal = req.principal ?? req.bearer ?? null;
  return { mediaId: principal?.mediaId ?? req.mediaId, principal, requestId: req.id };
}

/**
 * Declares one route: any method, any path with any params, a unique operationId, access
 * (permission, scope or anonymous), zod schemas for every part, success answers; the tree
 * derives the documented error statuses and security from what is declared here.
 */
export function route<
  P extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
  R extends Responses = Responses,
>(app: FastifyInstance | ZodApp, def: RouteDef<P, Q, B, R>): void {
  const statuses = Object.keys(def.response).map(Number) as SuccessStatus[];
  const status = statuses[0] ?? 200;
  app.openapiTags.set(def.tag.name, def.tag.description);
  const options: RouteOptions = {
    method: def.method,
    url: def.url,
    config: {
      ...def.config,
      ...def.access,
      operationId: def.operationId,
      ...(def.errors && { errors: def.errors }),
      ...(def.errorFormat && { errorFormat: def.errorFormat }),
    },
    schema: {
      operationId: def.operationId,
      tags: [def.tag.name],
      summary: def.summary,
      ...(def.description && { description: def.description }),
      ...(def.deprecated && { deprecated: true }),
      ...(def.params && { params: def.params }),
      ...(def.querystring && { querystring: def.querystring }),
      ...(def.body && { body: def.body }),
      ...(def.consumes && { consumes: def.consumes }),
      ...(def.headers && { headers: def.headers }),
      response: def.response,
    },
    // A multipart body is streamed by the handler (readUpload), which checks its fields with the
    // same schema; here the schema only documents the form.
    ...(def.consumes?.length === 1 && def.consumes[0] === 'multipart/form-data' && { validatorCompiler: streamedBody }),
    handler: async (req, reply) => {
      reply.status(status);
      const input = { params: req.params, query: req.query, body: req.body } as RouteInput<P, Q, B>;
      const result = await def.handler(contextOf(req), input, reply);
      if (result === reply) return reply;
      if (reply.statusCode === 204) return reply.send();
      return result;
    },
  };
  (app as FastifyInstance).route(options);
}

const streamedBody: NonNullable<RouteOptions['validatorCompiler']> = (schema) =>
  schema.httpPart === 'body' ? () => true : validatorCompiler(schema as Parameters<typeof validatorCompiler>[0]);

declare module 'fastify' {
  interface FastifyInstance {
    /** Every operationId registered so far: two routes may not share one. */
    operationIds: Set<string>;
  }
}

/**
 * What a tree's onRoute hook does for each route: refuse one without an operationId or
 * with a taken one, and document the error statuses that follow from what the route
 * declares (params: 400/404; a query: 400; a body: 400/413/415) beside the tree's own.
 */
export function documentRoute(app: FastifyInstance, route: RouteOptions, always: ErrorStatus[]): void {
  const schema = (route.schema ?? {}) as Record<string, unknown> & { response?: Record<string, unknown> };
  const operationId = schema.operationId as string | undefined;
  if (!operationId) throw new Error(`route ${route.method} ${route.url} declares no operationId`);
  if (route.method !== 'HEAD') {
    if (app.operationIds.has(operationId)) throw new Error(`operationId ${operationId} is used twice (${route.method} ${route.url})`);
    app.operationIds.add(operationId);
  }
  // Any route may find the database unreachable: 503 database_unavailable with Retry-After.
  const statuses = new Set<ErrorStatus>([...always, 503]);
  if (schema.params) [400, 404].forEach((s) => statuses.add(s as ErrorStatus));
  if (schema.querystring) statuses.add(400);
  if (schema.body) [400, 413, 415].forEach((s) => statuses.add(s as ErrorStatus));
  for (const status of route.config?.errors ?? []) statuses.add(status);
  const response = { ...schema.response };
  const errorSchema = route.config?.errorFormat?.schema ?? errorBody;
  for (const status of [...statuses].sort((a, b) => a - b)) response[status] ??= errorSchema;
  route.schema = { ...schema, response };
  route.config = { ...route.config, operationId };
}
