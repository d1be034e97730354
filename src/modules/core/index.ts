import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.js';
import type { Paginator } from '../../shared/paging.js';
import { apiKeysBackofficeRoutes } from './api-keys/api-keys.backoffice.routes.js';
import { createApiKeysRepository } from './api-keys/api-keys.repository.js';
import { createApiKeysService } from './api-keys/api-keys.service.js';
import { categoriesBackofficeRoutes } from './categories/categories.backoffice.routes.js';
import { categoriesReaderRoutes } from './categories/categories.reader.routes.js';
import { createCategoriesRepository } from './categories/categories.repository.js';
import { createCategoriesService } from './categories/categories.service.js';
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

export function createCoreServices(deps: { db: Db; pager: Paginator; logger: Logger }) {
  const { db, pager, logger } = deps;
  const tenancy = createTenancyService({ db, repo: createTenancyRepository(pager) });
  return {
    tenancy,
    apiKeys: createApiKeysService({ db, repo: createApiKeysRepository(pager), logger }),
    categories: createCategoriesService({ db, repo: createCategoriesRepository(pager), tenancy }),
    references: createReferencesService({ db, repo: referencesRepository }),
  };
}

export type CoreServices = ReturnType<typeof createCoreServices>;

/** Every /core/v2 Backoffice route. */
export const coreBackofficeRoutes: FastifyPluginAsyncZod<{ core: CoreServices }> = async (app, { core }) => {
  await app.register(tenancyBackofficeRoutes, { tenancy: core.tenancy });
  await app.register(apiKeysBackofficeRoutes, { apiKeys: core.apiKeys });
  await app.register(categoriesBackofficeRoutes, { categories: core.categories });
  await app.register(referencesBackofficeRoutes, { references: core.references });
};

/** Core's Reader routes under /api/media/v1. */
export const coreReaderRoutes: FastifyPluginAsyncZod<{ core: CoreServices }> = async (app, { core }) => {
  await app.register(tenancyReaderRoutes, { tenancy: core.tenancy });
  await app.register(categoriesReaderRoutes, { categories: core.categories });
  await app.register(referencesReaderRoutes, { references: core.references });
};

/** Core's deprecated Public routes under /api/public. */
export const corePublicRoutes: FastifyPluginAsyncZod<{ core: CoreServices }> = async (app, { core }) => {
  await app.register(referencesPublicRoutes, { references: core.references, tenancy: core.tenancy });
};
