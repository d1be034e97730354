import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import fp from 'fastify-plugin';
import { routeOf } from '../shared/http/route-options.js';

// Query parameters that may carry secrets; their values never reach a log line.
const SECRET_PARAMS = ['api_key', 'code', 'code_verifier', 'client_secret', 'refresh_token', 'access_token', 'token', 'password'];

/** The URL with secret query values replaced, for logs. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const name of SECRET_PARAMS) if (params.has(name)) params.set(name, '[redacted]');
  return `${url.slice(0, q)}?${params.toString()}`;
}

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'headers.authorization',
  'headers["x-api-key"]',
  'headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.client_secret',
  '*.refresh_token',
  '*.access_token',
  '*.secret',
];

/** Whether `log` writes lines of `level`: the app's logger is pino, which can say so (any other is assumed to). */
export const levelEnabled = (log: FastifyBaseLogger, level: string): boolean =>
  (log as FastifyBaseLogger & Partial<Pick<Logger, 'isLevelEnabled'>>).isLevelEnabled?.(level) ?? true;

/**
 * One line per request: request id, route, status, duration. Both hooks are plain callbacks
 * (no promise per request), and the line is built only when the level writes it.
 */
export const requestLogPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRequest', (req, reply, done) => {
      reply.header('x-request-id', req.id);
      done();
    });
    app.addHook('onResponse', (req: FastifyRequest, reply, done) => {
      if (levelEnabled(req.log, 'info')) {
        req.log.info(
          {
            method: req.method,
            url: redactUrl(req.url),
            route: routeOf(req).url ?? null,
            operation: routeOf(req).config.operationId ?? null,
            status: reply.statusCode,
            duration_ms: Math.round(reply.elapsedTime * 100) / 100,
            ip: req.ip,
          },
          'request completed',
        );
      }
      done();
    });
  },
  { name: 'request-log' },
);
