import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { idColumn, refColumn, timestamps, tstz } from '../../../db/columns.js';
import { mediaIdColumn } from '../../core/tenancy/tenancy.table.js';
import { adCategories } from '../ad-categories/ad-categories.table.js';
import { advertisers } from '../advertisers/advertisers.table.js';

export const PRIORITY_MIN = 1;
export const PRIORITY_MAX = 100;

/** An advertiser's ad: drawn with weight `priority` while now lies in [starts_at, ends_at). */
export const ads = pgTable(
  'ads',
  {
    id: idColumn(),
    mediaId: mediaIdColumn(),
    advertiserId: refColumn('advertiser_id', () => advertisers.id),
    name: text('name').notNull(),
    priority: integer('priority').notNull(),
    businessReference: text('business_reference'),
    categoryId: refColumn('category_id', () => adCategories.id),
    startsAt: tstz('starts_at').notNull(),
    endsAt: tstz('ends_at').notNull(),
    // The zone the client's wall-clock times were read in; starts_at and ends_at are instants.
    timezone: text('timezone').notNull(),
    ...timestamps(),
  },
  (t) => [
    index('ads_advertiser_page_idx').on(t.mediaId, t.advertiserId, t.insertedAt.desc(), t.id.desc()),
    // Random ads: the media's ads that have not ended, a range scan whatever the number of past ones.
    index('ads_running_idx').on(t.mediaId, t.endsAt, t.startsAt),
    index('ads_category_idx').on(t.categoryId),
    check('ads_window_ck', sql`${t.endsAt} > ${t.startsAt}`),
    check('ads_priority_ck', sql`${t.priority} between ${sql.raw(String(PRIORITY_MIN))} and ${sql.raw(String(PRIORITY_MAX))}`),
  ],
);
