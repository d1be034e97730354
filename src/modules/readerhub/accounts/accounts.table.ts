import { sql } from 'drizzle-orm';
import { index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { idColumn, metadataColumns, refColumn, timestamps } from '../../../db/columns.js';
import { mediaIdColumn } from '../../core/tenancy/tenancy.table.js';
import { oauthProviders } from '../../oauth/oauth.table.js';

/**
 * A reader account: one person as one identity provider knows them, in one media. It is
 * created the first time a provider token of that person reaches a reader route.
 */
export const readers = pgTable(
  'readers',
  {
    id: idColumn(),
    mediaId: mediaIdColumn(),
    providerId: refColumn('provider_id', () => oauthProviders.id),
    // The provider's `sub`: stable per provider, opaque to us.
    sub: text('sub').notNull(),
    // Last values the provider's token carried; the reader's own names live in the profile.
    email: text('email'),
    name: text('name'),
    ...timestamps(),
  },
  (t) => [
    // The identity, and the ON CONFLICT target that makes linking race-safe.
    uniqueIndex('readers_identity_uq').on(t.mediaId, t.providerId, t.sub),
    index('readers_media_page_idx').on(t.mediaId, t.insertedAt.desc(), t.id.desc()),
    index('readers_media_email_idx').on(t.mediaId, sql`lower(${t.email})`),
  ],
);

/** The reader's own profile (a person), at most one per reader. */
export const readerProfiles = pgTable('reader_profiles', {
  id: idColumn(),
  readerId: uuid('reader_id')
    .notNull()
    .unique('reader_profiles_reader_uq')
    .references(() => readers.id),
  firstName: text('first_name'),
  lastName: text('last_name'),
  otherName: text('other_name'),
  pronoun: text('pronoun'),
  /** An asset image's file_key in the reader's media (the reader's own upload, usually). */
  profileImageKey: text('profile_image_key'),
  ...timestamps(),
});

/** Free {key, value} pairs of a profile, kept in the order the reader sent them. */
export const readerProfileMetadata = pgTable(
  'reader_profile_metadata',
  {
    profileId: refColumn('profile_id', () => readerProfiles.id),
    ...metadataColumns(),
    ...timestamps(),
  },
  (t) => [uniqueIndex('reader_profile_metadata_key_uq').on(t.profileId, t.key)],
);

export type ReaderRow = typeof readers.$inferSelect;
export type ReaderProfileRow = typeof readerProfiles.$inferSelect;
