import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { deletedAt, idColumn, refColumn, timestamps } from '../../../db/columns.js';
import { assetImages } from '../../core/assets/assets.table.js';
import { mediaIdColumn } from '../../core/tenancy/tenancy.table.js';
import { ads } from '../ads/ads.table.js';

export const CREATIVE_KINDS = ['image', 'html'] as const;

/** What an ad shows: an image (an asset image of the media, uploaded to it) or sanitized HTML. */
export const adCreatives = pgTable(
  'ad_creatives',
  {
    id: idColumn(),
    mediaId: mediaIdColumn(),
    adId: refColumn('ad_id', () => ads.id),
    name: text('name').notNull(),
    kind: text('kind').notNull(),
    clickUrl: text('click_url').notNull(),
    altText: text('alt_text'),
    width: integer('width'),
    height: integer('height'),
    html: text('html'),
    imageId: uuid('image_id').references(() => assetImages.id),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    // An ad's creatives in order, and whether it has one (random ads).
    index('ad_creatives_ad_idx')
      .on(t.adId, t.insertedAt, t.id)
      .where(sql`${t.deletedAt} is null`),
    check('ad_creatives_kind_ck', sql`${t.kind} in ('image', 'html')`),
  ],
);
