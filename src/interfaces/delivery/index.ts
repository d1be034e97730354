import type { FastifyPluginAsync } from 'fastify';
import { coreDeliveryRoutes } from '../../modules/core/index.js';
import { applyRateLimit } from '../../plugins/rate-limit.js';
import { recordRoutes } from '../../shared/http/route-table.js';
import { documentRoute } from '../../shared/http/route.js';
import type { TreeOptions } from '../backoffice/index.js';

/**
 * Image delivery at /assets: public and read-only, as images of a media are on every CMS.
 * Answers from storage are not rate limited (a page shows many images, often through one CDN
 * address); a request that makes a new rendition counts per IP at the anonymous rate.
 */
export const deliveryTree: FastifyPluginAsync<TreeOptions> = async (app, { config, services, redis }) => {
  app.addHook('onRoute', (route) => {
    // Fail at start-up rather than publish a route that meant to be protected.
    if (!route.config?.anonymous) throw new Error(`Delivery route ${route.method} ${route.url} must be anonymous`);
    documentRoute(app, route, [429]);
    route.schema = { ...route.schema, security: [] };
    recordRoutes(app, 'delivery', route);
  });
  await applyRateLimit(app, {
    max: config.rateLimit.anonymous,
    keyGenerator: (req) => `ip:${req.ip}`,
    redis,
    namespace: 'delivery',
  });
  const limitTransforms = app.rateLimit({ max: config.rateLimit.anonymous, keyGenerator: (req) => `render:${req.ip}` });

  await app.register(coreDeliveryRoutes, { core: services.core, limitTransforms });
};
