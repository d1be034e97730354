import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '../db/connection-errors.js';
import { AppError, type ErrorDetail, PG_FOREIGN_KEY_VIOLATION, PG_UNIQUE_VIOLATION, pgErrorCode } from '../shared/errors.js';
import { findBadText } from './text-rule.js';
import { routeOf } from '../shared/http/route-options.js';

// Fastify's own 4xx errors, with a fixed message each so no internal text reaches a client.
const FRAMEWORK_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'payload_too_large', message: 'the request body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'unsupported_media_type',
    message: 'the request body must be application/json',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'invalid_json', message: 'the JSON body is empty' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'invalid_json', message: 'the request body is not valid JSON' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'bad_request', message: 'content-length does not match the body' },
  FST_ERR_CTP_INVALID_TYPE: { status: 400, code: 'bad_request', message: 'the content-type header is invalid' },
  FST_ERR_BAD_URL: { status: 400, code: 'bad_request', message: 'the URL is malformed' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, code: 'url_too_long', message: 'a path parameter is too long' },
};

/** Longest piece of a request (a key, a path) that an error answer may repeat. */
const ECHO_LIMIT = 200;
const MAX_DETAILS = 50;

const clip = (text: string) => (text.length > ECHO_LIMIT ? `${text.slice(0, ECHO_LIMIT - 1)}…` : text);

// Clients may retry after this many seconds; the pool reconnects on the next request.
const RETRY_AFTER_SECONDS = '1';

/** The one answer to a database that cannot be reached: the error handler's, and /ready's. */
export const databaseUnavailable = () =>
  new AppError(503, 'database_unavailable', 'the database is unavailable; retry shortly', undefined, {
    'retry-after': RETRY_AFTER_SECONDS,
  });

const GENERIC_4XX: Record<number, string> = {
  400: 'bad request',
  404: 'not found',
  405: 'method not allowed',
  406: 'not acceptable',
  408: 'request timeout',
  413: 'the request body is too large',
  414: 'the URL is too long',
  415: 'unsupported media type',
  429: 'too many requests',
  431: 'request headers too large',
};

type ValidationIssue = { instancePath: string; message?: string; keyword: string; params: Record<string, unknown> };

const toPath = (instancePath: string) => instancePath.replace(/^\//, '').replace(/\//g, '.');

function validationError(context: string | undefined, issues: ValidationIssue[]): AppError {
  // A malformed id in the path: the spec's 400 with one readable `error` sentence.
  if (context === 'params') {
    const bad = issues.find((i) => i.params.format === 'uuid');
    if (bad) {
      const name = toPath(bad.instancePath);
      return new AppError(400, 'invalid_uuid', `invalid UUID in path parameter ${name}`, [
        { path: name, message: 'must be a UUID' },
      ]);
    }
  }
  const where = context === 'body' ? 'request body' : context === 'querystring' ? 'query string' : context ?? 'request';
  // Keys and messages can repeat what the client sent (an unknown key, 10,000 characters long).
  const details: ErrorDetail[] = issues.slice(0, MAX_DETAILS).map((i) => ({
    path: clip(toPath(i.instancePath) || (i.keyword === 'unrecognized_keys' ? String((i.params.keys as string[]) ?? '') : '')),
    message: clip(i.message ?? 'is invalid'),
  }));
  const first = details[0];
  const summary = first ? `${first.path ? `${first.path}: ` : ''}${first.message}` : 'is invalid';
  return new AppError(400, 'validation_failed', `the ${where} is invalid (${clip(summary)})`, details);
}

function toAppError(err: FastifyError): AppError | undefined {
  if (err instanceof AppError) return err;
  if (hasZodFastifySchemaValidationErrors(err)) {
    return validationError(err.validationContext, err.validation as unknown as ValidationIssue[]);
  }
  // A lost or refused database connection is the database's state, not a bug: 503, retry.
  if (isDatabaseUnavailable(err)) return databaseUnavailable();
  // Text PostgreSQL cannot store (a NUL character) comes from the client's input: a 400, not a 500.
  const sqlState = pgErrorCode(err);
  if (sqlState === '22021' || sqlState === '22P05') {
    return new AppError(400, 'invalid_text', 'the request contains characters that cannot be stored (such as NUL)');
  }
  // Repositories translate the constraints they expect into named 409s; one that reaches this
  // far (a race, a restore meeting a live twin) is still a conflict, never a 500.
  if (sqlState === PG_UNIQUE_VIOLATION) {
    return new AppError(409, 'conflict', 'the request conflicts with an existing record');
  }
  if (sqlState === PG_FOREIGN_KEY_VIOLATION) {
    return new AppError(409, 'conflict', 'the request refers to a record that does not exist, or one that is still in use');
  }
  const known = err.code ? FRAMEWORK_ERRORS[err.code] : undefined;
  if (known) return new AppError(known.status, known.code, known.message);
  // Other client errors raised by Fastify or a plugin (never a 5xx): a fixed sentence per status.
  if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500 && !isResponseSerializationError(err)) {
    return new AppError(err.statusCode, 'bad_request', GENERIC_4XX[err.statusCode] ?? 'bad request');
  }
  return undefined;
}

