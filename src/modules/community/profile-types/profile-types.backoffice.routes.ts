import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { list, one } from '../../../shared/envelopes.js';
import { dataOf, errorResponses, idParams, listOf, pagingQuery } from '../../../shared/schemas.js';
import { toProfileType } from './profile-types.mappers.js';
import { profileTypeCreateBody, profileTypeSchema } from './profile-types.schemas.js';
import type { ProfileTypesService } from './profile-types.service.js';

const tags = ['Community: Profile types'];

export const profileTypesBackofficeRoutes: FastifyPluginAsyncZod<{ profileTypes: ProfileTypesService }> = async (
  app,
  { profileTypes },
) => {
  app.get('/profile-types', {
    config: { permission: 'community:read' },
    schema: {
      tags,
      summary: 'List profile types',
      querystring: pagingQuery,
      response: { 200: listOf(profileTypeSchema), ...errorResponses(400, 401, 403, 429) },
    },
    handler: async (req) => list(req, await profileTypes.list(req.principal.mediaId, req.query), toProfileType),
  });

  app.post('/profile-types', {
    config: { permission: 'community:write' },
    schema: {
      tags,
      summary: 'Create a profile type',
      body: profileTypeCreateBody,
      response: { 201: dataOf(profileTypeSchema), ...errorResponses(400, 401, 403, 409, 413, 415, 429) },
    },
    handler: async (req, reply) =>
      reply.status(201).send(one(toProfileType(await profileTypes.create(req.principal.mediaId, req.body)))),
  });

  app.get('/profile-types/:id', {
    config: { permission: 'community:read' },
    schema: {
      tags,
      summary: 'Profile type by id',
      params: idParams,
      response: { 200: dataOf(profileTypeSchema), ...errorResponses(400, 401, 403, 404, 429) },
    },
    handler: async (req) => one(toProfileType(await profileTypes.get(req.principal.mediaId, req.params.id))),
  });
};
