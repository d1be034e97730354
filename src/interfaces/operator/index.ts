import type { FastifyPluginAsync } from 'fastify';
import { coreOperatorRoutes } from '../../modules/core/index.js';
import { operatorAuth } from '../../plugins/operator-auth.js';
import { applyRateLimit } from '../../plugins/rate-limit.js';
import { recordRoutes } from '../../shared/http/route-table.js';
import { documentRoute } from '../../shared/http/route.js';
import type { TreeOptions } from '../backoffice/index.js';

/**
 * The operator API at /operator/v1: the deployment's medias and their keys, for the holder of
 * OPERATOR_API_KEY only, with a rate limit of its own. app.ts registers it only when that key
 * is set, so it is absent (404, not in OpenAPI) otherwise.
 */
export const operatorTree: FastifyPluginAsync<TreeOptions & { operatorApiKey: string }> = async (
  app,
  { config, services, redis, authFailures, operatorApiKey },
) => {
  app.addHook('onRoute', (route) => {
    // Fail at start-up rather than serve a route under this prefix with another kind of access.
    if (!route.config?.operator) throw new Error(`Operator route ${route.method} ${route.url} does not declare operator access`);
    documentRoute(app, route, [401, 429]);
    route.schema = { ...route.schema, security: [{ operatorKey: [] }] };
    recordRoutes(app, 'operator', route);
  });
  app.addHook('onRequest', operatorAuth(operatorApiKey, authFailures));
  await applyRateLimit(app, {
    max: config.operatorRateLimit,
    keyGenerator: (req) => `ip:${req.ip}`,
    redis,
    namespace: 'operator',
  });

  await app.register(coreOperatorRoutes, { core: services.core });
};
