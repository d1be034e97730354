import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { one } from '../../../shared/envelopes.js';
import { backofficeResource } from '../../../shared/resource-routes.js';
import { dataOf, errorResponses } from '../../../shared/schemas.js';
import { toApiKey } from './api-keys.mappers.js';
import { apiKeyCreateBody, apiKeySchema, createdApiKeySchema } from './api-keys.schemas.js';
import type { ApiKeysService } from './api-keys.service.js';

const tags = ['Core: API keys'];

export const apiKeysBackofficeRoutes: FastifyPluginAsyncZod<{ apiKeys: ApiKeysService }> = async (app, { apiKeys }) => {
  const keys = backofficeResource(app, {
    path: '/api-keys',
    tags,
    item: apiKeySchema,
    map: toApiKey,
    read: 'admin:read',
    write: 'admin:write',
  });
  keys.list(
    { summary: 'List API keys', description: 'Revoked keys stay listed with revoked_at; secrets are never shown again.' },
    apiKeys.list,
  );

  // Create answers the secret once, beside the record: not the standard create.
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

  keys.get({ summary: 'API key by id' }, apiKeys.get);
  keys.remove(
    {
      summary: 'Revoke an API key',
      description: 'The key is refused from then on (401). Revoking twice keeps the first revocation time.',
    },
    apiKeys.revoke,
  );
};
