import type { Db, Executor } from '../../../db/client.js';
import type { RequestContext } from '../../../shared/http/route.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { communityErrors } from '../community.errors.js';
import { type ProfileTypesRepository, profileTypeAggregate } from './profile-types.repository.js';
import type { ProfileTypeCreate } from './profile-types.schemas.js';

export function createProfileTypesService(deps: { db: Db; repo: ProfileTypesRepository }) {
  const { db, repo } = deps;

  const load = async (executor: Executor, mediaId: string, id: string) => {
    const row = await repo.find(executor, mediaId, id);
    if (!row) throw communityErrors.profileTypeNotFound();
    return row;
  };

  return {
    list: (ctx: RequestContext, query: PagingQuery) => repo.list(db, ctx.mediaId, query),

    get: (ctx: RequestContext, id: string) => load(db, ctx.mediaId, id),

    create: (ctx: RequestContext, input: ProfileTypeCreate) =>
      db.transaction(async (tx) => {
        const id = await repo.insert(tx, {
          mediaId: ctx.mediaId,
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
        });
        await profileTypeAggregate.replace(tx, 'metadata', id, input.metadata.map((m) => ({ key: m.key, value: m.value })));
        return load(tx, ctx.mediaId, id);
      }),
  };
}

export type ProfileTypesService = ReturnType<typeof createProfileTypesService>;
