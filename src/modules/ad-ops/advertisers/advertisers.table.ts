import { boolean, index, pgTable, text } from 'drizzle-orm/pg-core';
import { idColumn, timestamps } from '../../../db/columns.js';
import { mediaIdColumn } from '../../core/tenancy/tenancy.table.js';

/** Who buys ads from the media; an inactive advertiser's ads do not run. */
export const advertisers = pgTable(
  'advertisers',
  {
    id: idColumn(),
    mediaId: mediaIdColumn(),
    name: text('name').notNull(),
    contactEmail: text('contact_email'),
    website: text('website'),
    isActive: boolean('is_active').notNull().default(true),
    ...timestamps(),
  },
  (t) => [index('advertisers_media_page_idx').on(t.mediaId, t.insertedAt.desc(), t.id.desc())],
);
