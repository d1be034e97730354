import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { list, one } from '../../../shared/envelopes.js';
import { route } from '../../../shared/http/route.js';
import { dataOf, idParams, listOf, noContent, pagingQuery } from '../../../shared/schemas.js';
import { toApiKey } from '../api-keys/api-keys.mappers.js';
import { apiKeyCreateBody, apiKeySchema, createdApiKeySchema } from '../api-keys/api-keys.schemas.js';
import { coreTags } from '../core.tags.js';
import { toMedia } from '../tenancy/tenancy.mappers.js';
import { mediaSchema } from '../tenancy/tenancy.schemas.js';
import { mediaCreateBody, provisionedMediaSchema } from './provisioning.schemas.js';
import type { ProvisioningService } from './provisioning.service.js';

/** /operator/v1: the deployment's medias and their keys, for the holder of OPERATOR_API_KEY. */
export const provisioningOperatorRoutes: FastifyPluginAsyncZod<{ provisioning: ProvisioningService }> = async (app, { provisioning }) => {
  const tag = coreTags.operator;
  const access = { operator: true } as const;

  route(app, {
    method: 'POST',
    url: '/medias',
    operationId: 'operatorCreateMedia',
    summary: 'Create a media with its first admin key',
    description: 'Also creates the workspace `main` and the statuses draft, published and unpublished. The admin key is shown only in this answer.',
    tag,
    access,
    body: mediaCreateBody,
    // The answer carries a secret shown once: a stored replay would keep it at rest (only its hash is kept).
    idempotent: false,
    response: { 201: dataOf(provisionedMediaSchema) },
    handler: async (_ctx, { body }) => {
      const { media, adminKey } = await provisioning.createMedia({ name: body.name, locales: body.locales, defaultLocale: body.default_locale, siteUrl: body.site_url });
      return one({ media: toMedia(media), admin_key: { ...toApiKey(adminKey.row), key: adminKey.secret } });
    },
  });

  route(app, {
    method: 'GET',
    url: '/medias',
    operationId: 'operatorListMedias',
    summary: 'List medias',
    description: 'Every media of the deployment, newest first.',
    tag,
    access,
    querystring: pagingQuery,
    response: { 200: listOf(mediaSchema) },
    handler: async (_ctx, { query }, reply) => list(reply.request, await provisioning.listMedia(query), toMedia),
  });

  route(app, {
    method: 'POST',
    url: '/medias/:id/api-keys',
    operationId: 'operatorCreateApiKey',
    summary: "Create a key of a media",
    description: 'A Backoffice key of that media with the given role; the secret is shown only in this answer.',
    tag,
    access,
    params: idParams,
    body: apiKeyCreateBody,
    // The answer carries a secret shown once: a stored replay would keep it at rest (only its hash is kept).
    idempotent: false,
    response: { 201: dataOf(createdApiKeySchema) },
    handler: async (_ctx, { params, body }) => {
      const { row, secret } = await provisioning.createKey(params.id, body);
      return one({ ...toApiKey(row), key: secret });
    },
  });

  route(app, {
    method: 'GET',
    url: '/medias/:id/api-keys',
    operationId: 'operatorListApiKeys',
    summary: 'List the keys of a media',
    description: "The media's Backoffice keys, newest first, revoked ones with revoked_at: how an operator finds a leaked key's id from its prefix. Secrets are never shown again.",
    tag,
    access,
    params: idParams,
    querystring: pagingQuery,
    response: { 200: listOf(apiKeySchema) },
    handler: async (_ctx, { params, query }, reply) => list(reply.request, await provisioning.listKeys(params.id, query), toApiKey),
  });

  route(app, {
    method: 'DELETE',
    url: '/api-keys/:id',
    operationId: 'operatorRevokeApiKey',
    summary: 'Revoke a key of any media',
    description: 'The key is refused from then on (401). Revoking twice keeps the first revocation time.',
    tag,
    access,
    params: idParams,
    response: { 204: noContent },
    handler: async (_ctx, { params }) => {
      await provisioning.revokeKey(params.id);
    },
  });
};
