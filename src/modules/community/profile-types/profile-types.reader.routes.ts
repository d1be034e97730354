import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { fallbackOf, localesOf, readerList, readerListOf, readerListQuery } from '../../../shared/http/reader.js';
import { route } from '../../../shared/http/route.js';
import { communityTags } from '../community.tags.js';
import { toReaderProfileType } from './profile-types.mappers.js';
import { readerProfileTypeSchema } from './profile-types.schemas.js';
import type { ProfileTypesService } from './profile-types.service.js';

/** /api/media/v1/profile-types: the media's profile types, in the Reader's list shape. */
export const profileTypesReaderRoutes: FastifyPluginAsyncZod<{ profileTypes: ProfileTypesService }> = async (
  app,
  { profileTypes },
) => {
  route(app, {
    method: 'GET',
    url: '/profile-types',
    operationId: 'readerListProfileTypes',
    serves: 'profile_type',
    summary: 'List profile types',
    tag: communityTags.readerProfileTypes,
    access: { scope: 'media:read' },
    querystring: readerListQuery,
    response: { 200: readerListOf(readerProfileTypeSchema) },
    handler: async (ctx, { query }, reply) => {
      const { media } = reply.request;
      // Nothing in a profile type is per language: each item's meta.locales is the list's, made once.
      const locales = localesOf(media.locales, query.locale, fallbackOf(media));
      return readerList(reply.request, await profileTypes.list(ctx, query), query.locale, (row) => toReaderProfileType(row, locales));
    },
  });
};
