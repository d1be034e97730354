import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { one } from '../../../shared/envelopes.js';
import { backofficeResource } from '../../../shared/http/resource.js';
import { route } from '../../../shared/http/route.js';
import { dataOf } from '../../../shared/schemas.js';
import { coreTags } from '../core.tags.js';
import { toApiKey } from './api-keys.mappers.js';
import { apiKeyCreateBody, apiKeySchema, createdApiKeySchema } from './api-keys.schemas.js';
import type { ApiKeysService } from './api-keys.service.js';

export const apiKeysBackofficeRoutes: FastifyPluginAsyncZod<{ apiKeys: ApiKeysService }> = async (app, { apiKeys }) => {
  const keys = backofficeResource(app, {
    path: '/api-keys',
    kind: 'api_key',
    names: { one: 'ApiKey', many: 'ApiKeys' },
    tag: coreTags.apiKeys,
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
  route(app, {
    method: 'POST',
    url: '/api-keys',
    operationId: 'createApiKey',
    record: { kind: 'api_key' },
    summary: 'Create an API key',
    description: 'The answer carries the secret in data.key, once. Only its hash is stored.',
    tag: coreTags.apiKeys,
    access: { permission: 'admin:write' },
    body: apiKeyCreateBody,
    // The answer carries a secret shown once: a stored replay would keep it at rest (only its hash is kept).
    idempotent: false,
    response: { 201: dataOf(createdApiKeySchema) },
    handler: async (ctx, { body }) => {
      const { row, secret } = await apiKeys.issue(ctx, body);
      return one({ ...toApiKey(row), key: secret });
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
