import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { deletedAt, idColumn, metadataColumns, refColumn, timestamps, tstz } from '../../../db/columns.js';
import { blockColumns } from '../../../shared/blocks.js';
import { searchableEntryColumns, searchableEntryIndexes } from '../../../shared/search.js';
import { categoryLinkColumns } from '../../core/categories/categories.table.js';
import { mediaIdColumn, statuses, workspaces } from '../../core/tenancy/tenancy.table.js';
import { profileTypes } from '../profile-types/profile-types.table.js';

/**
 * A community profile: an event, organization, person or project (`kind`, the profile type's
 * kind). The four kinds share this row and every part below it; the columns of one kind only
 * (a person's names, an event's capacity) are null on the others. The record's id is its
 * profile's id (spec 2.13's `profile.id`), the id contents name as authors.
 */
export const profiles = pgTable(
  'profiles',
  {
    id: idColumn(),
    mediaId: mediaIdColumn(),
    kind: text('kind').notNull(),
    workspaceId: refColumn('workspace_id', () => workspaces.id),
    statusId: refColumn('status_id', () => statuses.id),
    profileTypeId: refColumn('profile_type_id', () => profileTypes.id),
    canonicalUrl: text('canonical_url'),
    canonicalDomain: text('canonical_domain'),
    coverImageKey: text('cover_image_key'),
    profileImageKey: text('profile_image_key'),
    // people
    firstName: text('first_name'),
    lastName: text('last_name'),
    otherName: text('other_name'),
    pronoun: text('pronoun'),
    // organizations, projects, events
    name: text('name'),
    legalName: text('legal_name'),
    startsOn: date('starts_on', { mode: 'string' }),
    endsOn: date('ends_on', { mode: 'string' }),
    capacity: integer('capacity'),
    registrationOpen: boolean('registration_open'),
    timeZone: text('time_zone'),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    // The Backoffice's list of a kind, newest first, over the live rows.
    index('profiles_media_kind_page_idx')
      .on(t.mediaId, t.kind, t.insertedAt.desc(), t.id.desc())
      .where(sql`${t.deletedAt} is null`),
    // Sitemaps walk a kind's live records by id.
    index('profiles_media_kind_id_idx')
      .on(t.mediaId, t.kind, t.id)
      .where(sql`${t.deletedAt} is null`),
    index('profiles_profile_type_idx').on(t.profileTypeId),
  ],
);

/** A profile's categories, in the order sent. */
export const profileCategories = pgTable(
  'profile_categories',
  {
    profileId: refColumn('profile_id', () => profiles.id),
    ...categoryLinkColumns(),
  },
  (t) => [
    uniqueIndex('profile_categories_profile_category_uq').on(t.profileId, t.categoryId),
    index('profile_categories_category_idx').on(t.categoryId, t.profileId),
  ],
);

/** One language of a profile's description: its blocks (the shared block kinds). */
export const profileDescriptions = pgTable(
  'profile_descriptions',
  {
    id: idColumn(),
    profileId: refColumn('profile_id', () => profiles.id),
    locale: text('locale').notNull(),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    uniqueIndex('profile_descriptions_live_uq')
      .on(t.profileId, t.locale)
      .where(sql`${t.deletedAt} is null`),
    index('profile_descriptions_profile_idx').on(t.profileId),
  ],
);

export const profileDescriptionBlocks = pgTable(
  'profile_description_blocks',
  {
    descriptionId: refColumn('description_id', () => profileDescriptions.id),
    ...blockColumns(),
  },
  (t) => [
    uniqueIndex('profile_description_blocks_position_uq')
      .on(t.descriptionId, t.position)
      .where(sql`${t.deletedAt} is null`),
  ],
);

/** A profile's address in one language; the profile type's has_* flags decide which fields it may have. */
export const profileAddresses = pgTable(
  'profile_addresses',
  {
    id: idColumn(),
    profileId: refColumn('profile_id', () => profiles.id),
    locale: text('locale').notNull(),
    country: text('country'),
    state: text('state'),
    city: text('city'),
    street: text('street'),
    location: text('location'),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    uniqueIndex('profile_addresses_live_uq')
      .on(t.profileId, t.locale)
      .where(sql`${t.deletedAt} is null`),
    index('profile_addresses_profile_idx').on(t.profileId),
  ],
);

