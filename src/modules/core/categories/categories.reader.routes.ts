import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { one } from '../../../shared/envelopes.js';
import { localeQuery, readerList, readerListOf, readerListQuery, readerView } from '../../../shared/http/reader.js';
import { route } from '../../../shared/http/route.js';
import { dataOf, idParams } from '../../../shared/schemas.js';
import { coreTags } from '../core.tags.js';
import { toReaderCategory } from './categories.mappers.js';
import { readerCategorySchema } from './categories.schemas.js';
import type { CategoriesService } from './categories.service.js';

const tag = coreTags.readerCategories;

/** /api/media/v1/categories: live, not archived categories in the asked language. */
export const categoriesReaderRoutes: FastifyPluginAsyncZod<{ categories: CategoriesService }> = async (app, { categories }) => {
  route(app, {
    method: 'GET',
    url: '/categories',
    operationId: 'readerListCategories',
    serves: 'category',
    summary: 'List categories',
    tag,
    access: { scope: 'media:read' },
    querystring: readerListQuery,
    response: { 200: readerListOf(readerCategorySchema) },
    handler: async (ctx, { query }, reply) =>
      readerList(reply.request, await categories.listPublished(ctx, query), query.locale, toReaderCategory),
  });

  route(app, {
    method: 'GET',
    url: '/categories/:id',
    operationId: 'readerGetCategory',
    serves: 'category',
    summary: 'Category by id',
    tag,
    access: { scope: 'media:read' },
    params: idParams,
    querystring: localeQuery,
    response: { 200: dataOf(readerCategorySchema) },
    handler: async (ctx, { params, query }, reply) =>
      one(toReaderCategory(await categories.getPublished(ctx, params.id), readerView(reply.request, query.locale))),
  });
};
