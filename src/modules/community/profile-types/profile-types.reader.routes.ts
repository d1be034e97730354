import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pagingMeta } from '../../../shared/envelopes.js';
import { errorResponses, pagingMeta as pagingMetaSchema, pagingQuery } from '../../../shared/schemas.js';
import { toReaderProfileType } from './profile-types.mappers.js';
import { readerProfileTypeSchema } from './profile-types.schemas.js';
import type { ProfileTypesService } from './profile-types.service.js';

export const profileTypesReaderRoutes: FastifyPluginAsyncZod<{
  profileTypes: ProfileTypesService;
  mediaLocales: (mediaId: string) => Promise<{ defaultLocale: string; locales: string[] }>;
}> = async (app, { profileTypes, mediaLocales }) => {
  app.get('/profile-types', {
    config: { scope: 'media:read' },
    schema: {
      tags: ['Reader: Profile types'],
      summary: 'List profile types',
      querystring: pagingQuery,
      response: {
        200: z.object({ data: z.array(readerProfileTypeSchema), meta: pagingMetaSchema }),
        ...errorResponses(400, 401, 403, 404, 429),
      },
    },
    handler: async (req) => {
      const media = await mediaLocales(req.mediaId);
      const page = await profileTypes.list(req.mediaId, req.query);
      const locales = { current: media.defaultLocale, available: media.locales };
      return { data: page.items.map((row) => toReaderProfileType(row, locales)), meta: pagingMeta(req, page) };
    },
  });
};
