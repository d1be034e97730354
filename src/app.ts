import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { type Services, createServices } from './container.js';
// After the container: the modules' schemas register (and so list in OpenAPI) in its import order.
import { type AppArea, areasByTree } from './areas.js';
import type { Database } from './db/client.js';
import type { MailTransport } from './modules/messenger/index.js';
import { backofficeTree } from './interfaces/backoffice/index.js';
import { deliveryTree } from './interfaces/delivery/index.js';
import { operatorTree } from './interfaces/operator/index.js';
import { publicTree } from './interfaces/public/index.js';
import { readerTree, readerWellKnownTree } from './interfaces/reader/index.js';
import { createAuthFailureThrottle } from './plugins/auth-failures.js';
import { envelopeServerOptions, errorHandlerPlugin } from './plugins/error-handler.js';
import { healthPlugin } from './plugins/health.js';
import { requestLogPlugin } from './plugins/request-log.js';
import { securityHeadersPlugin } from './plugins/security-headers.js';
import { serializerCompiler } from './plugins/serializer.js';
import { validatorCompiler } from './plugins/validator.js';
import { etagsReady } from './shared/http/conditional.js';
import { idempotencyStore } from './shared/http/idempotency.js';
import { createCacheBus } from './shared/cache-bus.js';
import { swaggerPlugin } from './plugins/swagger.js';
import { createLogger, requestLogger } from './logger.js';
import { decorateRouteOptions } from './shared/http/route-options.js';
import { applyInternals } from './internals/index.js';

