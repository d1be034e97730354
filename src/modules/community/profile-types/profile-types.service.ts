import type { Executor } from '../../../db/client.js';
import { type RequestContext, transaction } from '../../../shared/context.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { communityErrors } from '../community.errors.js';
import { type ProfileTypesRepository, profileTypeAggregate } from './profile-types.repository.js';
import type { ProfileTypeCreate, ProfileTypeUpdate } from './profile-types.schemas.js';
import { type ReaderView, localesOf } from '../../../shared/http/reader.js';
import { toReaderProfileType } from './profile-types.mappers.js';

/**
 * Profile types. Every method given a context reads and writes on its executor (`ctx.db`, or the
 * transaction `transaction(ctx, …)` joins or opens); the Reader's assocs (`summaries`, a list's
 * loader) read on the executor the list gives them, the request's.
 */
export function createProfileTypesService(deps: { repo: ProfileTypesRepository }) {
  const { repo } = deps;

  const load = async (executor: Executor, mediaId: string, id: string) => {
    const row = await repo.find(executor, mediaId, id);
    if (!row) throw communityErrors.profileTypeNotFound();
    return row;
  };

  return {
    list: (ctx: RequestContext, query: PagingQuery) => repo.list(ctx.db, ctx.mediaId, query),

    get: (ctx: RequestContext, id: string) => load(ctx.db, ctx.mediaId, id),

    /** Reader summaries (spec 2.5) of the live profile types among `ids`: a page's assocs, one statement. */
    summaries: async (executor: Executor, mediaId: string, ids: string[], view: Pick<ReaderView, 'locale' | 'fallback'>, available: string[]) =>
      (await repo.findMany(executor, mediaId, ids)).map((row) =>
        toReaderProfileType(row, localesOf(available, view.locale, view.fallback)),
      ),

    update: (ctx: RequestContext, id: string, patch: ProfileTypeUpdate) =>
      transaction(ctx, async (tx) => {
        if (!(await profileTypeAggregate.lock(tx, id, ctx.mediaId))) throw communityErrors.profileTypeNotFound();
        const flags = Object.fromEntries(
          Object.entries(patch)
            .filter(([k, v]) => k.startsWith('has_') && v !== undefined)
            .map(([k, v]) => [k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), v]),
        );
        await repo.update(tx, id, {
          ...(patch.key !== undefined && { key: patch.key }),
          ...(patch.name !== undefined && { name: patch.name }),
          ...flags,
        });
        if (patch.metadata) await profileTypeAggregate.replace(tx, 'metadata', id, patch.metadata.map((m) => ({ key: m.key, value: m.value })));
        return load(tx, ctx.mediaId, id);
      }),

    /** Soft delete; a type live profiles still have is a 409. */
    async remove(ctx: RequestContext, id: string): Promise<void> {
      await transaction(ctx, async (tx) => {
        if (!(await profileTypeAggregate.lock(tx, id, ctx.mediaId))) throw communityErrors.profileTypeNotFound();
        if (await repo.inUse(tx, id)) throw communityErrors.profileTypeInUse();
        await profileTypeAggregate.softDelete(tx, id, ctx.mediaId);
      });
    },

    restore: (ctx: RequestContext, id: string) =>
      transaction(ctx, async (tx) => {
        if ((await profileTypeAggregate.restore(tx, id, ctx.mediaId)) === 'not_found') throw communityErrors.profileTypeNotFound();
        return load(tx, ctx.mediaId, id);
      }),

    create: (ctx: RequestContext, input: ProfileTypeCreate) =>
      transaction(ctx, async (tx) => {
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
