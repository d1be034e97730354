import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.js';
import type { Paginator } from '../../shared/paging.js';
import { apiKeysBackofficeRoutes } from './api-keys/api-keys.backoffice.routes.js';
import { assetsBackofficeRoutes } from './assets/assets.backoffice.routes.js';
import { type DeliveryRoutesOptions, assetsDeliveryRoutes } from './assets/assets.delivery.routes.js';
import { type AssetsOptions, DEFAULT_ASSETS_OPTIONS, createAssetServices } from './assets/assets.module.js';
import { assetsReaderRoutes } from './assets/assets.reader.routes.js';
import { createApiKeysRepository } from './api-keys/api-keys.repository.js';
import { createApiKeysService } from './api-keys/api-keys.service.js';
import { categoriesBackofficeRoutes } from './categories/categories.backoffice.routes.js';
import { categoriesReaderRoutes } from './categories/categories.reader.routes.js';
import { createCategoriesRepository } from './categories/categories.repository.js';
import { createCategoriesService } from './categories/categories.service.js';
import { provisioningOperatorRoutes } from './provisioning/provisioning.operator.routes.js';
import { createProvisioningService } from './provisioning/provisioning.service.js';
import { referencesBackofficeRoutes } from './references/references.backoffice.routes.js';
import { referencesPublicRoutes } from './references/references.public.routes.js';
import { referencesReaderRoutes } from './references/references.reader.routes.js';
import { referencesRepository } from './references/references.repository.js';
import { createReferencesService } from './references/references.service.js';
import { tenancyBackofficeRoutes } from './tenancy/tenancy.backoffice.routes.js';
import { tenancyReaderRoutes } from './tenancy/tenancy.reader.routes.js';
import { createTenancyRepository } from './tenancy/tenancy.repository.js';
import { createTenancyService } from './tenancy/tenancy.service.js';

export { DEFAULT_STATUSES } from './tenancy/tenancy.service.js';
export { generateKey } from './api-keys/api-keys.service.js';
export { coreTags } from './core.tags.js';
export type { AssetsOptions } from './assets/assets.module.js';

export function createCoreServices(deps: { db: Db; pager: Paginator; logger: Logger; assets?: AssetsOptions }) {
  const { db, pager, logger } = deps;
  const tenancy = createTenancyService({ db, repo: createTenancyRepository(pager) });
  const apiKeys = createApiKeysService({ db, repo: createApiKeysRepository(pager), logger });
  const { assets, delivery: assetDelivery, storage } = createAssetServices({ db, pager, logger, tenancy, options: deps.assets ?? DEFAULT_ASSETS_OPTIONS });
  return {
    tenancy,
    apiKeys,
    provisioning: createProvisioningService({ db, tenancy, apiKeys }),
    categories: createCategoriesService({ db, repo: createCategoriesRepository(pager), tenancy }),
    references: createReferencesService({ db, repo: referencesRepository }),
    assets,
    assetDelivery,
    /** Where uploaded files live; closed with the app. */
    storage,
  };
}

export type CoreServices = ReturnType<typeof createCoreServices>;

/** Every /core/v2 Backoffice route. */
export const coreBackofficeRoutes: FastifyPluginAsyncZod<{ core: CoreServices }> = async (app, { core }) => {
  await app.register(tenancyBackofficeRoutes, { tenancy: core.tenancy });
  await app.register(apiKeysBackofficeRoutes, { apiKeys: core.apiKeys });
  await app.register(categoriesBackofficeRoutes, { categories: core.categories });
  await app.register(referencesBackofficeRoutes, { references: core.references });
  await app.register(assetsBackofficeRoutes, { assets: core.assets });
};

/** The operator's routes under /operator/v1 (registered only when OPERATOR_API_KEY is set). */
export const coreOperatorRoutes: FastifyPluginAsyncZod<{ core: CoreServices }> = async (app, { core }) => {
  await app.register(provisioningOperatorRoutes, { provisioning: core.provisioning });
};

/** Core's Reader routes under /api/media/v1. */
export const coreReaderRoutes: FastifyPluginAsyncZod<{ core: CoreServices }> = async (app, { core }) => {
  await app.register(tenancyReaderRoutes, { tenancy: core.tenancy });
  await app.register(categoriesReaderRoutes, { categories: core.categories });
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
export const corePublicRoutes: FastifyPluginAsyncZod<{ core: CoreServices }> = async (app, { core }) => {
  await app.register(referencesPublicRoutes, { references: core.references, tenancy: core.tenancy });
};
