import type { Logger } from 'pino';
import type { Db } from './db/client.js';
import { serviceSecret } from './db/secrets.js';
import { createCommunityServices } from './modules/community/index.js';
import { type AssetsOptions, createCoreServices } from './modules/core/index.js';
import { createDocsServices } from './modules/docs/index.js';
import { createOAuthServices, issuerFor } from './modules/oauth/index.js';
import { createPublisherServices } from './modules/publisher/index.js';
import { createReaderhubServices } from './modules/readerhub/index.js';
import { Paginator } from './shared/paging.js';

/** The composition root: every module's services, built once over one database. */
export async function createServices(deps: {
  db: Db;
  logger: Logger;
  publicBaseUrl?: string | undefined;
  /** OAUTH_ALLOW_INSECURE_PROVIDERS */
  allowInsecureProviderUrls?: boolean;
  /** Storage and upload limits (STORAGE_DIR or S3_*, UPLOAD_LIMIT…); the defaults when left out. */
  assets?: AssetsOptions;
}) {
  const pager = new Paginator(await serviceSecret(deps.db, 'cursor_hmac_key'));
  const publisher = createPublisherServices({ db: deps.db, pager });
  const core = createCoreServices({ db: deps.db, pager, logger: deps.logger, ...(deps.assets && { assets: deps.assets }) });
  const docs = createDocsServices({ db: deps.db, pager, core, publicBaseUrl: deps.publicBaseUrl });
  return {
    pager,
    core,
    docs,
    community: createCommunityServices({ db: deps.db, pager }),
    oauth: createOAuthServices({
      db: deps.db,
      pager,
      issuer: issuerFor(deps.publicBaseUrl),
      allowInsecureProviderUrls: deps.allowInsecureProviderUrls ?? false,
    }),
    publisher,
    readerhub: createReaderhubServices({
      db: deps.db,
      pager,
      topics: publisher.topics,
      favoriteRecords: { content: docs.contents.assertPublished },
      imageExists: core.assets.imageByKey,
    }),
  };
}

export type Services = Awaited<ReturnType<typeof createServices>>;
