import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Services } from './container.js';
import { generateKey } from './modules/core/index.js';

/** The name of the media's bootstrap key: at most one live key of the media carries it once BOOTSTRAP_API_KEY is set. */
const BOOTSTRAP_KEY_NAME = 'bootstrap';

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
    const key = await apiKeys.ensure(media.id, config.bootstrapApiKey, BOOTSTRAP_KEY_NAME);
    if (key.revokedAt) {
      // Revoked through the API: the environment does not bring it back, nor take the others away.
      logger.warn({ key_id: key.id }, 'BOOTSTRAP_API_KEY names a revoked key; it stays revoked');
      return;
    }
    // BOOTSTRAP_API_KEY replaces the bootstrap key: the one a previous value (or the first start) made stops working.
    for (const old of await apiKeys.revokeNamedExcept(key.mediaId, BOOTSTRAP_KEY_NAME, key.id)) {
      logger.warn({ key_id: old.id, prefix: old.keyPrefix }, 'revoked the previous bootstrap key; BOOTSTRAP_API_KEY names another one now');
    }
    return;
  }
  if (fresh) {
    const secret = generateKey();
    await apiKeys.create(media.id, { name: BOOTSTRAP_KEY_NAME, role: 'admin' }, secret);
    // Deliberately in the message, not a field: redaction must not hide it, and it is shown only now.
    logger.warn(`created an admin API key; it is shown only this once: ${secret}`);
  }
}