/** A profile's contact in one language; the profile type's has_* flags decide which fields it may have. */
export const profileContacts = pgTable(
  'profile_contacts',
  {
    id: idColumn(),
    profileId: refColumn('profile_id', () => profiles.id),
    locale: text('locale').notNull(),
    email: text('email'),
    phone: text('phone'),
    facebook: text('facebook'),
    linkedin: text('linkedin'),
    instagram: text('instagram'),
    twitter: text('twitter'),
    bluesky: text('bluesky'),
    website: text('website'),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    uniqueIndex('profile_contacts_live_uq')
      .on(t.profileId, t.locale)
      .where(sql`${t.deletedAt} is null`),
    index('profile_contacts_profile_idx').on(t.profileId),
  ],
);

/** A profile's texts in one language, with its search document and its display name (trigram-indexed). */
export const profileLocales = pgTable(
  'profile_locales',
  {
    id: idColumn(),
    profileId: refColumn('profile_id', () => profiles.id),
    locale: text('locale').notNull(),
    summaryHtml: text('summary_html'),
    summaryText: text('summary_text'),
    descriptionHtml: text('description_html'),
    descriptionText: text('description_text'),
    /** The profile's names (a person's first, last and other name; another kind's name), kept for search. */
    nameText: text('name_text').notNull().default(''),
    ...searchableEntryColumns(),
  },
  (t) => searchableEntryIndexes('profile_locales', { id: t.id, insertedAt: t.insertedAt, parent: t.profileId, locale: t.locale, mediaId: t.mediaId, search: t.search, title: t.nameText, deletedAt: t.deletedAt }),
);

/** A profile's metadata: ordered key/value entries, one per key. */
export const profileMetadata = pgTable(
  'profile_metadata',
  {
    profileId: refColumn('profile_id', () => profiles.id),
    ...metadataColumns(),
  },
  (t) => [uniqueIndex('profile_metadata_key_uq').on(t.profileId, t.key)],
);

/** A profile block (`{id, key, position, locales}`): a titled, ordered list of entries. */
export const profileBlocks = pgTable(
  'profile_blocks',
  {
    id: idColumn(),
    profileId: refColumn('profile_id', () => profiles.id),
    key: text('key').notNull(),
    position: integer('position').notNull(),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    uniqueIndex('profile_blocks_position_uq')
      .on(t.profileId, t.position)
      .where(sql`${t.deletedAt} is null`),
  ],
);

export const profileBlockLocales = pgTable(
  'profile_block_locales',
  {
    id: idColumn(),
    blockId: refColumn('block_id', () => profileBlocks.id),
    locale: text('locale').notNull(),
    title: text('title').notNull(),
  },
  (t) => [uniqueIndex('profile_block_locales_uq').on(t.blockId, t.locale)],
);

/** A block entry (spec 2.14): a content of the media, shown for an optional profile of the media. */
export const profileBlockEntries = pgTable(
  'profile_block_entries',
  {
    id: idColumn(),
    blockId: refColumn('block_id', () => profileBlocks.id),
    position: integer('position').notNull(),
    contentId: uuid('content_id').notNull(),
    relationId: uuid('relation_id'),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    uniqueIndex('profile_block_entries_position_uq')
      .on(t.blockId, t.position)
      .where(sql`${t.deletedAt} is null`),
  ],
);

/**
 * An event's schedule: one dated slot (`starts_at`..`ends_at`), or a recurrence rule expanded
 * from a wall-clock start in the event's time zone with a duration. `first_at`/`last_at`
 * bound its occurrences (last null: endless) so that a range reads only the schedules it meets.
 */
export const eventSchedules = pgTable(
  'event_schedules',
  {
    id: idColumn(),
    eventId: refColumn('event_id', () => profiles.id),
    position: integer('position').notNull(),
    kind: text('kind').notNull(),
    startsAt: tstz('starts_at'),
    endsAt: tstz('ends_at'),
    startsLocal: text('starts_local'),
    rrule: text('rrule'),
    durationMinutes: integer('duration_minutes'),
    firstAt: tstz('first_at').notNull(),
    lastAt: tstz('last_at'),
  },
  (t) => [index('event_schedules_event_idx').on(t.eventId, t.position), index('event_schedules_range_idx').on(t.firstAt, t.lastAt)],
);

/** A reader's registration to an event: one per event and reader. */
export const eventRegistrations = pgTable(
  'event_registrations',
  {
    id: idColumn(),
    mediaId: mediaIdColumn(),
    eventId: refColumn('event_id', () => profiles.id),
    /** The reader: the token's subject. */
    reader: text('reader').notNull(),
    displayName: text('display_name'),
    listed: boolean('listed').notNull().default(false),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('event_registrations_event_reader_uq').on(t.eventId, t.reader),
    index('event_registrations_listed_idx')
      .on(t.eventId, t.displayName, t.id)
      .where(sql`${t.listed}`),
  ],
);