// Drizzle puts the bound parameters of a failed query in its message ("params: ..."); those
// can be secrets or hashes, so the log keeps the SQL text but never the values.
const withoutParams = (text: string | undefined) =>
  text?.replace(/\nparams: [\s\S]*?(?=\n\s+at |$)/, '\nparams: [redacted]');

function loggable(err: FastifyError) {
  const cause = err.cause as { message?: string; code?: string } | undefined;
  return {
    type: err.name,
    message: withoutParams(err.message),
    stack: withoutParams(err.stack),
    sqlState: pgErrorCode(err),
    ...(cause && { cause: { message: withoutParams(cause.message), code: cause.code } }),
  };
}

/** The envelope of an AppError. */
function envelope(appError: AppError) {
  const body: { error: string; code: string; details?: ErrorDetail[] } = { error: appError.message, code: appError.code };
  if (appError.details) body.details = appError.details;
  return body;
}

function invalidText(path: string): AppError {
  const shown = clip(path.replace(/[\0\uD800-\uDFFF]/g, '\uFFFD'));
  return new AppError(400, 'invalid_text', 'the request contains text that cannot be stored (a NUL character or an unpaired surrogate)', [
    { path: shown, message: 'must not contain NUL characters or unpaired UTF-16 surrogates' },
  ]);
}

/**
 * Router failures that happen before any route or hook (a path parameter over maxParamLength,
 * a URL that does not decode): Fastify's own answer would echo the URL and an internal code.
 */
export function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  const known = FRAMEWORK_ERRORS[err.code];
  const appError = known ? new AppError(known.status, known.code, known.message) : new AppError(400, 'bad_request', 'bad request');
  req.log.info({ status: appError.statusCode, code: appError.code }, 'request refused by the router');
  return reply.status(appError.statusCode).header('x-request-id', req.id).send(envelope(appError));
}

const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request_timeout', 'the request took too long to arrive'],
  HPE_HEADER_OVERFLOW: [431, 'headers_too_large', 'the request headers are too large'],
};

/**
 * Requests Node's HTTP parser refuses (headers over 16 KB, a malformed request line) never
 * reach Fastify; this writes the envelope on the socket instead of Node's or Fastify's body.
 */
export function clientErrorHandler(err: Error & { code?: string }, socket: Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] = CLIENT_ERRORS[err.code ?? ''] ?? [400, 'bad_request', 'the request is malformed'];
  const body = JSON.stringify({ error: message, code });
  if (socket.writable) {
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  } else {
    socket.destroy();
  }
}

/** Fastify options that route the router's and Node's own refusals through the envelope. */
export const envelopeServerOptions = { frameworkErrors, clientErrorHandler } satisfies Pick<
  FastifyServerOptions,
  'frameworkErrors' | 'clientErrorHandler'
>;

/**
 * One place that turns every failure into `{error, code, details?}`, and the one string rule
 * (no NUL, no unpaired surrogate) for every value of every request, checked before validation.
 */
export const errorHandlerPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('preValidation', (req, _reply, done) => {
      const bad = findBadText(req.params) ?? findBadText(req.query) ?? findBadText(req.body);
      done(bad === undefined ? undefined : invalidText(bad));
    });

    app.setErrorHandler((err: FastifyError, req, reply) => {
      const appError = toAppError(err);
      // A route may answer its errors in a standard's shape (RFC 6749 at the token endpoint).
      const format = routeOf(req).config?.errorFormat?.format;
      if (!appError) {
        req.log.error({ err: loggable(err) }, 'request failed');
        const internal = { error: 'internal error', code: 'internal' };
        return reply.status(500).send(format ? format(internal, 500) : internal);
      }
      if (appError.code === 'database_unavailable') req.log.warn({ err: { message: withoutParams(err.message) } }, 'database unavailable');
      // Another 503 is the service's own back-pressure (too many image transforms waiting).
      else if (appError.statusCode === 503) req.log.warn({ code: appError.code }, 'service busy');
      if (appError.headers) reply.headers(appError.headers);
      const body = envelope(appError);
      return reply.status(appError.statusCode).send(format ? format(body, appError.statusCode) : body);
    });

    app.setNotFoundHandler((req, reply) =>
      reply
        .status(404)
        .send({ error: `no route ${req.method} ${req.url.split('?')[0]!.slice(0, ECHO_LIMIT)}`, code: 'route_not_found' }),
    );
  },
  { name: 'error-handler' },
);
