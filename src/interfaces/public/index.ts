import type { FastifyPluginAsync } from 'fastify';
import { corePublicRoutes } from '../../modules/core/index.js';
import { applyCors } from '../../plugins/cors.js';
import { applyRateLimit } from '../../plugins/rate-limit.js';
import { recordRoutes } from '../../plugins/route-table.js';
import { documentRoute } from '../../shared/http/route.js';
import type { TreeOptions } from '../backoffice/index.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Path of the Reader operation that replaces a Public one, for the Link header. */
    successor?: string;
  }
}

/**
 * The deprecated Public interface: anonymous, read-only, published data only. Every
 * operation is marked deprecated in OpenAPI and answers with Deprecation and Link headers.
 */
export const publicTree: FastifyPluginAsync<TreeOptions> = async (app, { config, services, redis }) => {
  // Read-only, and open to the same browser origins as the Reader.
  await applyCors(app, config.corsOrigins ?? (config.corsBackofficeOrigins ? false : undefined), ['GET', 'HEAD']);
  app.addHook('onRoute', (route) => {
    documentRoute(app, route, [429]);
    route.schema = { ...route.schema, deprecated: true, security: [] };
    recordRoutes(app, 'public', route);
  });
  app.addHook('onSend', async (req, reply) => {
    reply.header('deprecation', 'true');
    const successor = req.routeOptions.config.successor;
    if (successor) reply.header('link', `<${successor}>; rel="successor-version"`);
  });
  await applyRateLimit(app, {
    max: config.rateLimit.anonymous,
    keyGenerator: (req) => `ip:${req.ip}`,
    redis,
    namespace: 'public',
  });

  await app.register(corePublicRoutes, { core: services.core });
};
