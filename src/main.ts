import closeWithGrace from 'close-with-grace';
import { Redis } from 'ioredis';
import { join } from 'node:path';
import { buildApp } from './app.js';
import { bootstrap } from './bootstrap.js';
import { ConfigError, loadConfig } from './config.js';
import { createDatabase } from './db/client.js';
import { migrate } from './db/migrate.js';
import { withStartupLock } from './db/startup-lock.js';
import { createLogger } from './logger.js';

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

  // SIGTERM/SIGINT: stop accepting, let in-flight requests finish, close the pool.
  closeWithGrace({ delay: 10_000, logger }, async ({ signal, err }) => {
    if (err) logger.error({ err }, 'shutting down after an error');
    else logger.info({ signal }, 'shutting down');
    await app.close();
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
