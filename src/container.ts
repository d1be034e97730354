import type { Logger } from 'pino';
import type { Db, Executor } from './db/client.js';
import { createJobRunner } from './db/job-queue.js';
import { serviceSecret } from './db/secrets.js';
import { createAdOpsServices } from './modules/ad-ops/index.js';
import { type ProfileKind, createCommunityServices, liveProfileIds, publishedProfileIds, publishedProfileLinks } from './modules/community/index.js';
import { type AssetsOptions, type WebhooksOptions, createCoreServices } from './modules/core/index.js';
import { type MailTransport, createMessengerServices } from './modules/messenger/index.js';
import { createDocsServices, feedContents, liveContentIds, liveTemplateIds, publishedContentIds, publishedContentLinks } from './modules/docs/index.js';
import { createMagazinesServices, issueExists } from './modules/magazines/index.js';
import { createOAuthServices, issuerFor } from './modules/oauth/index.js';
import { createPublisherServices } from './modules/publisher/index.js';
import { createReaderhubServices } from './modules/readerhub/index.js';
import { fallbackOf } from './shared/http/reader.js';
import { type CacheBus, createCacheBus } from './shared/cache-bus.js';
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
  /** WEBHOOK_ALLOW_PRIVATE, WEBHOOK_RETRY_BASE_MS, WEBHOOK_DELIVERY_RETENTION_DAYS; the defaults when left out. */
  webhooks?: WebhooksOptions;
  /** AUDIT_RETENTION_DAYS; the default when left out. */
  auditRetentionDays?: number;
  /** REVISION_RETENTION_DAYS; every revision kept when left out. */
  revisionRetentionDays?: number | undefined;
  /** SMTP_URL, MAIL_FROM, MAIL_LEASE_SECONDS; or a transport of the caller's (tests, bench). */
  mail?: { smtpUrl?: string | undefined; from: string; leaseSeconds: number; transport?: MailTransport };
  /** Invalidation of access-deciding caches across instances (Redis); local only when left out. */
  cacheBus?: CacheBus;
  /** The service's shared secrets by name; read from the database (the first instance creates them) when left out. */
  secret?: (name: string) => Promise<Buffer>;
}) {
  const cacheBus = deps.cacheBus ?? createCacheBus();
  const secret = deps.secret ?? ((name: string) => serviceSecret(deps.db, name));
  const pager = new Paginator(await secret('cursor_hmac_key'));
  // One pg-boss for every module's queue (messenger's sends, core's webhook deliveries).
  const jobs = createJobRunner({ db: deps.db, logger: deps.logger });
  const core = createCoreServices({ db: deps.db, pager, logger: deps.logger, jobs, cacheBus, ...(deps.assets && { assets: deps.assets }), ...(deps.webhooks && { webhooks: deps.webhooks }), ...(deps.auditRetentionDays && { auditRetentionDays: deps.auditRetentionDays }), revisionRetentionDays: deps.revisionRetentionDays });
  // Content authors must be people of the media, a `profiles` block's ids profiles of it, and readers see
  // only published ones: community's public lookups, so docs never reads community's tables.
  const missingOf = (kind: ProfileKind | null) => async (db: Executor, mediaId: string, ids: string[]) => {
    const live = await liveProfileIds(db, mediaId, kind, ids);
    return ids.filter((id) => !live.has(id));
  };
  const docs = createDocsServices({
    db: deps.db,
    pager,
    core,
    publicBaseUrl: deps.publicBaseUrl,
    missingPeople: missingOf('people'),
    missingProfiles: missingOf(null),
    publishedProfileIds,
  });
  const community = createCommunityServices({ db: deps.db, pager, core, docs: { liveContentIds, publishedContentIds }, publicBaseUrl: deps.publicBaseUrl });
  // Publisher checks the records its own ones name through the owners' public lookups.
  const profiles = (kind: ProfileKind) => (db: Executor, mediaId: string, ids: string[]) => liveProfileIds(db, mediaId, kind, ids);
  const publisher = createPublisherServices({
    db: deps.db,
    pager,
    assertLocales: core.tenancy.assertLocales,
    live: {
      organizations: profiles('organizations'),
      events: profiles('events'),
      projects: profiles('projects'),
      people: profiles('people'),
      contents: liveContentIds,
      templates: liveTemplateIds,
      categories: core.categories.live,
    },
    feeds: { contents: feedContents, contentLinks: publishedContentLinks, profileLinks: publishedProfileLinks },
  });
  return {
    pager,
    jobs,
    cacheBus,
    core,
    docs,
    magazines: createMagazinesServices({ db: deps.db, pager, core, docs, publicBaseUrl: deps.publicBaseUrl }),
    community,
    oauth: createOAuthServices({
      db: deps.db,
      pager,
      issuer: issuerFor(deps.publicBaseUrl),
      allowInsecureProviderUrls: deps.allowInsecureProviderUrls ?? false,
      cacheBus,
    }),
    publisher,
    readerhub: createReaderhubServices({
      pager,
      topics: publisher.topics,
      favoriteRecords: { content: docs.contents.assertPublished, profile: community.profiles.assertPublished },
      imageExists: core.assets.imageByKey,
    }),
    messenger: await createMessengerServices({
      tokenKey: await secret('messenger_token_key'),
      db: deps.db,
      pager,
      logger: deps.logger,
      jobs,
      core: {
        assertLocales: core.tenancy.assertLocales,
        fallbackOf: async (ctx) => fallbackOf(await core.tenancy.cachedMedia(ctx)),
      },
      publishedContent: docs.publishedContent,
      smtpUrl: deps.mail?.smtpUrl,
      mailFrom: deps.mail?.from ?? 'newsletter@localhost',
      publicBaseUrl: deps.publicBaseUrl ?? 'http://localhost:3000',
      leaseSeconds: deps.mail?.leaseSeconds ?? 60,
      ...(deps.mail?.transport && { transport: deps.mail.transport }),
    }),
    adOps: createAdOpsServices({
      db: deps.db,
      pager,
      assertLocales: core.tenancy.assertLocales,
      assets: { ...core.assets, uploadLimit: core.assets.uploads.upload, urlOf: core.assetDelivery.urlOf },
      issueExists,
    }),
  };
}

export type Services = Awaited<ReturnType<typeof createServices>>;
