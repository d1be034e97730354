import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { list } from '../../../shared/envelopes.js';
import { errorResponses, listOf } from '../../../shared/schemas.js';
import { toReaderEntitlement } from './entitlements.mappers.js';
import { readerEntitlementSchema, readerEntitlementsQuery } from './entitlements.schemas.js';
import type { EntitlementsService } from './entitlements.service.js';

export const entitlementsReaderRoutes: FastifyPluginAsyncZod<{ entitlements: EntitlementsService }> = async (
  app,
  { entitlements },
) => {
  app.get('/accounts/me/entitlements', {
    config: { scope: 'account:read', readerRequired: true },
    schema: {
      tags: ['Reader: Accounts'],
      summary: 'User entitlements',
      description:
        "The signed-in reader's own entitlements, newest first. By default only the active ones " +
        '(started, not ended, not revoked); `status` asks for others.',
      querystring: readerEntitlementsQuery,
      response: { 200: listOf(readerEntitlementSchema), ...errorResponses(400, 401, 403, 404, 429) },
    },
    handler: async (req) => list(req, await entitlements.listForReader(req.readerAccount, req.query), toReaderEntitlement),
  });
};
