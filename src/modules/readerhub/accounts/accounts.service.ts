import type { Executor } from '../../../db/client.js';
import { type RequestContext, transaction } from '../../../shared/context.js';
import { insertOrFind } from '../../../shared/idempotent.js';
import { readerhubErrors } from '../readerhub.errors.js';
import type { AccountsRepository, ReaderIdentity } from './accounts.repository.js';
import type { MetadataInput, ProfileCreate, ProfileUpdate, ReadersQuery } from './accounts.schemas.js';
import type { ReaderRow } from './accounts.table.js';

/** Who the context's token says the reader is. Routes that get here are `readerRequired`. */
function identityOf(ctx: RequestContext): ReaderIdentity {
  const principal = ctx.principal;
  if (!principal || !('kind' in principal) || principal.kind !== 'reader' || !principal.providerId || !principal.sub) {
    // The route forgot `readerRequired`: a bug on our side, so a 500 rather than a client error.
    throw new Error('reader account asked for a principal that is not a signed-in reader');
  }
  return {
    mediaId: principal.mediaId,
    providerId: principal.providerId,
    sub: principal.sub,
    email: principal.email ?? null,
    name: principal.name ?? null,
  };
}

const profileFields = (input: ProfileUpdate) => ({
  ...(input.first_name !== undefined && { firstName: input.first_name }),
  ...(input.last_name !== undefined && { lastName: input.last_name }),
  ...(input.other_name !== undefined && { otherName: input.other_name }),
  ...(input.pronoun !== undefined && { pronoun: input.pronoun }),
  ...(input.profile_image_key !== undefined && { profileImageKey: input.profile_image_key }),
});

/** Answers when `fileKey` is a live asset image of the context's media, throws its 404 otherwise (core assets). */
export type ImageCheck = (ctx: RequestContext, fileKey: string) => Promise<unknown>;

export function createAccountsService(deps: { repo: AccountsRepository; imageExists?: ImageCheck }) {
  const { repo } = deps;

  /** A profile image must be an image of the reader's media, checked before anything is written. */
  const checkImage = async (ctx: RequestContext, key: string | null | undefined) => {
    if (key == null) return;
    if (!deps.imageExists) throw new Error('profile images need the assets service');
    await deps.imageExists(ctx, key);
  };

  const loadProfile = async (executor: Executor, readerId: string) => {
    const row = await repo.findProfile(executor, readerId);
    if (!row) throw readerhubErrors.profileNotFound();
    return row;
  };

  return {
    /**
     * The account of the context's reader, created on first use. Reads first (the common
     * case costs one indexed select); two first requests racing both end up with the same row.
     */
    async ensure(ctx: RequestContext): Promise<ReaderRow> {
      const identity = identityOf(ctx);
      const found = await repo.findByIdentity(ctx.db, identity);
      if (found) return found;
      const { row } = await insertOrFind(
        () => repo.insertIfAbsent(ctx.db, identity),
        () => repo.findByIdentity(ctx.db, identity),
      );
      return row;
    },

    /** Verify oauth user: links or creates the account and refreshes e-mail and name from the token. */
    async verify(ctx: RequestContext): Promise<{ row: ReaderRow; created: boolean }> {
      const identity = identityOf(ctx);
      const written = await repo.upsert(ctx.db, identity);
      if (written) return written;
      const row = await repo.findByIdentity(ctx.db, identity);
      if (!row) throw new Error('reader account vanished after an upsert');
      return { row, created: false };
    },

    list: (ctx: RequestContext, query: ReadersQuery) => repo.list(ctx.db, ctx.mediaId, query),

    async get(ctx: RequestContext, id: string): Promise<ReaderRow> {
      const row = await repo.find(ctx.db, ctx.mediaId, id);
      if (!row) throw readerhubErrors.readerNotFound();
      return row;
    },

    getProfile: (ctx: RequestContext, reader: ReaderRow) => loadProfile(ctx.db, reader.id),

    async createProfile(ctx: RequestContext, reader: ReaderRow, input: ProfileCreate) {
      await checkImage(ctx, input.profile_image_key);
      return transaction(ctx, async (tx) => {
        const id = await repo.insertProfile(tx, {
          readerId: reader.id,
          firstName: input.first_name ?? null,
          lastName: input.last_name ?? null,
          otherName: input.other_name ?? null,
          pronoun: input.pronoun ?? null,
          profileImageKey: input.profile_image_key ?? null,
        });
        if (!id) throw readerhubErrors.profileExists();
        if (input.metadata?.length) await repo.replaceMetadata(tx, id, input.metadata);
        return loadProfile(tx, reader.id);
      });
    },

    async updateProfile(ctx: RequestContext, reader: ReaderRow, patch: ProfileUpdate) {
      await checkImage(ctx, patch.profile_image_key);
      return transaction(ctx, async (tx) => {
        const id = await repo.lockProfile(tx, reader.id);
        if (!id) throw readerhubErrors.profileNotFound();
        await repo.updateProfile(tx, id, profileFields(patch));
        return loadProfile(tx, reader.id);
      });
    },

    async getMetadata(ctx: RequestContext, reader: ReaderRow) {
      return (await loadProfile(ctx.db, reader.id)).metadata;
    },

    /** Replaces every pair at once; the profile row is locked so that two PUTs do not interleave. */
    async replaceMetadata(ctx: RequestContext, reader: ReaderRow, pairs: MetadataInput) {
      return transaction(ctx, async (tx) => {
        const id = await repo.lockProfile(tx, reader.id);
        if (!id) throw readerhubErrors.profileNotFound();
        await repo.replaceMetadata(tx, id, pairs);
        await repo.updateProfile(tx, id, {});
        return (await loadProfile(tx, reader.id)).metadata;
      });
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
