import type { Logger } from 'pino';
import type { Db } from '../../../db/client.js';
import type { Paginator } from '../../../shared/paging.js';
import { createApiKeysRepository } from '../api-keys/api-keys.repository.js';
import { createApiKeysService } from '../api-keys/api-keys.service.js';
import { createTenancyRepository } from '../tenancy/tenancy.repository.js';
import { createTenancyService } from '../tenancy/tenancy.service.js';
import { createProvisioningService } from './provisioning.service.js';

/**
 * The operator's services over the database, without the rest of the app: the CLI's media and key
 * commands load these files alone (the whole composition root took seconds to load for each call).
 */
export function createStandaloneProvisioning(deps: { db: Db; pager: Paginator; logger: Logger }) {
  const tenancy = createTenancyService({ db: deps.db, repo: createTenancyRepository(deps.pager) });
  const apiKeys = createApiKeysService({ db: deps.db, repo: createApiKeysRepository(deps.pager), logger: deps.logger });
  return createProvisioningService({ db: deps.db, tenancy, apiKeys });
}
