import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { backofficeResource } from '../../../shared/http/resource.js';
import { readerhubTags } from '../readerhub.tags.js';
import { toReaderAccount } from './accounts.mappers.js';
import { readerAccountSchema, readersQuery } from './accounts.schemas.js';
import type { AccountsService } from './accounts.service.js';

/** /core/v2/readers: read-only, so that an editor can find the ids entitlements need. */
export const accountsBackofficeRoutes: FastifyPluginAsyncZod<{ accounts: AccountsService }> = async (app, { accounts }) => {
  const resource = backofficeResource(app, {
    path: '/readers',
    kind: 'reader',
    names: { one: 'Reader', many: 'Readers' },
    tag: readerhubTags.readers,
    item: readerAccountSchema,
    map: toReaderAccount,
    read: 'readerhub:read',
    write: 'readerhub:write',
  });
  resource.list(
    {
      summary: 'List readers',
      description: "Reader accounts of the key's media, newest first; `email` finds one by address.",
      querystring: readersQuery,
    },
    accounts.list,
  );
  resource.get({ summary: 'Reader by id' }, accounts.get);
};
