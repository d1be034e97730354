import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { list, one } from '../../../shared/envelopes.js';
import { dataOf, errorResponses, idParams, listOf } from '../../../shared/schemas.js';
import { toReaderAccount } from './accounts.mappers.js';
import { readerAccountSchema, readersQuery } from './accounts.schemas.js';
import type { AccountsService } from './accounts.service.js';

const tags = ['ReaderHub: Readers'];

/** /core/v2/readers: read-only, so that an editor can find the ids entitlements need. */
export const accountsBackofficeRoutes: FastifyPluginAsyncZod<{ accounts: AccountsService }> = async (app, { accounts }) => {
  app.get('/readers', {
    config: { permission: 'readerhub:read' },
    schema: {
      tags,
      summary: 'List readers',
      description: 'Reader accounts of the key\'s media, newest first; `email` finds one by address.',
      querystring: readersQuery,
      response: { 200: listOf(readerAccountSchema), ...errorResponses(400, 401, 403, 429) },
    },
    handler: async (req) => list(req, await accounts.list(req.principal.mediaId, req.query), toReaderAccount),
  });

  app.get('/readers/:id', {
    config: { permission: 'readerhub:read' },
    schema: {
      tags,
      summary: 'Reader by id',
      params: idParams,
      response: { 200: dataOf(readerAccountSchema), ...errorResponses(400, 401, 403, 404, 429) },
    },
    handler: async (req) => one(toReaderAccount(await accounts.get(req.principal.mediaId, req.params.id))),
  });
};
