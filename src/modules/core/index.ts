import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.js';
import type { JobRunner } from '../../db/job-queue.js';
import type { CacheBus } from '../../shared/cache-bus.js';
import type { Paginator } from '../../shared/paging.js';
import { auditBackofficeRoutes } from './audit/audit.backoffice.routes.js';
import { createAuditService } from './audit/audit.service.js';
import { auditedWrites } from './audit/audit.writes.js';
import { createRevisionsService } from './revisions/revisions.service.js';
import { apiKeysBackofficeRoutes } from './api-keys/api-keys.backoffice.routes.js';
import { assetsBackofficeRoutes } from './assets/assets.backoffice.routes.js';
import { type DeliveryRoutesOptions, assetsDeliveryRoutes } from './assets/assets.delivery.routes.js';
import { type AssetsOptions, DEFAULT_ASSETS_OPTIONS, createAssetServices } from './assets/assets.module.js';
import { assetsReaderRoutes } from './assets/assets.reader.routes.js';
import { createApiKeysRepository } from './api-keys/api-keys.repository.js';
import { createApiKeysService } from './api-keys/api-keys.service.js';
import { categoryRecord, createCategoriesService } from './categories/categories.record.js';
import { recordBackofficeRoutes, recordReaderRoutes } from '../../shared/record/index.js';
import { previewTokensBackofficeRoutes } from './preview-tokens/preview-tokens.backoffice.routes.js';
import { createPreviewTokensRepository } from './preview-tokens/preview-tokens.repository.js';
import { createPreviewTokensService } from './preview-tokens/preview-tokens.service.js';
import { provisioningOperatorRoutes } from './provisioning/provisioning.operator.routes.js';
import { createProvisioningService } from './provisioning/provisioning.service.js';
import { referencesBackofficeRoutes } from './references/references.backoffice.routes.js';
import { referencesPublicRoutes } from './references/references.public.routes.js';
import { referencesReaderRoutes } from './references/references.reader.routes.js';
import { referencesRepository } from './references/references.repository.js';
import { createReferencesService } from './references/references.service.js';
import { webhooksBackofficeRoutes } from './webhooks/webhooks.backoffice.routes.js';
import { webhookEventHooks } from './webhooks/webhooks.events.js';
import { DEFAULT_WEBHOOKS_OPTIONS, type WebhooksOptions, createWebhooksService } from './webhooks/webhooks.service.js';
import { tenancyBackofficeRoutes } from './tenancy/tenancy.backoffice.routes.js';
import { tenancyReaderRoutes } from './tenancy/tenancy.reader.routes.js';
import { tenancyPublicRoutes } from './tenancy/tenancy.public.routes.js';
import { createTenancyRepository } from './tenancy/tenancy.repository.js';
import { createTenancyService } from './tenancy/tenancy.service.js';

export { DEFAULT_STATUSES } from './tenancy/tenancy.service.js';
export { generateKey } from './api-keys/api-keys.service.js';
export { coreTags } from './core.tags.js';
export { readerCategorySchema } from './categories/categories.schemas.js';
export type { AssetsOptions } from './assets/assets.module.js';
// Asset images and the media's places as other modules' records use them, without core's tables.
export { imageUrls, missingAssetImages, resolveAssetImages } from './assets/assets.lookup.js';
export { isPublishedStatus, mediaPlaces } from './tenancy/tenancy.places.js';
export type { StagedFile } from './assets/assets.service.js';
export type { WebhooksOptions } from './webhooks/webhooks.service.js';
export type { PreviewTokensService } from './preview-tokens/preview-tokens.service.js';
export {
  DEFAULT_EXPIRES_IN as DEFAULT_PREVIEW_EXPIRES_IN,
  createdPreviewLinkSchema,
  previewLinkCreateBody,
  previewLinkSchema,
  toPreviewLink,
} from './preview-tokens/preview-tokens.schemas.js';
export { webhookEventHooks };

