import type { Executor } from '../../../db/client.js';
import { errors } from '../../../shared/errors.js';
import { type RequestContext, transaction } from '../../../shared/context.js';
import type { StagedFile } from '../../core/index.js';
import { adOpsErrors } from '../ad-ops.errors.js';
import { CREATIVES_PER_AD, type CreativesRepository, creativeAggregate } from './creatives.repository.js';
import type { CreativeInput } from './creatives.schemas.js';

/** What creatives need of core's assets: the one upload path (type from bytes, size caps, dedup) and image records. */
export interface CreativeAssets {
  /** Core's upload in its two halves: the bytes checked and stored (no transaction), then the asset row. */
  stage(ctx: RequestContext, bytes: Buffer): Promise<StagedFile>;
  record(ctx: RequestContext, file: StagedFile): Promise<{ row: { fileKey: string } }>;
  createImage(
    ctx: RequestContext,
    input: { file_key: string; name: string; gravity: 'center'; locales: [] },
  ): Promise<{ id: string }>;
}

const valuesOf = (input: CreativeInput) => ({
  name: input.name,
  kind: input.kind,
  clickUrl: input.click_url,
  altText: input.alt_text ?? null,
  width: input.width ?? null,
  height: input.height ?? null,
  html: input.kind === 'html' ? (input.html?.html ?? null) : null,
});

export function createCreativesService(deps: {
  repo: CreativesRepository;
  assets: CreativeAssets;
  adExists: (executor: Executor, mediaId: string, id: string) => Promise<boolean>;
  /** Locks the ad for the rest of the transaction (false when the media has none): creates under it queue. */
  lockAd: (tx: Executor, id: string, mediaId: string) => Promise<boolean>;
}) {
  const { repo } = deps;

  const load = async (executor: Executor, mediaId: string, id: string) => {
    const row = await repo.find(executor, mediaId, id);
    if (!row) throw adOpsErrors.creativeNotFound();
    return row;
  };

  const assertAd = async (executor: Executor, mediaId: string, adId: string) => {
    if (!(await deps.adExists(executor, mediaId, adId))) throw adOpsErrors.adNotFound();
  };

  return {
    listInAd: async (ctx: RequestContext, adId: string) => {
      await assertAd(ctx.db, ctx.mediaId, adId);
      return repo.listInAd(ctx.db, ctx.mediaId, adId);
    },

    get: (ctx: RequestContext, id: string) => load(ctx.db, ctx.mediaId, id),

    create: (ctx: RequestContext, adId: string, input: CreativeInput) =>
      transaction(ctx, async (tx) => {
        // Locked, so that two creates cannot both pass the count.
        if (!(await deps.lockAd(tx, adId, ctx.mediaId))) throw adOpsErrors.adNotFound();
        if ((await repo.countInAd(tx, adId)) >= CREATIVES_PER_AD) {
          throw errors.conflict('creative_limit_reached', `an ad has at most ${CREATIVES_PER_AD} live creatives`);
        }
        return load(tx, ctx.mediaId, await repo.insert(tx, ctx.mediaId, adId, valuesOf(input)));
      }),

    /** A full replace; an image creative keeps its uploaded image, one turned into HTML drops it. */
    replace: async (ctx: RequestContext, id: string, input: CreativeInput) => {
      const values = { ...valuesOf(input), ...(input.kind === 'html' && { imageId: null }) };
      if (!(await repo.update(ctx.db, ctx.mediaId, id, values))) throw adOpsErrors.creativeNotFound();
      return load(ctx.db, ctx.mediaId, id);
    },

    remove: async (ctx: RequestContext, id: string) => {
      const deleted = await transaction(ctx, (tx) => creativeAggregate.softDelete(tx, id, ctx.mediaId));
      if (!deleted) throw adOpsErrors.creativeNotFound();
    },

    /**
     * The slow half of a creative's image, before the write's transaction: the creative checked
     * (an image creative of the media), then the bytes through core's upload (type from the
     * bytes, one stored file per content hash).
     */
    async stageImage(ctx: RequestContext, id: string, bytes: Buffer) {
      const creative = await load(ctx.db, ctx.mediaId, id);
      if (creative.kind !== 'image') throw adOpsErrors.creativeNotImage();
      return deps.assets.stage(ctx, bytes);
    },

    /** The creative's image from its staged bytes: an asset image of the media named after the creative. */
    async uploadImage(ctx: RequestContext, id: string, staged: StagedFile) {
      const creative = await load(ctx.db, ctx.mediaId, id);
      if (creative.kind !== 'image') throw adOpsErrors.creativeNotImage();
      const { row: asset } = await deps.assets.record(ctx, staged);
      const image = await deps.assets.createImage(ctx, { file_key: asset.fileKey, name: creative.name, gravity: 'center', locales: [] });
      if (!(await repo.update(ctx.db, ctx.mediaId, id, { imageId: image.id }))) throw adOpsErrors.creativeNotFound();
      return load(ctx.db, ctx.mediaId, id);
    },
  };
}

export type CreativesService = ReturnType<typeof createCreativesService>;
