import closeWithGrace from 'close-with-grace';
import { Server as NetServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { App } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { describeDatabaseError, oneLine } from './db/database-errors.js';
import { loadEnvFile } from './env-file.js';
import { createLogger } from './logger.js';
import { StartupError, reservePort } from './startup.js';
import { startTelemetry } from './telemetry.js';

/** After the delay, the time a draining instance still has to finish and close. */
const SHUTDOWN_GRACE_MS = 10_000;
// Between closing the listener and closing idle connections: a connection accepted a moment
// before, or a keep-alive client that had its answer just before the signal, sends its request
// within moments; it is read and answered (with `Connection: close`) instead of reset.
const KEEP_ALIVE_SETTLE_MS = 250;

/**
 * Everything of a graceful stop before the database closes: readiness off, keep-alive
 * connections closing after their next answer, the listener closed, connections that were
 * accepted read and answered, idle ones closed, and every connection gone.
 */
async function drain(app: App, delayMs: number): Promise<void> {
  app.beginShutdown();
  await sleep(delayMs);
  // net's close, not http's: http's would also cut, at once, connections accepted a moment
  // ago whose request has not been read yet. Resolves when the last connection has closed.
  const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(app.server, () => resolve()));
  await sleep(KEEP_ALIVE_SETTLE_MS);
  app.server.closeIdleConnections();
  await closed;
}

async function main() {
  // Milliseconds since the process started (Node's own start and the TypeScript loader included).
  const elapsed = () => Math.round(performance.now());
  loadEnvFile();
  const config = loadConfig();
  const logger = createLogger(config);
  logger.info({ pid: process.pid, node: process.version, ms: elapsed() }, 'starting');
  // Before anything is created: a busy port must not cost a new admin key or a migrated database.
  const port = await reservePort(config.port, config.host);
  // Traces (OTEL_EXPORTER_OTLP_ENDPOINT): started before the app is built, so that it joins it.
  const stopTelemetry = await startTelemetry(config);
  // Only now the rest: "starting" and a busy port come before the database drivers load, and the
  // app's modules load while the database opens (PGlite's start is mostly WebAssembly work outside
  // the module loader), neither waiting for the other.
  const appModule = Promise.all([import('./app.js'), import('./bootstrap.js')]);
  appModule.catch(() => {}); // awaited below; a failure is reported there, not as an unhandled rejection
  const [{ createDatabase }, { migrate }, { withStartupLock }] = await Promise.all([
    import('./db/client.js'),
    import('./db/migrate.js'),
    import('./db/startup-lock.js'),
  ]);
  const database = await createDatabase({
    databaseUrl: config.databaseUrl,
    readDatabaseUrl: config.databaseReadUrl,
    dataDir: config.databaseUrl ? undefined : join(config.dataDir, 'pglite'),
    logger,
  });
  logger.info({ database: database.kind, read_replica: Boolean(database.readPool), ms: elapsed() }, 'database open');
  // Instances starting together migrate one after the other.
  const applied = await withStartupLock(database, () => migrate(database));
  logger.info({ applied, ms: elapsed() }, `migrations applied: ${applied}`);
  // ioredis is loaded only where REDIS_URL is set.
  const redis = config.redisUrl
    ? new (await import('ioredis')).Redis(config.redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 2_000, enableOfflineQueue: false })
    : undefined;
  redis?.on('error', (err) => logger.warn({ err: { message: err.message } }, 'redis error'));

  const [{ buildApp }, { bootstrap }] = await appModule;
  const app = await buildApp({ config, database, logger, ...(redis && { redis }) });
  await withStartupLock(database, () => bootstrap(app.services, config, logger));
  app.addHook('onClose', async () => {
    redis?.disconnect();
  });

  // SIGTERM/SIGINT, in this order: /ready turns 503 and answers start closing their keep-alive
  // connections; during the delay (the load balancer's time to notice, and the time for requests
  // already on their way to be accepted and read) the server still accepts and serves; then it
  // stops accepting, idle connections close, every request already read gets its answer; then the
  // pool (or PGlite) closes, after the queries still running. Grace: the delay plus 10 s.
  const { sigterm, sigint } = config.shutdownDelayMs;
  closeWithGrace({ delay: Math.max(sigterm, sigint) + SHUTDOWN_GRACE_MS, logger }, async ({ signal, err }) => {
    const delayMs = signal === 'SIGTERM' ? sigterm : sigint;
    if (err) logger.error({ err }, 'shutting down after an error');
    else logger.info({ signal, delay_ms: delayMs }, 'shutting down');
    await drain(app, delayMs);
    await app.close();
    await stopTelemetry();
    logger.info('closed');
  });

  await port.release();
  const address = await app.listen({ port: config.port, host: config.host });
  const cpu = process.cpuUsage();
  logger.info({ address, database: database.kind, ms: elapsed(), cpu_ms: Math.round((cpu.user + cpu.system) / 1000) }, 'listening');
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof StartupError) {
    console.error(err.message);
  } else {
    console.error(`start-up failed: ${describeDatabaseError(err, process.env.DATABASE_URL || undefined) ?? oneLine(err)}`);
  }
  process.exit(1);
});