export interface AppDeps {
  config: Config;
  database: Database;
  logger?: Logger;
  redis?: Redis;
  /** Where mail goes instead of SMTP_URL's server (tests, bench). */
  mailTransport?: MailTransport;
  /**
   * The service's shared secrets by name (the cursors' HMAC key, the mail links' token key); when
   * left out, read from the database, where the first instance to start creates them.
   */
  secret?: (name: string) => Promise<Buffer>;
  /** false: the job runner does not look for waiting work when the app is ready (an app built for its OpenAPI document). */
  findWork?: boolean;
  /** Areas mounted after the service's own, in each tree (a test's fixture area); never in production. */
  areas?: readonly AppArea[];
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

export type App = FastifyInstance<Server, IncomingMessage, ServerResponse, FastifyBaseLogger, ZodTypeProvider>;

// An incoming x-request-id is kept only when it is short and plain, so it cannot forge log lines.
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * A hop count means the address that many proxies back, as in Express; Fastify itself trusts no
 * hop for a number (since 5.12), so a count goes as proxy-addr's trust function.
 */
const trustProxyOption = (trust: Config['trustProxy']) =>
  typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust;

/** The whole HTTP application; the server and every test build it the same way. */
export async function buildApp(deps: AppDeps): Promise<App> {
  const { config, database } = deps;
  const logger = deps.logger ?? createLogger(config);
  await etagsReady;

  const serializer = serializerCompiler({ verify: config.env === 'test' });
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    // requestLogPlugin writes the one line per request.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.bodyLimit,
    // TRUST_PROXY: req.ip, req.protocol and req.host come from X-Forwarded-* only when the proxy is trusted.
    trustProxy: trustProxyOption(config.trustProxy),
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    routerOptions: { maxParamLength: 200 },
    // The request's child logger is made when something logs through it (most requests never do).
    childLoggerFactory: requestLogger,
    // The router's and Node's own refusals (414, 431, a malformed request) answer the envelope too.
    ...envelopeServerOptions,
    // Shutdown (src/main.ts): requests read on open connections while the server closes are
    // answered in full (with `Connection: close`) rather than refused, and idle ones are closed.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    // Our compilers given as Fastify's compilers factory rather than set after: set after, Fastify
    // would first have loaded its own defaults (Ajv and fast-json-stringify, about a tenth of the
    // service's start-up CPU), which no route uses. (The factories' types are Ajv's and
    // fast-json-stringify's; Fastify calls what they return as it calls a compiler set after.)
    schemaController: {
      compilersFactory: {
        buildValidator: (() => validatorCompiler) as never,
        buildSerializer: (() => serializer) as never,
      },
    },
  }).withTypeProvider<ZodTypeProvider>();

  // JSON (and, where a route opts in, forms) only: anything else is a 415.
  app.removeContentTypeParser('text/plain');
  // An empty JSON body means "no body" (POST .../restore from clients that always send
  // the header); anything else goes through Fastify's own safe parser.
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (body === '') return done(null, undefined);
    return defaultJson(req, body as string, done);
  });

  // REDIS_URL: a key revoked (a client, a provider, a media or file changed) on one instance is
  // forgotten by every other at once, not when its cache entry expires.
  const cacheBus = createCacheBus({ redis: deps.redis, logger });
  const services = await createServices({
    db: database.db,
    cacheBus,
    logger,
    publicBaseUrl: config.publicBaseUrl,
    allowInsecureProviderUrls: config.oauthAllowInsecureProviders,
    assets: {
      storage: { dir: config.storageDir, s3: config.s3 },
      uploads: { upload: config.uploadLimit, readerUpload: config.readerUploadLimit, readerPerMinute: config.readerUploadRateLimit },
      publicBaseUrl: config.publicBaseUrl,
    },
    webhooks: { allowPrivate: config.webhookAllowPrivate, retryBaseMs: config.webhookRetryBaseMs, deliveryRetentionDays: config.webhookDeliveryRetentionDays },
    auditRetentionDays: config.auditRetentionDays,
    revisionRetentionDays: config.revisionRetentionDays,
    mail: { smtpUrl: config.smtpUrl, from: config.mailFrom, leaseSeconds: config.mailLeaseSeconds, ...(deps.mailTransport && { transport: deps.mailTransport }) },
    ...(deps.secret && { secret: deps.secret }),
  });
  app.decorate('services', services);
  app.decorate('db', database.db);
  // DATABASE_READ_URL: the database of the contexts of the reads the Reader and Public trees mark `replica`.
  app.decorate('readDb', database.readDb ?? database.db);
  app.decorate('idempotencyKeys', idempotencyStore(database.db));
  app.decorate('revisions', services.core.revisions);
  app.decorate('routeTable', []);
  app.decorate('operationIds', new Set<string>());
  app.decorate('openapiTags', new Map<string, string>());
  app.decorateRequest('principal', null as never);
  app.decorateRequest('linkOrigin', '');
  app.decorateRequest('mediaId', '');
  app.decorateRequest('bearer', null as never);
  app.decorateRequest('media', null as never);
  app.decorateRequest('preview', null);
  decorateRouteOptions(app);
  // Before any plugin is registered: the tweaks to the libraries' internals (src/internals).
  applyInternals(app);

  await app.register(errorHandlerPlugin);
  await app.register(requestLogPlugin);
  // Before any route, so that each gets its observer; absent unless METRICS_TOKEN or METRICS_PORT is set.
  if (config.metricsToken || config.metricsPort) {
    // Loaded only here: prom-client's code is a start-up cost of its own, which an instance without metrics skips.
    const { metricsPlugin } = await import('./plugins/metrics.js');
    await app.register(metricsPlugin, { token: config.metricsToken, port: config.metricsPort, host: config.host, pool: database.pool });
  }
  await app.register(securityHeadersPlugin);
  await app.register(swaggerPlugin, { operator: Boolean(config.operatorApiKey), publicBaseUrl: config.publicBaseUrl });
  await app.register(healthPlugin, { database });

  const trees = {
    config,
    services,
    redis: deps.redis,
    authFailures: createAuthFailureThrottle(config.authFailureLimit, deps.redis),
    areas: areasByTree(deps.areas ?? [], services, database.db),
  };
  await app.register(backofficeTree, trees);
  await app.register(readerTree, { ...trees, prefix: '/api/media/v1' });
  await app.register(readerWellKnownTree, { ...trees, prefix: '/.well-known' });
  await app.register(publicTree, { ...trees, prefix: '/api/public' });
  await app.register(deliveryTree, trees);
  // Only where OPERATOR_API_KEY is set: otherwise /operator/v1 does not exist at all.
  if (config.operatorApiKey) await app.register(operatorTree, { ...trees, operatorApiKey: config.operatorApiKey, prefix: '/operator/v1' });

  app.addHook('onClose', () => services.core.storage.close());
  // The job queues (messenger's sends, webhook deliveries) work while the app is up: started once ready
  // when work waits, else with the first job; stopped before the database closes, after the outbox's run.
  if (deps.findWork !== false) app.addHook('onReady', () => services.jobs.ready());
  app.addHook('onClose', async () => {
    await services.messenger.stop();
    await services.jobs.stop();
    await cacheBus.close();
    await database.close();
  });

  return app;
}
