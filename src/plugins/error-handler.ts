import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError, type ErrorDetail, pgErrorCode } from '../shared/errors.js';

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
};

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
  const details: ErrorDetail[] = issues.map((i) => ({
    path: toPath(i.instancePath) || (i.keyword === 'unrecognized_keys' ? String((i.params.keys as string[]) ?? '') : ''),
    message: i.message ?? 'is invalid',
  }));
  const first = details[0];
  const summary = first ? `${first.path ? `${first.path}: ` : ''}${first.message}` : 'is invalid';
  return new AppError(400, 'validation_failed', `the ${where} is invalid (${summary})`, details);
}

function toAppError(err: FastifyError): AppError | undefined {
  if (err instanceof AppError) return err;
  if (hasZodFastifySchemaValidationErrors(err)) {
    return validationError(err.validationContext, err.validation as unknown as ValidationIssue[]);
  }
  // Text PostgreSQL cannot store (a NUL character) comes from the client's input: a 400, not a 500.
  const sqlState = pgErrorCode(err);
  if (sqlState === '22021' || sqlState === '22P05') {
    return new AppError(400, 'invalid_text', 'the request contains characters that cannot be stored (such as NUL)');
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

/** One place that turns every failure into `{error, code, details?}`. */
export const errorHandlerPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((err: FastifyError, req, reply) => {
      const appError = toAppError(err);
      if (!appError) {
        req.log.error({ err: loggable(err) }, 'request failed');
        return reply.status(500).send({ error: 'internal error', code: 'internal' });
      }
      if (appError.headers) reply.headers(appError.headers);
      const body: { error: string; code: string; details?: ErrorDetail[] } = {
        error: appError.message,
        code: appError.code,
      };
      if (appError.details) body.details = appError.details;
      return reply.status(appError.statusCode).send(body);
    });

    app.setNotFoundHandler((req, reply) =>
      reply
        .status(404)
        .send({ error: `no route ${req.method} ${req.url.split('?')[0]!.slice(0, 200)}`, code: 'route_not_found' }),
    );
  },
  { name: 'error-handler' },
);
