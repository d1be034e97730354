import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { backofficeResource } from '../../../shared/http/resource.js';
import { readerhubTags } from '../readerhub.tags.js';
import { toBackofficeEntitlement } from './entitlements.mappers.js';
import { entitlementCreateBody, entitlementSchema, entitlementsQuery } from './entitlements.schemas.js';
import type { EntitlementsService } from './entitlements.service.js';

/** /core/v2/reader-entitlements: products granted to readers for a window of time. */
export const entitlementsBackofficeRoutes: FastifyPluginAsyncZod<{ entitlements: EntitlementsService }> = async (
  app,
  { entitlements },
) => {
  const resource = backofficeResource(app, {
    path: '/reader-entitlements',
    kind: 'reader_entitlement',
    names: { one: 'ReaderEntitlement', many: 'ReaderEntitlements' },
    tag: readerhubTags.entitlements,
    item: entitlementSchema,
    map: toBackofficeEntitlement,
    read: 'readerhub:read',
    write: 'readerhub:write',
  });
  resource.create(
    {
      summary: 'Create a reader entitlement',
      description: 'Grants `product_key` to the reader from starts_at (default now) until ends_at (default: no end).',
      body: entitlementCreateBody,
      // reader_id names a reader of another media, or none.
      errors: [404],
    },
    entitlements.create,
  );
  resource.list(
    {
      summary: 'List reader entitlements',
      description: 'Newest first, revoked ones included unless `status` says otherwise.',
      querystring: entitlementsQuery,
    },
    entitlements.list,
  );
  resource.get({ summary: 'Reader entitlement by id' }, entitlements.get);
  resource.remove(
    {
      summary: 'Revoke a reader entitlement',
      description: 'Sets revoked_at and keeps the record (status `revoked`); revoking again changes nothing.',
    },
    entitlements.revoke,
  );
};
