import closeWithGrace from 'close-with-grace';
import { Redis } from 'ioredis';
import { Server as NetServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type App, buildApp } from './app.js';
import { bootstrap } from './bootstrap.js';
import { ConfigError, loadConfig } from './config.js';
import { createDatabase } from './db/client.js';
import { migrate } from './db/migrate.js';
import { withStartupLock } from './db/startup-lock.js';
import { createLogger } from './logger.js';

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
  const config = loadConfig();
  const logger = createLogger(config);
  const database = await createDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.databaseUrl ? undefined : join(config.dataDir, 'pglite'),
    logger,
  });
  // Instances starting together migrate one after the other.
  await withStartupLock(database, () => migrate(database));
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 2_000, enableOfflineQueue: false })
    : undefined;
  redis?.on('error', (err) => logger.warn({ err: { message: err.message } }, 'redis error'));

  const app = await buildApp({ config, database, logger, ...(redis && { redis }) });
  await withStartupLock(database, () => bootstrap(app.services, config, logger));
  app.addHook('onClose', async () => {
    redis?.disconnect();
  });

  // SIGTERM/SIGINT, in this order: /ready turns 503 and answers start closing their keep-alive
  // connections; after SHUTDOWN_DELAY_MS (the load balancer's time to notice) the server stops
  // accepting, idle connections close, every request already read gets its answer; then the
  // pool (or PGlite) closes, after the queries still running. Grace: the delay plus 10 s.
  closeWithGrace({ delay: config.shutdownDelayMs + SHUTDOWN_GRACE_MS, logger }, async ({ signal, err }) => {
    if (err) logger.error({ err }, 'shutting down after an error');
    else logger.info({ signal, delay_ms: config.shutdownDelayMs }, 'shutting down');
    await drain(app, config.shutdownDelayMs);
    await app.close();
    logger.info('closed');
  });

  await app.listen({ port: config.port, host: config.host });
  logger.info({ database: database.kind }, 'ready');
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    console.error(err.message);
  } else {
    console.error('start-up failed:', err instanceof Error ? err.message : err);
  }
  process.exit(1);
});
