import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { type AggregateRow, aggregate, part } from '../../../shared/aggregate.js';
import type { Paginator } from '../../../shared/paging.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { coreErrors } from '../core.errors.js';
import type { Gravity, ImageType } from './assets.images.js';
import { type AssetRow, assetImageLocales, assetImages, assets } from './assets.table.js';

/** An image record and its live locale entries, read in one statement. */
export const imageAggregate = aggregate(assetImages, {
  owner: assetImages.mediaId,
  conflict: coreErrors.assetImageConflict,
  parts: {
    locales: part(assetImageLocales, {
      parent: assetImageLocales.imageId,
      match: ['locale'],
      columns: ['id', 'locale', 'credit', 'captionHtml'],
    }),
  },
});

export type AssetImageWithLocales = AggregateRow<typeof assetImages, typeof imageAggregate.parts>;

/** What delivery needs of a file: where it is, its type, and the crop gravity of its image record. */
export interface DeliverableFile {
  mediaId: string;
  fileHash: string;
  contentType: ImageType;
  gravity: Gravity;
}

// As the indexes have it (`desc nulls last`): a bare `desc` means nulls first, which the
// planner cannot read off those indexes, so it would sort every record of the file.
const newestFirstOrder = [sql`${assetImages.insertedAt} desc nulls last`, sql`${assetImages.id} desc nulls last`];

export function createAssetsRepository(pager: Paginator) {
  /** The newest live image record of the media whose file column matches. */
  const newestImage = async (db: Executor, mediaId: string, match: ReturnType<typeof eq>) => {
    const [row] = await db
      .select(imageAggregate.columns)
      .from(assetImages)
      .where(and(eq(assetImages.mediaId, mediaId), match, imageAggregate.filter()))
      .orderBy(...newestFirstOrder)
      .limit(1);
    return row as AssetImageWithLocales | undefined;
  };

  return {
    findAsset: async (db: Executor, mediaId: string, id: string): Promise<AssetRow | undefined> =>
      (await db.select().from(assets).where(and(eq(assets.id, id), eq(assets.mediaId, mediaId))))[0],

    findAssetByHash: async (db: Executor, mediaId: string, fileHash: string): Promise<AssetRow | undefined> =>
      (await db.select().from(assets).where(and(eq(assets.mediaId, mediaId), eq(assets.fileHash, fileHash))))[0],

    findAssetByKey: async (db: Executor, mediaId: string, fileKey: string): Promise<AssetRow | undefined> =>
      (await db.select().from(assets).where(and(eq(assets.fileKey, fileKey), eq(assets.mediaId, mediaId))))[0],

    /** Inserts the asset unless the media has these bytes already (then undefined). */
    insertAssetIfAbsent: async (db: Executor, values: typeof assets.$inferInsert): Promise<AssetRow | undefined> =>
      (await db.insert(assets).values(values).onConflictDoNothing({ target: [assets.mediaId, assets.fileHash] }).returning())[0],

    listImages: (db: Executor, mediaId: string, query: PagingQuery) => imageAggregate.page(pager, db, mediaId, query),

    findImage: (db: Executor, mediaId: string, id: string) => imageAggregate.find(db, id, mediaId),

    imageByKey: (db: Executor, mediaId: string, fileKey: string) => newestImage(db, mediaId, eq(assetImages.fileKey, fileKey)),

    imageByHash: (db: Executor, mediaId: string, fileHash: string) => newestImage(db, mediaId, eq(assetImages.fileHash, fileHash)),

    async insertImage(db: Executor, values: typeof assetImages.$inferInsert): Promise<string> {
      const [row] = await db.insert(assetImages).values(values).returning({ id: assetImages.id });
      return row!.id;
    },

    async updateImage(db: Executor, id: string, values: Partial<typeof assetImages.$inferInsert>): Promise<void> {
      // updated_at always moves, so that a PATCH of locales alone also marks the record.
      await db
        .update(assetImages)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(assetImages.id, id));
    },

    /** The file key of a record, live or deleted (delivery forgets it after a write). */
    async imageFileKey(db: Executor, mediaId: string, id: string): Promise<string | undefined> {
      const [row] = await db
        .select({ fileKey: assetImages.fileKey })
        .from(assetImages)
        .where(and(eq(assetImages.id, id), eq(assetImages.mediaId, mediaId)));
      return row?.fileKey;
    },

    /**
     * Delivery's lookup: the file and the gravity of its newest live image record; none when
     * every record of the file is deleted (or there never was one).
     */
    async deliverable(db: Executor, mediaId: string, fileKey: string): Promise<DeliverableFile | undefined> {
      const [row] = await db
        .select({
          mediaId: assets.mediaId,
          fileHash: assets.fileHash,
          contentType: assets.contentType,
          gravity: assetImages.gravity,
        })
        .from(assetImages)
        .innerJoin(assets, eq(assets.id, assetImages.assetId))
        .where(and(eq(assetImages.mediaId, mediaId), eq(assetImages.fileKey, fileKey), sql`${assetImages.deletedAt} is null`))
        .orderBy(...newestFirstOrder)
        .limit(1);
      return row as DeliverableFile | undefined;
    },
  };
}

export type AssetsRepository = ReturnType<typeof createAssetsRepository>;
