import type { FastifyPluginAsync } from 'fastify';
import { recordRoutes } from '../../plugins/route-table.js';
import type { TreeOptions } from '../backoffice/index.js';

/** The Reader interface at /api/media/v1: paging links are absolute URLs. */
export const readerTree: FastifyPluginAsync<TreeOptions> = async (app, { config }) => {
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, security: [{ bearer: [] }] };
    recordRoutes(app, 'reader', route);
  });
  app.addHook('onRequest', async (req) => {
    req.linkOrigin = config.publicBaseUrl ?? `${req.protocol}://${req.host}`;
  });
};
