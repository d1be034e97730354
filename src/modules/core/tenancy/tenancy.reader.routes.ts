import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { one } from '../../../shared/envelopes.js';
import { dataOf, errorResponses } from '../../../shared/schemas.js';
import { toMedia } from './tenancy.mappers.js';
import { mediaSchema } from './tenancy.schemas.js';
import type { TenancyService } from './tenancy.service.js';

/** Media overview: what a front end needs to know about the media it serves. */
export const tenancyReaderRoutes: FastifyPluginAsyncZod<{ tenancy: TenancyService }> = async (app, { tenancy }) => {
  app.get('/media', {
    config: { scope: 'media:read' },
    schema: {
      tags: ['Reader: Media'],
      summary: 'Media overview',
      description: 'The media named by x-service-media-id: name and languages.',
      response: { 200: dataOf(mediaSchema), ...errorResponses(400, 401, 403, 404, 429) },
    },
    handler: async (req) => one(toMedia(await tenancy.cachedMedia(req.mediaId))),
  });
};
