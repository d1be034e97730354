import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.js';
import type { Paginator } from '../../shared/paging.js';
import { createProfileTypesRepository } from './profile-types/profile-types.repository.js';
import { profileTypesBackofficeRoutes } from './profile-types/profile-types.backoffice.routes.js';
import { profileTypesReaderRoutes } from './profile-types/profile-types.reader.routes.js';
import { createProfileTypesService } from './profile-types/profile-types.service.js';

export type { ProfileKind } from './profiles/profiles.kinds.js';
export { liveProfileIds, publishedProfileLinks } from './profiles/profiles.lookup.js';

export function createCommunityServices(deps: { db: Db; pager: Paginator }) {
  return {
    profileTypes: createProfileTypesService({ db: deps.db, repo: createProfileTypesRepository(deps.pager) }),
  };
}

export type CommunityServices = ReturnType<typeof createCommunityServices>;

/** Every /community/v2 Backoffice route. */
export const communityBackofficeRoutes: FastifyPluginAsyncZod<{ community: CommunityServices }> = async (app, { community }) => {
  await app.register(profileTypesBackofficeRoutes, { profileTypes: community.profileTypes });
};

/** Community's Reader routes under /api/media/v1. */
export const communityReaderRoutes: FastifyPluginAsyncZod<{ community: CommunityServices }> = async (app, { community }) => {
  await app.register(profileTypesReaderRoutes, { profileTypes: community.profileTypes });
};
