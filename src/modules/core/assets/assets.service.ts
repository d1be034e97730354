import { createHash } from 'node:crypto';
import type { Executor } from '../../../db/client.js';
import { escapeHtml } from '../../../shared/html.js';
import { type RequestContext, afterCommit, transaction } from '../../../shared/context.js';
import { insertOrFind } from '../../../shared/idempotent.js';
import type { Limiter } from '../../../shared/limiter.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { coreErrors } from '../core.errors.js';
import type { TenancyService } from '../tenancy/tenancy.service.js';
import { type AssetDelivery, originalKey } from './assets.delivery.js';
import { EXTENSIONS, type Gravity, type ImageInfo, inspect, withoutMetadata } from './assets.images.js';
import { type AssetsRepository, imageAggregate } from './assets.repository.js';
import type { AssetRow } from './assets.table.js';
import type { AssetImageCreate, AssetImageLocaleInput, AssetImageUpdate } from './assets.schemas.js';
import type { Storage } from './storage/index.js';

/** Staged bytes: the asset the media already holds for them, or bytes checked and stored for a row still to write. */
export type StagedFile = { known: AssetRow } | { fileHash: string; size: number; info: ImageInfo };

export interface UploadLimits {
  /** UPLOAD_LIMIT: largest Backoffice upload in bytes. */
  upload: number;
  /** READER_UPLOAD_LIMIT: largest Reader upload in bytes. */
  readerUpload: number;
  /** RATE_LIMIT_READER_UPLOADS: uploads a minute per reader. */
  readerPerMinute: number;
}

const localeEntries = (entries: AssetImageLocaleInput[]) =>
  entries.map((l) => ({
    locale: l.locale,
    credit: l.credit ?? null,
    captionHtml: l.caption_html?.html ?? null,
    captionText: l.caption_html?.text ?? null,
  }));

/** A client's file name as a label: its last path segment, never a path. */
const labelOf = (filename: string) => filename.split(/[/\\]/).pop()!.trim().slice(0, 300);

