import { sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { type Computed, aggregate, part } from '../../../shared/aggregate.js';
import { BLOCK_PART_COLUMNS, blockComputed } from '../../../shared/blocks.js';
import { type DeclaredService, type WirePlan, defineRecord, named, wirePlan } from '../../../shared/record/index.js';
import { resolveAssetImages } from '../../core/index.js';
import { communityErrors } from '../community.errors.js';
import { communityTags } from '../community.tags.js';
import { type ProfileKind, SINGULAR } from './profiles.kinds.js';
import { publishedProfile } from './profiles.lookup.js';
import { ADDRESS_FIELDS, CONTACT_FIELDS, type ProfileFields, profileSchemas } from './profiles.schemas.js';
import {
  eventSchedules,
  profileAddresses,
  profileBlockEntries,
  profileBlockLocales,
  profileBlocks,
  profileCategories,
  profileContacts,
  profileDescriptionBlocks,
  profileDescriptions,
  profileLocales,
  profileMetadata,
  profiles,
} from './profiles.table.js';

/**
 * Which of a part's fields its profile's type allows (`{email: true, phone: false, …}`), read
 * in the record's statement: fields a type does not allow are never served.
 */
const allowedBy = (fields: readonly string[], profileId: { profileId: PgColumn }): Computed<Record<string, boolean>> => (col) =>
  sql<Record<string, boolean>>`(select json_build_object(${sql.raw(fields.map((f) => `'${f}', pt.has_${f}`).join(', '))})
    from profiles pr join profile_types pt on pt.id = pr.profile_type_id where pr.id = ${col(profileId.profileId)})`;

/** The parts every kind of profile has (schedules: an event's), declared once for the kinds' aggregates and the repository's. */
export const profileParts = {
  categories: part(profileCategories, { parent: profileCategories.profileId, match: ['categoryId'], position: 'position', columns: ['id', 'categoryId'] }),
  description: part(profileDescriptions, {
    parent: profileDescriptions.profileId,
    match: ['locale'],
    columns: ['id', 'locale', 'deletedAt'],
    parts: {
      blocks: part(profileDescriptionBlocks, {
        parent: profileDescriptionBlocks.descriptionId,
        match: 'id',
        position: 'position',
        columns: BLOCK_PART_COLUMNS,
        computed: blockComputed(profileDescriptionBlocks, resolveAssetImages),
      }),
    },
  }),
  address: part(profileAddresses, {
    parent: profileAddresses.profileId,
    match: ['locale'],
    columns: ['id', 'locale', ...ADDRESS_FIELDS, 'deletedAt'],
    computed: { allowed: allowedBy(ADDRESS_FIELDS, profileAddresses) },
  }),
  contact: part(profileContacts, {
    parent: profileContacts.profileId,
    match: ['locale'],
    columns: ['id', 'locale', ...CONTACT_FIELDS, 'deletedAt'],
    computed: { allowed: allowedBy(CONTACT_FIELDS, profileContacts) },
  }),
  locales: part(profileLocales, {
    parent: profileLocales.profileId,
    match: ['locale'],
    columns: ['id', 'locale', 'summaryHtml', 'summaryText', 'descriptionHtml', 'descriptionText', 'deletedAt'],
  }),
  metadata: part(profileMetadata, { parent: profileMetadata.profileId, match: ['key'], position: 'position', columns: ['key', 'value'] }),
  blocks: part(profileBlocks, {
    parent: profileBlocks.profileId,
    match: 'id',
    position: 'position',
    columns: ['id', 'key', 'position'],
    parts: {
      locales: part(profileBlockLocales, { parent: profileBlockLocales.blockId, match: ['locale'], columns: ['locale', 'title'] }),
      entries: part(profileBlockEntries, {
        parent: profileBlockEntries.blockId,
        match: 'id',
        position: 'position',
        columns: ['id', 'contentId', 'relationId'],
      }),
    },
  }),
  schedules: part(eventSchedules, { parent: eventSchedules.eventId, match: 'id', position: 'position' }),
};

/** What every aggregate over profiles shares: the media owns them, readers see published ones. */
export const profileReading = { owner: profiles.mediaId, conflict: communityErrors.profileConflict, views: { published: publishedProfile } };

/** One kind's profiles (the rows of its `kind`) with every part: what its declared reads, delete and restore see. */
const kindAggregate = (kind: ProfileKind) =>
  aggregate(profiles, { ...profileReading, name: `profiles_${kind}`, rows: sql`${profiles.kind} = ${sql.raw(`'${SINGULAR[kind]}'`)}`, parts: profileParts });


const READER_TAGS = { events: 'readerEvents', organizations: 'readerOrganizations', people: 'readerPeople', projects: 'readerProjects' } as const;

/**
 * A kind of community profile as a declared record: its names from the profile kind
 * (`person` / `people`: `Person`, `/people`, events `person.created`), the shared profile's
 * aggregate narrowed to its rows, its schemas with its own fields. Its list, read, delete and
 * restore are the declared ones; create and update (profile types, placement, parts) are the
 * profiles service's. Beside the declaration: its own `fields` and `own`, their plan onto the
 * wire (each the profile row's column of its name); beside its schemas, `readerItem`, the Reader
 * lists' item (the record without its parts).
 */
export function profileRecord(kind: ProfileKind, fields: ProfileFields) {
  const names = named(SINGULAR[kind], kind);
  const { label } = names;
  const record = defineRecord({
    ...names,
    area: { read: 'community:read', write: 'community:write' },
    path: `/${kind}`,
    tags: { backoffice: communityTags[kind], reader: communityTags[READER_TAGS[kind]], public: communityTags.public },
    agg: kindAggregate(kind),
    schemas: profileSchemas(names.names.one, fields),
    notFound: communityErrors.profileNotFound,
    conflict: communityErrors.profileConflict,
    docs: {
      list: { description: `Live ${kind} of the media, newest first.` },
      create: {
        summary: `Create ${label}`,
        description:
          "The workspace must be one of the media (404), the status too (400), the profile type one of the media and of this kind (400); address and contact fields the profile type's has_* flags do not allow are refused (400 naming them). Categories, images and contents named must be records of the media (404).",
        errors: [404],
      },
      update: {
        summary: `Update ${label}`,
        description: 'Fields left out keep their value; description, address, contact, locales and profile_categories, when sent, are the complete sets.',
        errors: [404],
      },
      remove: {
        summary: `Delete ${label} (soft)`,
        description: 'Soft-deletes the record with its description, address, contact, locales, blocks and entries, with one deleted_at.',
      },
      restore: { summary: `Restore ${label}`, description: 'Brings back exactly the parts the delete took away. Idempotent.', errors: [409] },
    },
    reader: {
      path: `/community/${kind}`,
      view: 'published',
      read: 'A published record in the asked language, with its description blocks, address and blocks.',
    },
    public: { group: 'community', path: `/${kind}`, list: true },
  });
  return { ...record, fields, own: wirePlan(z.object(fields.wire)) as WirePlan };
}

export type ProfileDeclaration = ReturnType<typeof profileRecord>;

/** A kind as the routes take it: its declaration (its wire mappers bound to the image urls) and its declared service. */
export interface DeclaredKind {
  kind: ProfileKind;
  record: ProfileDeclaration;
  service: DeclaredService;
}
