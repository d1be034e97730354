import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { backofficeResource } from '../../../shared/http/resource.js';
import { communityTags } from '../community.tags.js';
import { toProfileType } from './profile-types.mappers.js';
import { profileTypeCreateBody, profileTypeSchema } from './profile-types.schemas.js';
import type { ProfileTypesService } from './profile-types.service.js';

export const profileTypesBackofficeRoutes: FastifyPluginAsyncZod<{ profileTypes: ProfileTypesService }> = async (
  app,
  { profileTypes },
) => {
  const resource = backofficeResource(app, {
    path: '/profile-types',
    names: { one: 'ProfileType', many: 'ProfileTypes' },
    tag: communityTags.profileTypes,
    item: profileTypeSchema,
    map: toProfileType,
    read: 'community:read',
    write: 'community:write',
  });
  resource.list({ summary: 'List profile types' }, profileTypes.list);
  resource.create({ summary: 'Create a profile type', body: profileTypeCreateBody, errors: [409] }, profileTypes.create);
  resource.get({ summary: 'Profile type by id' }, profileTypes.get);
};
