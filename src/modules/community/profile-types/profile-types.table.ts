import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { deletedAt, idColumn, metadataColumns, refColumn, timestamps } from '../../../db/columns.js';
import { mediaIdColumn } from '../../core/tenancy/tenancy.table.js';

/** What a community profile is (event, organization, person, project) and which contact fields it has. */
export const profileTypes = pgTable(
  'profile_types',
  {
    id: idColumn(),
    mediaId: mediaIdColumn(),
    kind: text('kind').notNull(),
    key: text('key').notNull(),
    name: text('name').notNull(),
    hasPhone: boolean('has_phone').notNull().default(false),
    hasEmail: boolean('has_email').notNull().default(false),
    hasBluesky: boolean('has_bluesky').notNull().default(false),
    hasLinkedin: boolean('has_linkedin').notNull().default(false),
    hasWebsite: boolean('has_website').notNull().default(false),
    hasFacebook: boolean('has_facebook').notNull().default(false),
    hasTwitter: boolean('has_twitter').notNull().default(false),
    hasInstagram: boolean('has_instagram').notNull().default(false),
    hasCountry: boolean('has_country').notNull().default(false),
    hasState: boolean('has_state').notNull().default(false),
    hasCity: boolean('has_city').notNull().default(false),
    hasStreet: boolean('has_street').notNull().default(false),
    hasLocation: boolean('has_location').notNull().default(false),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    // A deleted type frees its key; restoring it while another took the key is a 409.
    uniqueIndex('profile_types_media_key_live_uq')
      .on(t.mediaId, t.key)
      .where(sql`${t.deletedAt} is null`),
    index('profile_types_media_page_idx').on(t.mediaId, t.insertedAt.desc(), t.id.desc()),
  ],
);

/** A profile type's metadata: ordered key/value entries, one per key (the service's one metadata shape). */
export const profileTypeMetadata = pgTable(
  'profile_type_metadata',
  {
    profileTypeId: refColumn('profile_type_id', () => profileTypes.id),
    ...metadataColumns(),
  },
  // Also serves reading a profile type's entries: profile_type_id leads.
  (t) => [uniqueIndex('profile_type_metadata_key_uq').on(t.profileTypeId, t.key)],
);

export type ProfileTypeRow = typeof profileTypes.$inferSelect;
export type ProfileTypeMetadataRow = typeof profileTypeMetadata.$inferSelect;
