import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Services } from './container.js';
import { generateKey } from './modules/core/index.js';

/**
 * First start: make sure there is a media to work in and a key to work with.
 * BOOTSTRAP_API_KEY names the admin key; without it, an empty database gets a fresh
 * admin key that is printed once.
 */
export async function bootstrap(services: Services, config: Config, logger: Logger): Promise<void> {
  const { tenancy, apiKeys } = services.core;
  let media = await tenancy.firstMedia();
  const fresh = !media;
  if (!media) {
    media = (await tenancy.createMedia({ name: 'Default media', defaultLocale: 'en', locales: ['en'] })).media;
    logger.info({ media_id: media.id }, 'created the default media with workspace "main"');
  }
  if (config.bootstrapApiKey) {
    await apiKeys.ensure(media.id, config.bootstrapApiKey, 'bootstrap');
    return;
  }
  if (fresh) {
    const secret = generateKey();
    await apiKeys.create(media.id, { name: 'bootstrap', role: 'admin' }, secret);
    // Deliberately in the message, not a field: redaction must not hide it, and it is shown only now.
    logger.warn(`created an admin API key; it is shown only this once: ${secret}`);
  }
}
