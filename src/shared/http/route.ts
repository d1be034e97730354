import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest, RawServerDefault, RouteOptions } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Permission } from '../permissions.js';
import type { ErrorFormat } from '../errors.js';
import { errorBody, oncePer } from '../schemas.js';
import { idempotencyHooks, idempotencyKeyHeader } from './idempotency.js';
import { type Upload, type UploadForm, readUpload, streamedBodies } from './upload.js';
import type { Scope } from '../scopes.js';
import { routeOf } from './route-options.js';
import type { RequestContext } from '../context.js';
import type { Db } from '../../db/client.js';
import type { RecordEffect, VersionSource } from './effects.js';

export type { RequestContext } from '../context.js';

export type ZodApp = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, ZodTypeProvider>;

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

export interface RouteInput<P, Q, B, U = undefined, T = undefined> {
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
  /** The multipart form the route declares (`upload`), read whole (and staged) before the work started. */
  upload: U extends Schema ? Upload<z.output<U>, T> : undefined;
}

export interface RouteDef<
  P extends Schema | undefined,
  Q extends Schema | undefined,
  B extends Schema | undefined,
  R extends Responses,
  U extends Schema | undefined = undefined,
  T = undefined,
> {
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
   * Takes an `Idempotency-Key` (shared/http/idempotency.ts): true by default for a POST (a create,
   * an upload, an action); false where a replay makes no sense (the token endpoint, single-use links).
   */
  idempotent?: boolean;
  /**
   * A `multipart/form-data` upload (one file, text fields checked by `fields`, 413 past `limit`):
   * read whole before the work starts, so that a slow client holds no transaction, lock or
   * connection of the work's while it sends; the handler gets it as `upload`. Declare `consumes`
   * and the form as `body` beside it, for the documentation.
   */
  upload?: U extends Schema ? UploadForm<U, T> : undefined;
  /** A Backoffice write: the record it changes, for its webhook event and audit entry (effects.ts). */
  record?: RecordEffect;
  /** A Backoffice PUT, PATCH or DELETE: the read whose answer is the version If-Match names, and the record it locks. */
  version?: VersionSource;
  /** A Reader or Public read: the kind of the records it answers, named in its Surrogate-Key; null for none. */
  serves?: string | null;
  /** A Reader or Public read that must see the primary database, never a replica. */
  primary?: boolean;
  /**
   * The work: parse nothing, call one service method with the context, map, return the body.
   * Answer another declared status with `reply.status(...)`.
   */
  handler: (ctx: RequestContext, input: RouteInput<P, Q, B, U, T>, reply: FastifyReply) => Promise<Body<R> | FastifyReply | void>;
}

/** A declaration whatever its schemas, as the route table keeps it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRouteDef = RouteDef<any, any, any, any, any, any>;

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 412 | 413 | 414 | 415 | 422 | 429 | 431 | 500 | 502 | 503;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's operationId, for log lines and metrics. */
    operationId?: string;
    /** Error statuses declared by the route itself, merged with the derived ones by the tree. */
    errors?: ErrorStatus[];
    /** The route's own error shape; the error handler and documentRoute use it instead of the envelope. */
    errorFormat?: ErrorFormat;
    /** The declaration the route was made from, for another interface's twin of it (a Public operation serving a Reader one). */
    routeDef?: AnyRouteDef;
    /** Where the route is declared (`src/…:line`), when docs/routes.md is being made. */
    site?: string;
    /**
     * The Cache-Control of the route's success answers, when its tree's rule does not fit (an
     * answer drawn at random, which a shared cache must not hand to everyone): kept by every tree.
     */
    cacheControl?: string;
    /**
     * What the handler's work runs inside, set by a tree for its writes (the Backoffice's request
     * transaction and audit row): it gets the request's context and the work, gives the work the
     * context it runs in (its transaction's), and answers what the work answers.
     */
    around?: (req: FastifyRequest, reply: FastifyReply, ctx: RequestContext, work: (ctx: RequestContext) => Promise<unknown>) => Promise<unknown>;
  }
  interface FastifyInstance {
    /** Tags with their descriptions, collected from the routes for the OpenAPI document. */
    openapiTags: Map<string, string>;
    /** The database every request's context starts on (`contextOf`). */
    db: Db;
    /** The database of a `replica` route's context: DATABASE_READ_URL's, else `db`. */
    readDb: Db;
  }
}

/**
 * The context of a request, as every tree fills the request before the handler runs: outside any
 * transaction, on the replica (DATABASE_READ_URL) when its route is declared `replica` (a published
 * read of the Reader or Public tree), else on the primary. Work that must see or change the primary
 * whatever the route (a hook that writes before the handler) asks for `on: 'primary'`.
 */
export function contextOf(req: FastifyRequest, on: 'route' | 'primary' = 'route'): RequestContext {
  const principal = req.principal ?? req.bearer ?? null;
  const db = on === 'route' && routeOf(req).config.replica ? req.server.readDb : req.server.db;
  return { mediaId: principal?.mediaId ?? req.mediaId, principal, requestId: req.id, db, tx: null, preview: req.preview };
}

/** docs/routes.md's generator (MPS_ROUTE_SITES=1) asks where each route is declared; nothing else pays for it. */
const SITES = process.env.MPS_ROUTE_SITES === '1';

/**
 * Where a route is declared: the first frame of the call outside the shared mechanisms (a module's
 * routes file, or the line that mounts a declared record), as `src/…:line`.
 */
