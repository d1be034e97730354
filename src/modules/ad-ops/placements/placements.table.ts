import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, unique, uuid } from 'drizzle-orm/pg-core';
import { idColumn, refColumn, tstz } from '../../../db/columns.js';
import { mediaIdColumn } from '../../core/tenancy/tenancy.table.js';
import { ads } from '../ads/ads.table.js';

/** Where an ad runs: the whole media (issue_id null) or one magazine issue, at a position or anywhere. */
export const adPlacements = pgTable(
  'ad_placements',
  {
    id: idColumn(),
    mediaId: mediaIdColumn(),
    adId: refColumn('ad_id', () => ads.id),
    target: text('target').notNull(),
    // A magazine issue of the media, checked through the magazines module when placed.
    issueId: uuid('issue_id'),
    position: text('position'),
    insertedAt: tstz('inserted_at').notNull().defaultNow(),
  },
  (t) => [
    // One placement per place; also serves an ad's placements and the random draw's probe (ad_id leads).
    unique('ad_placements_place_uq').on(t.adId, t.issueId, t.position).nullsNotDistinct(),
    index('ad_placements_ad_page_idx').on(t.adId, t.insertedAt.desc(), t.id.desc()),
    check('ad_placements_target_ck', sql`(${t.target} = 'media' and ${t.issueId} is null) or (${t.target} = 'issue' and ${t.issueId} is not null)`),
  ],
);
