import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { list } from '../../../shared/envelopes.js';
import { route } from '../../../shared/http/route.js';
import { listOf } from '../../../shared/schemas.js';
import { readerhubTags } from '../readerhub.tags.js';
import { toReaderEntitlement } from './entitlements.mappers.js';
import { readerEntitlementSchema, readerEntitlementsQuery } from './entitlements.schemas.js';
import type { EntitlementsService } from './entitlements.service.js';

export const entitlementsReaderRoutes: FastifyPluginAsyncZod<{ entitlements: EntitlementsService }> = async (
  app,
  { entitlements },
) => {
  route(app, {
    method: 'GET',
    url: '/accounts/me/entitlements',
    operationId: 'readerListEntitlements',
    serves: 'entitlement',
    primary: true,
    summary: 'User entitlements',
    description:
      "The signed-in reader's own entitlements, newest first. By default only the active ones " +
      '(started, not ended, not revoked); `status` asks for others.',
    tag: readerhubTags.readerAccounts,
    access: { scope: 'account:read', readerRequired: true },
    querystring: readerEntitlementsQuery,
    response: { 200: listOf(readerEntitlementSchema) },
    handler: async (ctx, { query }, reply) =>
      list(reply.request, await entitlements.listForReader(ctx, reply.request.readerAccount, query), toReaderEntitlement),
  });
};