function declarationSite(): string | undefined {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 64;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  for (const line of stack.split('\n').slice(1)) {
    const found = /(src\/[^\s):]+):(\d+):\d+/.exec(line);
    if (found && !/^src\/(shared|internals)\//.test(found[1]!)) return `${found[1]}:${found[2]}`;
  }
  return undefined;
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
  U extends Schema | undefined = undefined,
  T = undefined,
>(app: FastifyInstance | ZodApp, def: RouteDef<P, Q, B, R, U, T>): void {
  // A multipart body is streamed by the handler (readUpload), which checks its fields with the
  // same schema; here the schema only documents the form.
  if (def.body && def.consumes?.length === 1 && def.consumes[0] === 'multipart/form-data') streamedBodies.add(def.body);
  const statuses = Object.keys(def.response).map(Number) as SuccessStatus[];
  const status = statuses[0] ?? 200;
  const site = SITES ? declarationSite() : undefined;
  const idempotent = def.idempotent ?? def.method === 'POST';
  app.openapiTags.set(def.tag.name, def.tag.description);
  const routeErrors: ErrorStatus[] = [...(def.errors ?? []), ...(idempotent ? ([400, 409, 422] as const) : [])];
  const config = def.config as FastifyContextConfig | undefined;
  const options: RouteOptions = {
    method: def.method,
    url: def.url,
    config: {
      ...def.config,
      ...def.access,
      operationId: def.operationId,
      routeDef: def as unknown as AnyRouteDef,
      ...(routeErrors.length > 0 && { errors: [...new Set(routeErrors)] }),
      // A replay answers the stored answer, an error as well as a success.
      ...(idempotent && { idempotent, answerHeaders: [...(config?.answerHeaders ?? []), 'Idempotent-Replayed' as const] }),
      ...(def.errorFormat && { errorFormat: def.errorFormat }),
      ...(def.record && { record: def.record }),
      ...(def.version && { version: def.version }),
      ...(def.serves !== undefined && { serves: def.serves }),
      ...(def.primary && { primary: true }),
      ...(site && { site }),
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

    handler: async (req, reply) => {
      reply.status(status);
      const ctx = contextOf(req);
      const form = def.upload as UploadForm<Schema, T> | undefined;
      const read = form ? await readUpload(req, form) : undefined;
      const upload = read && form?.stage ? { ...read, staged: await form.stage(ctx, read, req.params as Record<string, string>) } : read;
      const input = { params: req.params, query: req.query, body: req.body, upload } as RouteInput<P, Q, B, U, T>;
      const around = routeOf(req).config.around;
      const result = around ? await around(req, reply, ctx, (inner) => def.handler(inner, input, reply)) : await def.handler(ctx, input, reply);
      if (result === reply) return reply;
      if (reply.statusCode === 204) return reply.send();
      return result;
    },
  };
  (app as FastifyInstance).route(idempotent ? { ...options, ...idempotencyHooks(options) } : options);
}


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
  // Any route may find the database unreachable (503 database_unavailable with Retry-After), fail
  // (500, logged), be refused by Node's parser for headers over its limit (431), or be sent text
  // that cannot be stored (a NUL in the query string: 400 invalid_text).
  const statuses = new Set<ErrorStatus>([...always, 400, 431, 500, 503]);
  // A body is read whatever the route declares: too large (413) or of a type no parser takes (415).
  if (route.method !== 'GET' && route.method !== 'HEAD') [413, 415].forEach((s) => statuses.add(s as ErrorStatus));
  // The router refuses a path parameter over its length limit (414) before any route runs.
  if (schema.params) [400, 404, 414].forEach((s) => statuses.add(s as ErrorStatus));
  if (schema.querystring) statuses.add(400);
  if (schema.body) [400, 413, 415].forEach((s) => statuses.add(s as ErrorStatus));
  for (const status of route.config?.errors ?? []) statuses.add(status);
  if (route.config?.idempotent) schema.headers = withHeader(schema.headers, 'idempotency-key', idempotencyKeyHeader);
  const response = { ...schema.response };
  const errorSchema = route.config?.errorFormat?.schema ?? errorBody;
  // The router's and Node's refusals come before the route, so in the envelope whatever the route's own format.
  const refusedEarly = new Set<number>([414, 431]);
  for (const status of [...statuses].sort((a, b) => a - b)) response[status] ??= refusedEarly.has(status) ? errorBody : errorSchema;
  route.schema = { ...schema, response };
  route.config = { ...route.config, operationId };
}

/**
 * A route's headers schema with one more optional header (for validation and OpenAPI), one object
 * per base and header, so that the OpenAPI document converts it once for every route alike.
 */
export function withHeader(headers: unknown, name: string, schema: z.ZodType): unknown {
  if (headers !== undefined && !(headers instanceof z.ZodObject)) return headers;
  const byHeader = extendedHeaders(headers ?? NO_HEADERS);
  const known = byHeader.get(name);
  if (known?.schema === schema) return known.extended;
  const extended = headers === undefined ? z.object({ [name]: schema }) : (headers as z.ZodObject).extend({ [name]: schema });
  byHeader.set(name, { schema, extended });
  return extended;
}
const NO_HEADERS = {};
const extendedHeaders = oncePer((_base: object) => new Map<string, { schema: z.ZodType; extended: z.ZodObject }>());
