import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pagingMeta } from '../../../shared/envelopes.js';
import { localeQuery, localesMeta } from '../../../shared/locales.js';
import { dataOf, errorResponses, idParams, pagingMeta as pagingMetaSchema, pagingQuery } from '../../../shared/schemas.js';
import type { TenancyService } from '../tenancy/tenancy.service.js';
import { toReaderCategory } from './categories.mappers.js';
import { readerCategorySchema } from './categories.schemas.js';
import type { CategoriesService } from './categories.service.js';

const tags = ['Reader: Categories'];

/** /api/media/v1/categories: live, not archived categories in the asked language. */
export const categoriesReaderRoutes: FastifyPluginAsyncZod<{ categories: CategoriesService; tenancy: TenancyService }> = async (
  app,
  { categories, tenancy },
) => {
  app.get('/categories', {
    config: { scope: 'media:read' },
    schema: {
      tags,
      summary: 'List categories',
      querystring: pagingQuery.extend(localeQuery.shape),
      response: {
        200: z.object({
          data: z.array(readerCategorySchema),
          meta: pagingMetaSchema.extend({ locales: localesMeta }),
        }),
        ...errorResponses(400, 401, 403, 404, 429),
      },
    },
    handler: async (req) => {
      const media = await tenancy.cachedMedia(req.mediaId);
      const page = await categories.listPublished(req.mediaId, req.query);
      return {
        data: page.items.map((row) => toReaderCategory(row, req.query.locale, media.defaultLocale)),
        meta: {
          ...pagingMeta(req, page),
          locales: {
            // A language the media does not publish in falls back to its default, as the items do.
            current: req.query.locale && media.locales.includes(req.query.locale) ? req.query.locale : media.defaultLocale,
            available: media.locales,
          },
        },
      };
    },
  });

  app.get('/categories/:id', {
    config: { scope: 'media:read' },
    schema: {
      tags,
      summary: 'Category by id',
      params: idParams,
      querystring: localeQuery,
      response: { 200: dataOf(readerCategorySchema), ...errorResponses(400, 401, 403, 404, 429) },
    },
    handler: async (req) => {
      const media = await tenancy.cachedMedia(req.mediaId);
      const row = await categories.getPublished(req.mediaId, req.params.id);
      return { data: toReaderCategory(row, req.query.locale, media.defaultLocale) };
    },
  });
};
