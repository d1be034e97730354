import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { list, one } from '../../../shared/envelopes.js';
import { dataOf, errorResponses, idParams, listOf, noContent, pagingQuery } from '../../../shared/schemas.js';
import { toBackofficeCategory } from './categories.mappers.js';
import { categoryCreateBody, categorySchema, categoryUpdateBody } from './categories.schemas.js';
import type { CategoriesService } from './categories.service.js';

const tags = ['Core: Categories'];

export const categoriesBackofficeRoutes: FastifyPluginAsyncZod<{ categories: CategoriesService }> = async (app, { categories }) => {
  app.get('/categories', {
    config: { permission: 'core:read' },
    schema: {
      tags,
      summary: 'List categories',
      description: 'Live categories of the key\'s media, newest first, with their live locale entries.',
      querystring: pagingQuery,
      response: { 200: listOf(categorySchema), ...errorResponses(400, 401, 403, 429) },
    },
    handler: async (req) => list(req, await categories.list(req.principal.mediaId, req.query), toBackofficeCategory),
  });

  app.post('/categories', {
    config: { permission: 'core:write' },
    schema: {
      tags,
      summary: 'Create a category',
      body: categoryCreateBody,
      response: { 201: dataOf(categorySchema), ...errorResponses(400, 401, 403, 413, 415, 429) },
    },
    handler: async (req, reply) => {
      const row = await categories.create(req.principal.mediaId, req.body);
      return reply.status(201).send(one(toBackofficeCategory(row)));
    },
  });

  app.get('/categories/:id', {
    config: { permission: 'core:read' },
    schema: {
      tags,
      summary: 'Category by id',
      params: idParams,
      response: { 200: dataOf(categorySchema), ...errorResponses(400, 401, 403, 404, 429) },
    },
    handler: async (req) => one(toBackofficeCategory(await categories.get(req.principal.mediaId, req.params.id))),
  });

  app.patch('/categories/:id', {
    config: { permission: 'core:write' },
    schema: {
      tags,
      summary: 'Update a category',
      description: 'Fields left out keep their value. `locales`, when sent, is the complete set of locale entries.',
      params: idParams,
      body: categoryUpdateBody,
      response: { 200: dataOf(categorySchema), ...errorResponses(400, 401, 403, 404, 413, 415, 429) },
    },
    handler: async (req) =>
      one(toBackofficeCategory(await categories.update(req.principal.mediaId, req.params.id, req.body))),
  });

  app.delete('/categories/:id', {
    config: { permission: 'core:write' },
    schema: {
      tags,
      summary: 'Delete a category (soft)',
      description: 'Sets deleted_at on the category and its live locale entries; restore brings them back.',
      params: idParams,
      response: { 204: noContent, ...errorResponses(400, 401, 403, 404, 429) },
    },
    handler: async (req, reply) => {
      await categories.remove(req.principal.mediaId, req.params.id);
      return reply.status(204).send();
    },
  });

  app.post('/categories/:id/restore', {
    config: { permission: 'core:write' },
    schema: {
      tags,
      summary: 'Restore a deleted category',
      description: 'Idempotent: restoring a live category answers it as it is.',
      params: idParams,
      response: { 200: dataOf(categorySchema), ...errorResponses(400, 401, 403, 404, 429) },
    },
    handler: async (req) => one(toBackofficeCategory(await categories.restore(req.principal.mediaId, req.params.id))),
  });
};
