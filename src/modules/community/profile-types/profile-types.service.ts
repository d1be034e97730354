import type { Db } from '../../../db/client.js';
import { errors } from '../../../shared/errors.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import type { ProfileTypesRepository } from './profile-types.repository.js';
import type { ProfileTypeCreate } from './profile-types.schemas.js';

export function createProfileTypesService(deps: { db: Db; repo: ProfileTypesRepository }) {
  const { db, repo } = deps;
  return {
    list: (mediaId: string, query: PagingQuery) => repo.list(db, mediaId, query),

    async get(mediaId: string, id: string) {
      const row = await repo.find(db, mediaId, id);
      if (!row) throw errors.notFound('profile_type');
      return row;
    },

    create: (mediaId: string, input: ProfileTypeCreate) =>
      repo.insert(db, {
        mediaId,
        kind: input.kind,
        key: input.key,
        name: input.name,
        hasPhone: input.has_phone ?? false,
        hasEmail: input.has_email ?? false,
        hasBluesky: input.has_bluesky ?? false,
        hasLinkedin: input.has_linkedin ?? false,
        hasWebsite: input.has_website ?? false,
        hasFacebook: input.has_facebook ?? false,
        hasTwitter: input.has_twitter ?? false,
        hasInstagram: input.has_instagram ?? false,
        hasCountry: input.has_country ?? false,
        hasState: input.has_state ?? false,
        hasCity: input.has_city ?? false,
        hasStreet: input.has_street ?? false,
        hasLocation: input.has_location ?? false,
        metadata: input.metadata,
      }),
  };
}

export type ProfileTypesService = ReturnType<typeof createProfileTypesService>;