export function createAssetsService(deps: {
  repo: AssetsRepository;
  storage: Storage;
  limiter: Limiter;
  delivery: AssetDelivery;
  tenancy: TenancyService;
  uploads: UploadLimits;
}) {
  const { repo, storage, limiter, delivery, tenancy } = deps;

  const loadImage = async (executor: Executor, mediaId: string, id: string) => {
    const row = await repo.findImage(executor, mediaId, id);
    if (!row) throw coreErrors.assetImageNotFound();
    return row;
  };

  /** Delivery forgets a file once the change to its records has committed (a lookup meanwhile would keep the old answer). */
  const forgetOnCommit = (ctx: RequestContext, fileKey: string) => afterCommit(ctx, () => delivery.forget(fileKey));

  const assetByKey = async (executor: Executor, mediaId: string, fileKey: string) => {
    const asset = await repo.findAssetByKey(executor, mediaId, fileKey);
    if (!asset) throw coreErrors.assetNotFound();
    return asset;
  };

  /**
   * The slow half of an upload, which needs no transaction: the bytes hashed, decoded (type,
   * size, a trial decode) and stored, unless the media holds them already. A route runs it
   * before its transaction opens (`upload.stage`); `record` then writes the row.
   */
  async function stage(ctx: RequestContext, bytes: Buffer): Promise<StagedFile> {
    const fileHash = createHash('sha256').update(bytes).digest('hex');
    // Bytes seen before were checked then: no decoding again.
    const known = await repo.findAssetByHash(ctx.db, ctx.mediaId, fileHash);
    if (known) return { known };
    const info = await limiter.run(() => inspect(bytes));
    // Stored before the row exists, so a row always has its bytes; a concurrent upload of the
    // same bytes writes the same file.
    await storage.put(originalKey({ mediaId: ctx.mediaId, fileHash }), bytes, info.type);
    return { fileHash, size: bytes.length, info };
  }

  /** The asset of staged bytes: the one the media holds (created: false), else a new row. */
  async function record(ctx: RequestContext, file: StagedFile) {
    // (Asset rows are never deleted: bytes the media held when staged, it holds now.)
    if ('known' in file) return { row: file.known, created: false };
    const { info } = file;
    // A concurrent upload of the same bytes may have written the row meanwhile: then it is found.
    return insertOrFind(
      () =>
        repo.insertAssetIfAbsent(ctx.db, {
          mediaId: ctx.mediaId,
          fileKey: `${ctx.mediaId}_${file.fileHash}.${EXTENSIONS[info.type]}`,
          fileHash: file.fileHash,
          contentType: info.type,
          size: file.size,
          width: info.width,
          height: info.height,
        }),
      () => repo.findAssetByHash(ctx.db, ctx.mediaId, file.fileHash),
    );
  }

  /** Stores the bytes once per media: the same bytes again find the asset they made (created: false). */
  const upload = async (ctx: RequestContext, bytes: Buffer) => record(ctx, await stage(ctx, bytes));

  async function createImage(ctx: RequestContext, input: AssetImageCreate) {
    const locales = input.locales ?? [];
    await tenancy.assertLocales(ctx, locales);
    const row = await transaction(ctx, async (tx) => {
      const asset = await assetByKey(tx, ctx.mediaId, input.file_key);
      const id = await repo.insertImage(tx, {
        mediaId: ctx.mediaId,
        assetId: asset.id,
        fileKey: asset.fileKey,
        fileHash: asset.fileHash,
        name: input.name,
        gravity: input.gravity ?? 'center',
      });
      if (locales.length > 0) await imageAggregate.replace(tx, 'locales', id, localeEntries(locales));
      return loadImage(tx, ctx.mediaId, id);
    });
    forgetOnCommit(ctx, row.fileKey);
    return row;
  }

  return {
    upload,
    stage,
    record,

    /** A reader's photo, staged: published as uploaded, so its metadata (GPS position, camera) goes before it is stored. */
    async stageForReader(ctx: RequestContext, bytes: Buffer): Promise<StagedFile> {
      const { type } = await limiter.run(() => inspect(bytes));
      return stage(ctx, await limiter.run(() => withoutMetadata(bytes, type)));
    },

    getAsset: async (ctx: RequestContext, id: string) => {
      const row = await repo.findAsset(ctx.db, ctx.mediaId, id);
      if (!row) throw coreErrors.assetNotFound();
      return row;
    },

    listImages: (ctx: RequestContext, query: PagingQuery) => repo.listImages(ctx.db, ctx.mediaId, query),

    getImage: (ctx: RequestContext, id: string) => loadImage(ctx.db, ctx.mediaId, id),

    /** The newest live image record of the file (two records may share one file). */
    async imageByKey(ctx: RequestContext, fileKey: string) {
      const row = await repo.imageByKey(ctx.db, ctx.mediaId, fileKey);
      if (!row) throw coreErrors.assetImageNotFound();
      return row;
    },

    async imageByHash(ctx: RequestContext, fileHash: string) {
      const row = await repo.imageByHash(ctx.db, ctx.mediaId, fileHash);
      if (!row) throw coreErrors.assetImageNotFound();
      return row;
    },

    createImage,

    /** Updates fields; `locales`, when given, is the complete set of live entries. */
    async updateImage(ctx: RequestContext, id: string, patch: AssetImageUpdate) {
      if (patch.locales) await tenancy.assertLocales(ctx, patch.locales);
      const before = await repo.imageFileKey(ctx.db, ctx.mediaId, id);
      const row = await transaction(ctx, async (tx) => {
        if (!(await imageAggregate.lock(tx, id, ctx.mediaId))) throw coreErrors.assetImageNotFound();
        const asset = patch.file_key === undefined ? undefined : await assetByKey(tx, ctx.mediaId, patch.file_key);
        await repo.updateImage(tx, id, {
          ...(asset && { assetId: asset.id, fileKey: asset.fileKey, fileHash: asset.fileHash }),
          ...(patch.name !== undefined && { name: patch.name }),
          ...(patch.gravity !== undefined && { gravity: patch.gravity }),
        });
        if (patch.locales) await imageAggregate.replace(tx, 'locales', id, localeEntries(patch.locales));
        return loadImage(tx, ctx.mediaId, id);
      });
      if (before) forgetOnCommit(ctx, before);
      forgetOnCommit(ctx, row.fileKey);
      return row;
    },

    /** Soft delete of the record and its locale entries; its file is no longer delivered unless another live record uses it. */
    async removeImage(ctx: RequestContext, id: string): Promise<void> {
      const deleted = await transaction(ctx, (tx) => imageAggregate.softDelete(tx, id, ctx.mediaId));
      if (!deleted) throw coreErrors.assetImageNotFound();
      const fileKey = await repo.imageFileKey(ctx.db, ctx.mediaId, id);
      if (fileKey) forgetOnCommit(ctx, fileKey);
    },

    async restoreImage(ctx: RequestContext, id: string) {
      const row = await transaction(ctx, async (tx) => {
        if ((await imageAggregate.restore(tx, id, ctx.mediaId)) === 'not_found') throw coreErrors.assetImageNotFound();
        return loadImage(tx, ctx.mediaId, id);
      });
      forgetOnCommit(ctx, row.fileKey);
      return row;
    },

    /**
     * A reader's own upload: the file (deduplicated like any upload) and a new image record
     * over it, with the credit and the plain-text caption in the media's default language.
     */
    async uploadForReader(ctx: RequestContext, input: { staged: StagedFile; filename: string; name?: string | undefined; credit?: string | undefined; caption?: string | undefined }) {
      const { row: asset } = await record(ctx, input.staged);
      const media = await tenancy.getMedia(ctx);
      const caption = input.caption ? { html: escapeHtml(input.caption), text: input.caption } : null;
      const locales = input.credit || caption ? [{ locale: media.defaultLocale, credit: input.credit ?? null, caption_html: caption }] : [];
      return createImage(ctx, {
        file_key: asset.fileKey,
        name: input.name ?? (labelOf(input.filename) || asset.fileKey),
        gravity: 'center' satisfies Gravity,
        locales,
      });
    },

    uploads: deps.uploads,
  };
}

export type AssetsService = ReturnType<typeof createAssetsService>;
