import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { backofficeResource } from '../../../shared/http/resource.js';
import { communityTags } from '../community.tags.js';
import { toProfileType } from './profile-types.mappers.js';
import { profileTypeCreateBody, profileTypeSchema, profileTypeUpdateBody } from './profile-types.schemas.js';
import type { ProfileTypesService } from './profile-types.service.js';
import { profileTypeAggregate } from './profile-types.repository.js';

export const profileTypesBackofficeRoutes: FastifyPluginAsyncZod<{ profileTypes: ProfileTypesService }> = async (
  app,
  { profileTypes },
) => {
  const resource = backofficeResource(app, {
    path: '/profile-types',
    kind: 'profile_type',
    lock: profileTypeAggregate,
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
  resource.update(
    { summary: 'Update a profile type', description: 'Fields left out keep their value; `metadata`, when sent, is the complete set. The kind never changes.', body: profileTypeUpdateBody, errors: [409] },
    profileTypes.update,
  );
  resource.remove({ summary: 'Delete a profile type (soft)', description: 'A type live profiles still have is a 409 `profile_type_in_use`.', errors: [409] }, profileTypes.remove);
  resource.restore({ summary: 'Restore a deleted profile type', description: 'Idempotent; 409 when another type took its key meanwhile.', errors: [409] }, profileTypes.restore);
};
