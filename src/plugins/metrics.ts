import { createHash, timingSafeEqual } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest, onResponseHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type pg from 'pg';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { AppError } from '../shared/errors.js';

export interface MetricsOptions {
  /** METRICS_TOKEN: GET /metrics on the API's port, for this bearer token only. */
  token?: string | undefined;
  /** METRICS_PORT: GET /metrics on a listener of its own (opened when the app listens). */
  port?: number | undefined;
  host?: string | undefined;
  /** The PostgreSQL pool, whose usage is reported; PGlite has none. */
  pool?: pg.Pool | undefined;
}

const UNKNOWN = 'unknown';

/** The registry of one app: its own, so that several apps in one process (tests) do not collide. */
function createMetrics(pool: pg.Pool | undefined) {
  const registry = new Registry();
  // Process CPU and memory, GC, and the event-loop delay (nodejs_eventloop_lag_*).
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from the request to its answer, by operationId (unknown: no route), method and status',
    labelNames: ['operation', 'method', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const rateLimited = new Counter({
    name: 'http_rate_limited_total',
    help: 'Requests refused with 429 by a rate limit or the failed-authentication throttle, by operationId',
    labelNames: ['operation'] as const,
    registers: [registry],
  });
  if (pool) {
    const gauge = (name: string, help: string, read: () => number) =>
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          this.set(read());
        },
      });
    gauge('db_pool_connections', 'PostgreSQL connections open in the pool', () => pool.totalCount);
    gauge('db_pool_idle_connections', 'PostgreSQL connections open and idle', () => pool.idleCount);
    gauge('db_pool_waiting_requests', 'Queries waiting for a free connection', () => pool.waitingCount);
  }
  return { registry, duration, rateLimited };
}

type Metrics = ReturnType<typeof createMetrics>;

/**
 * The one onResponse hook of a route: the labels are known when the route is declared, so
 * a request costs a map lookup and an observation, and allocates nothing once each status has
 * been seen.
 */
type Observe = (req: FastifyRequest, reply: FastifyReply, done: () => void) => void;

function observer(metrics: Metrics, operation: string, method: string): Observe {
  const byStatus = new Map<number, ReturnType<Metrics['duration']['labels']>>();
  let limited: ReturnType<Metrics['rateLimited']['labels']> | undefined;
  return (_req, reply, done) => {
    const status = reply.statusCode;
    let child = byStatus.get(status);
    if (!child) byStatus.set(status, (child = metrics.duration.labels(operation, method, String(status))));
    child.observe(reply.elapsedTime / 1000);
    if (status === 429) (limited ??= metrics.rateLimited.labels(operation)).inc();
    done();
  };
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Compares in constant time (over hashes, so the lengths do not show either). */
function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  const match = header ? /^Bearer[ ]+(\S+)\s*$/i.exec(header) : null;
  return match !== null && timingSafeEqual(digest(match[1]!), expected);
}

/**
 * Prometheus metrics with prom-client: request durations by operationId, method and status,
 * rate-limit refusals, pool usage on PostgreSQL and the process's own (event-loop delay
 * included). Registered only when METRICS_TOKEN or METRICS_PORT is set: otherwise no hook
 * runs and /metrics does not exist.
 */
export const metricsPlugin = fp<MetricsOptions>(
  async (app: FastifyInstance, options) => {
    const metrics = createMetrics(options.pool);
    const expected = options.token ? digest(options.token) : undefined;
    const authorized = (authorization: string | undefined) => !expected || bearerMatches(authorization, expected);

    app.addHook('onRoute', (route) => {
      const operation = String(route.config?.operationId ?? (route.schema as { operationId?: string } | undefined)?.operationId ?? route.url);
      const method = [route.method].flat().join(',');
      route.onResponse = [...[route.onResponse ?? []].flat(), observer(metrics, operation, method) as onResponseHookHandler];
    });
    // Requests no route matched, labelled as such: one series, whatever the path.
    const unmatched = new Map<string, Observe>();
    app.addHook('onResponse', (req, reply, done) => {
      if (!req.is404) return done();
      let observe = unmatched.get(req.method);
      if (!observe) unmatched.set(req.method, (observe = observer(metrics, UNKNOWN, req.method)));
      observe(req, reply, done);
    });

    if (options.token) {
      app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
        if (!authorized(req.headers.authorization)) {
          throw new AppError(401, 'invalid_token', 'GET /metrics needs the metrics bearer token', undefined, {
            'www-authenticate': 'Bearer realm="metrics"',
          });
        }
        return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
      });
    }

    if (options.port !== undefined) {
      const server = metricsServer(metrics.registry, authorized);
      const port = options.port;
      // Opened with the API's listener (not for app.inject); a busy port is logged, and the API serves on.
      app.addHook('onListen', async () => {
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(port, options.host, () => {
            server.off('error', reject);
            resolve();
          });
        });
        app.log.info({ port }, 'metrics listening');
      });
      app.addHook('onClose', async () => {
        if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
      });
    }
  },
  { name: 'metrics' },
);

/** METRICS_PORT's listener: GET /metrics and nothing else. */
function metricsServer(registry: Registry, authorized: (authorization: string | undefined) => boolean): Server {
  const answer = (res: ServerResponse, status: number, body: string, type = 'application/json; charset=utf-8') => {
    res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), 'x-content-type-options': 'nosniff' });
    res.end(body);
  };
  return createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.split('?')[0] !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      return answer(res, 404, JSON.stringify({ error: 'only GET /metrics is served here', code: 'route_not_found' }));
    }
    if (!authorized(req.headers.authorization)) {
      res.setHeader('www-authenticate', 'Bearer realm="metrics"');
      return answer(res, 401, JSON.stringify({ error: 'GET /metrics needs the metrics bearer token', code: 'invalid_token' }));
    }
    registry.metrics().then(
      (body) => answer(res, 200, body, registry.contentType),
      () => answer(res, 500, JSON.stringify({ error: 'internal error', code: 'internal' })),
    );
  });
}
