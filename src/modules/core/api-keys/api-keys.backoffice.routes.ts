import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { list, one } from '../../../shared/envelopes.js';
import { dataOf, errorResponses, idParams, listOf, noContent, pagingQuery } from '../../../shared/schemas.js';
import { toApiKey } from './api-keys.mappers.js';
import { apiKeyCreateBody, apiKeySchema, createdApiKeySchema } from './api-keys.schemas.js';
import type { ApiKeysService } from './api-keys.service.js';

const tags = ['Core: API keys'];

export const apiKeysBackofficeRoutes: FastifyPluginAsyncZod<{ apiKeys: ApiKeysService }> = async (app, { apiKeys }) => {
  app.get('/api-keys', {
    config: { permission: 'admin:read' },
    schema: {
      tags,
      summary: 'List API keys',
      description: 'Revoked keys stay listed with revoked_at; secrets are never shown again.',
      querystring: pagingQuery,
      response: { 200: listOf(apiKeySchema), ...errorResponses(400, 401, 403, 429) },
    },
    handler: async (req) => list(req, await apiKeys.list(req.principal.mediaId, req.query), toApiKey),
  });

  app.post('/api-keys', {
    config: { permission: 'admin:write' },
    schema: {
      tags,
      summary: 'Create an API key',
      description: 'The answer carries the secret in data.key, once. Only its hash is stored.',
      body: apiKeyCreateBody,
      response: { 201: dataOf(createdApiKeySchema), ...errorResponses(400, 401, 403, 413, 415, 429) },
    },
    handler: async (req, reply) => {
      const { row, secret } = await apiKeys.create(req.principal.mediaId, req.body);
      return reply.status(201).send(one({ ...toApiKey(row), key: secret }));
    },
  });

  app.get('/api-keys/:id', {
    config: { permission: 'admin:read' },
    schema: {
      tags,
      summary: 'API key by id',
      params: idParams,
      response: { 200: dataOf(apiKeySchema), ...errorResponses(400, 401, 403, 404, 429) },
    },
    handler: async (req) => one(toApiKey(await apiKeys.get(req.principal.mediaId, req.params.id))),
  });

  app.delete('/api-keys/:id', {
    config: { permission: 'admin:write' },
    schema: {
      tags,
      summary: 'Revoke an API key',
      description: 'The key is refused from then on (401). Revoking twice keeps the first revocation time.',
      params: idParams,
      response: { 204: noContent, ...errorResponses(400, 401, 403, 404, 429) },
    },
    handler: async (req, reply) => {
      await apiKeys.revoke(req.principal.mediaId, req.params.id);
      return reply.status(204).send();
    },
  });
};
