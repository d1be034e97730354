import { sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { type Computed, aggregate } from '../../../shared/aggregate.js';
import { adOpsErrors } from '../ad-ops.errors.js';
import { adCreatives } from './creatives.table.js';

/** At most this many live creatives per ad: "all in ad" is one unpaged answer. */
export const CREATIVES_PER_AD = 100;

// The live asset image uploaded to it, with its file's size (core's tables, read by name).
const imageOf: Computed<{ id: string; file_key: string; width: number; height: number } | null> = (col) =>
  sql`(select json_build_object('id', i.id, 'file_key', i.file_key, 'width', f.width, 'height', f.height)
    from asset_images i join assets f on f.id = i.asset_id
    where i.id = ${col(adCreatives.imageId)} and i.deleted_at is null)`;

export const creativeAggregate = aggregate(adCreatives, {
  owner: adCreatives.mediaId,
  parts: {},
  conflict: adOpsErrors.creativeNotFound,
  computed: { image: imageOf },
});

export type CreativeRow = NonNullable<Awaited<ReturnType<typeof creativeAggregate.find>>>;

type Values = Pick<typeof adCreatives.$inferInsert, 'name' | 'kind' | 'clickUrl' | 'altText' | 'width' | 'height' | 'html'>;

export const creativesRepository = {
  find: (db: Executor, mediaId: string, id: string) => creativeAggregate.find(db, id, mediaId),

  /** The ad's live creatives, oldest first. */
  async listInAd(db: Executor, mediaId: string, adId: string): Promise<CreativeRow[]> {
    return (await db
      .select(creativeAggregate.columns)
      .from(adCreatives)
      .where(sql`${adCreatives.adId} = ${adId} and ${adCreatives.mediaId} = ${mediaId} and ${adCreatives.deletedAt} is null`)
      .orderBy(adCreatives.insertedAt, adCreatives.id)
      .limit(CREATIVES_PER_AD)) as CreativeRow[];
  },

  async countInAd(db: Executor, adId: string): Promise<number> {
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(adCreatives)
      .where(sql`${adCreatives.adId} = ${adId} and ${adCreatives.deletedAt} is null`);
    return row!.n;
  },

  async insert(db: Executor, mediaId: string, adId: string, values: Values): Promise<string> {
    const [row] = await db.insert(adCreatives).values({ mediaId, adId, ...values }).returning({ id: adCreatives.id });
    return row!.id;
  },

  /** False when the media has no such live creative. */
  async update(db: Executor, mediaId: string, id: string, values: Partial<Values> & { imageId?: string | null }): Promise<boolean> {
    const rows = await db
      .update(adCreatives)
      .set({ ...values, updatedAt: new Date() })
      .where(sql`${adCreatives.id} = ${id} and ${adCreatives.mediaId} = ${mediaId} and ${adCreatives.deletedAt} is null`)
      .returning({ id: adCreatives.id });
    return rows.length > 0;
  },
};

export type CreativesRepository = typeof creativesRepository;
