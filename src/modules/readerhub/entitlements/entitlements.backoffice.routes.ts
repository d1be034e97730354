import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { list, one } from '../../../shared/envelopes.js';
import { dataOf, errorResponses, idParams, listOf, noContent } from '../../../shared/schemas.js';
import { toBackofficeEntitlement } from './entitlements.mappers.js';
import { entitlementCreateBody, entitlementSchema, entitlementsQuery } from './entitlements.schemas.js';
import type { EntitlementsService } from './entitlements.service.js';

const tags = ['ReaderHub: Entitlements'];

/** /core/v2/reader-entitlements: products granted to readers for a window of time. */
export const entitlementsBackofficeRoutes: FastifyPluginAsyncZod<{ entitlements: EntitlementsService }> = async (
  app,
  { entitlements },
) => {
  app.post('/reader-entitlements', {
    config: { permission: 'readerhub:write' },
    schema: {
      tags,
      summary: 'Create a reader entitlement',
      description: 'Grants `product_key` to the reader from starts_at (default now) until ends_at (default: no end).',
      body: entitlementCreateBody,
      response: { 201: dataOf(entitlementSchema), ...errorResponses(400, 401, 403, 404, 413, 415, 429) },
    },
    handler: async (req, reply) =>
      reply.status(201).send(one(toBackofficeEntitlement(await entitlements.create(req.principal.mediaId, req.body)))),
  });

  app.get('/reader-entitlements', {
    config: { permission: 'readerhub:read' },
    schema: {
      tags,
      summary: 'List reader entitlements',
      description: 'Newest first, revoked ones included unless `status` says otherwise.',
      querystring: entitlementsQuery,
      response: { 200: listOf(entitlementSchema), ...errorResponses(400, 401, 403, 429) },
    },
    handler: async (req) => list(req, await entitlements.list(req.principal.mediaId, req.query), toBackofficeEntitlement),
  });

  app.get('/reader-entitlements/:id', {
    config: { permission: 'readerhub:read' },
    schema: {
      tags,
      summary: 'Reader entitlement by id',
      params: idParams,
      response: { 200: dataOf(entitlementSchema), ...errorResponses(400, 401, 403, 404, 429) },
    },
    handler: async (req) => one(toBackofficeEntitlement(await entitlements.get(req.principal.mediaId, req.params.id))),
  });

  app.delete('/reader-entitlements/:id', {
    config: { permission: 'readerhub:write' },
    schema: {
      tags,
      summary: 'Revoke a reader entitlement',
      description: 'Sets revoked_at and keeps the record (status `revoked`); revoking again changes nothing.',
      params: idParams,
      response: { 204: noContent, ...errorResponses(400, 401, 403, 404, 429) },
    },
    handler: async (req, reply) => {
      await entitlements.revoke(req.principal.mediaId, req.params.id);
      return reply.status(204).send();
    },
  });
};