export function createCoreServices(deps: {
  db: Db;
  pager: Paginator;
  logger: Logger;
  jobs: JobRunner;
  /** Where the caches that decide access are invalidated across instances. */
  cacheBus: CacheBus;
  assets?: AssetsOptions;
  webhooks?: WebhooksOptions;
  /** AUDIT_RETENTION_DAYS; 365 when left out. */
  auditRetentionDays?: number;
  /** REVISION_RETENTION_DAYS; every revision is kept when left out. */
  revisionRetentionDays?: number | undefined;
}) {
  const { db, pager, logger, cacheBus } = deps;
  const tenancy = createTenancyService({ db, repo: createTenancyRepository(pager), cacheBus });
  const apiKeys = createApiKeysService({ db, repo: createApiKeysRepository(pager), logger, cacheBus });
  const { assets, delivery: assetDelivery, storage } = createAssetServices({ db, pager, logger, tenancy, cacheBus, options: deps.assets ?? DEFAULT_ASSETS_OPTIONS });
  const audit = createAuditService({ db, pager, jobs: deps.jobs, retentionDays: deps.auditRetentionDays ?? 365 });
  const revisions = createRevisionsService({ db, pager, jobs: deps.jobs, retentionDays: deps.revisionRetentionDays });
  return {
    tenancy,
    apiKeys,
    previewTokens: createPreviewTokensService({ db, repo: createPreviewTokensRepository(pager) }),
    provisioning: createProvisioningService({ db, tenancy, apiKeys }),
    categories: createCategoriesService({ db, pager, assertLocales: tenancy.assertLocales, live: {} }),
    references: createReferencesService({ repo: referencesRepository }),
    assets,
    assetDelivery,
    audit,
    /** The Backoffice's writes: one transaction each, with their audit entry (route config `around`). */
    auditedWrites: auditedWrites(audit, revisions),
    /** Revisions of the kinds that keep them: written by auditedWrites, served by `revisionRoutes`. */
    revisions,
    webhooks: createWebhooksService({ db, pager, jobs: deps.jobs, options: deps.webhooks ?? DEFAULT_WEBHOOKS_OPTIONS }),
    /** Where uploaded files live; closed with the app. */
    storage,
  };
}

export type CoreServices = ReturnType<typeof createCoreServices>;

/** Every /core/v2 Backoffice route. */
export const coreBackofficeRoutes: FastifyPluginAsyncZod<{ core: CoreServices }> = async (app, { core }) => {
  await app.register(tenancyBackofficeRoutes, { tenancy: core.tenancy });
  await app.register(apiKeysBackofficeRoutes, { apiKeys: core.apiKeys });
  await app.register(previewTokensBackofficeRoutes, { previewTokens: core.previewTokens });
  recordBackofficeRoutes(app, categoryRecord, core.categories);
  await app.register(referencesBackofficeRoutes, { references: core.references });
  await app.register(assetsBackofficeRoutes, { assets: core.assets });
  await app.register(webhooksBackofficeRoutes, { webhooks: core.webhooks });
  await app.register(auditBackofficeRoutes, { audit: core.audit });
};

/** The operator's routes under /operator/v1 (registered only when OPERATOR_API_KEY is set). */
export const coreOperatorRoutes: FastifyPluginAsyncZod<{ core: CoreServices }> = async (app, { core }) => {
  await app.register(provisioningOperatorRoutes, { provisioning: core.provisioning });
};

/** Core's Reader routes under /api/media/v1. */
export const coreReaderRoutes: FastifyPluginAsyncZod<{ core: CoreServices }> = async (app, { core }) => {
  await app.register(tenancyReaderRoutes, { tenancy: core.tenancy });
  recordReaderRoutes(app, categoryRecord, core.categories);
  await app.register(referencesReaderRoutes, { references: core.references });
  await app.register(assetsReaderRoutes, { assets: core.assets });
};

/** Image delivery at /assets, public. */
export const coreDeliveryRoutes: FastifyPluginAsyncZod<{ core: CoreServices } & Pick<DeliveryRoutesOptions, 'limitTransforms'>> = async (
  app,
  { core, limitTransforms },
) => {
  await app.register(assetsDeliveryRoutes, { delivery: core.assetDelivery, limitTransforms });
};

/** Core's deprecated Public routes under /api/public. */
export const corePublicRoutes: FastifyPluginAsyncZod<{ core: CoreServices }> = async (app) => {
  await app.register(tenancyPublicRoutes);
  await app.register(referencesPublicRoutes);
};
