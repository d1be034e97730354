import { z } from 'zod';
import { blockInput, blockSchema } from '../../../shared/blocks.js';
import { richHtml } from '../../../shared/html.js';
import { localeQuery, localesMeta } from '../../../shared/http/reader.js';
import { isoTimestamp, locale, pagingQuery, recordKey, timestampInput, uuid } from '../../../shared/schemas.js';
import { searchSort, searchText } from '../../../shared/search.js';

/** The contact and address fields, each governed by the profile type's `has_<field>` flag. */
export const CONTACT_FIELDS = ['email', 'phone', 'facebook', 'linkedin', 'instagram', 'twitter', 'bluesky', 'website'] as const;
export const ADDRESS_FIELDS = ['country', 'state', 'city', 'street', 'location'] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];
export type AddressField = (typeof ADDRESS_FIELDS)[number];

const unique = (values: unknown[]) => new Set(values).size === values.length;
const uniqueLocales = <T extends { locale: string }>(entries: T[]) => unique(entries.map((e) => e.locale));
const localeSet = <S extends z.ZodType<{ locale: string }>>(entry: S) =>
  z.array(entry).max(50).refine(uniqueLocales, { message: 'each locale may appear only once' });

const optionalText = (max: number) => z.string().trim().max(max).nullable().optional();
const fieldsOf = <F extends readonly string[], T extends z.ZodType>(fields: F, make: () => T) =>
  Object.fromEntries(fields.map((f) => [f, make()])) as Record<F[number], T>;

/**
 * What one kind adds to the shared profile: its own fields in a create (required ones as
 * required) and on the wire, each the profile row's column of the same name (`first_name`).
 */
export interface ProfileFields {
  input: z.ZodRawShape;
  wire: z.ZodRawShape;
}

// ---------------------------------------------------------------------------------------
// Request bodies

export const descriptionBlockInput = blockInput({});

const profilePartInput = {
  status_id: uuid.describe('A status of the media (400 otherwise)'),
  profile_categories: z
    .array(z.strictObject({ category_id: uuid }))
    .max(100)
    .refine((c) => unique(c.map((e) => e.category_id)), { message: 'each category may appear only once' })
    .optional(),
  canonical_url: z.url({ protocol: /^https?$/ }).max(2000).nullable().optional(),
};

const profileCreateInput = z.strictObject({
  workspace_id: uuid.describe('A workspace of the media (404 otherwise)'),
  profile_type_id: uuid.describe('A profile type of the media of this kind (400 otherwise)'),
  ...profilePartInput,
});
const profileUpdateInput = z.strictObject({ ...profilePartInput, status_id: profilePartInput.status_id.optional() });

const sharedParts = {
  cover_image_key: z.string().trim().min(1).max(500).nullable().optional(),
  profile_image_key: z.string().trim().min(1).max(500).nullable().optional(),
  description: localeSet(z.strictObject({ locale, blocks: z.array(descriptionBlockInput).max(200) }))
    .optional()
    .describe('The complete set of description languages, each with its blocks in order'),
  address: localeSet(z.strictObject({ locale, ...fieldsOf(ADDRESS_FIELDS, () => optionalText(500)) }))
    .optional()
    .describe("One address per language; only the fields the profile type's has_* flags allow"),
  contact: localeSet(z.strictObject({ locale, ...fieldsOf(CONTACT_FIELDS, () => optionalText(500)) }))
    .optional()
    .describe("One contact per language; only the fields the profile type's has_* flags allow"),
  locales: localeSet(z.strictObject({ locale, summary_html: richHtml(20_000).nullable().optional(), description_html: richHtml().nullable().optional() }))
    .optional()
    .describe('Summary and description per language'),
};

const createBodyOf = (one: string, fields: ProfileFields) =>
  z.strictObject({ profile: profileCreateInput, ...fields.input, ...sharedParts }).meta({ id: `${one}Create` });

const updateBodyOf = (one: string, fields: ProfileFields) => {
  const optional = Object.fromEntries(Object.entries(fields.input).map(([k, v]) => [k, (v as z.ZodType).optional()]));
  return z.strictObject({ profile: profileUpdateInput.optional(), ...optional, ...sharedParts }).meta({ id: `${one}Update` });
};

export interface ProfileInput {
  profile?: { workspace_id?: string; profile_type_id?: string; status_id?: string; profile_categories?: Array<{ category_id: string }> | undefined; canonical_url?: string | null | undefined } | undefined;
  cover_image_key?: string | null | undefined;
  profile_image_key?: string | null | undefined;
  description?: Array<{ locale: string; blocks: Array<z.output<typeof descriptionBlockInput>> }> | undefined;
  address?: Array<{ locale: string } & Partial<Record<AddressField, string | null | undefined>>> | undefined;
  contact?: Array<{ locale: string } & Partial<Record<ContactField, string | null | undefined>>> | undefined;
  locales?: Array<{ locale: string; summary_html?: { html: string; text: string } | null | undefined; description_html?: { html: string; text: string } | null | undefined }> | undefined;
  [field: string]: unknown;
}

export const metadataBody = z
  .strictObject({
    metadata: z
      .array(z.strictObject({ key: z.string().min(1).max(100), value: z.string().max(10_000) }))
      .max(100)
      .refine((m) => unique(m.map((e) => e.key)), { message: 'each key may appear only once' }),
  })
  .meta({ id: 'ProfileMetadataReplace' });
export const metadataEntrySchema = z.object({ key: z.string(), value: z.string() }).meta({ id: 'ProfileMetadataEntry' });

export const profileTypeSwitchBody = z.strictObject({ profile_type_id: uuid }).meta({ id: 'ProfileTypeSwitch' });

const blockLocales = localeSet(z.strictObject({ locale, title: z.string().trim().min(1).max(500) }));
const blockKey = recordKey;

export const profileBlocksBody = z
  .strictObject({
    blocks: z
      .array(z.strictObject({ id: uuid.optional().describe('Keep an existing block (and its entries)'), key: blockKey, locales: blockLocales }))
      .max(100),
  })
  .meta({ id: 'ProfileBlocksReplace' });
export const profileBlockUpdateBody = z
  .strictObject({ key: blockKey.optional(), locales: blockLocales.optional() })
  .meta({ id: 'ProfileBlockUpdate' });
export const blockEntriesBody = z
  .strictObject({
    entries: z
      .array(
        z.strictObject({
          id: uuid.optional(),
          content_id: uuid.describe('A content of the media'),
          relation_id: uuid.nullable().optional().describe('A profile of the media the content is shown for'),
        }),
      )
      .max(500),
  })
  .meta({ id: 'ProfileBlockEntriesReplace' });

const localTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/, 'must be a wall-clock date-time without offset, such as 2026-03-24T18:30')
  .describe("A wall-clock time in the event's time zone");

export const scheduleInput = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('slot'), id: uuid.optional(), starts_at: timestampInput, ends_at: timestampInput }),
  z.strictObject({
    kind: z.literal('recurrence'),
    id: uuid.optional(),
    starts_local: localTime,
    rrule: z.string().min(1).max(500).describe('An RFC 5545 RRULE, e.g. FREQ=WEEKLY;BYDAY=TU;COUNT=10 (no DTSTART: starts_local is)'),
    duration_minutes: z.int().min(1).max(60 * 24 * 31),
  }),
]);
export const schedulesBody = z.strictObject({ schedules: z.array(scheduleInput).max(100) }).meta({ id: 'EventSchedulesReplace' });
export type ScheduleInput = z.output<typeof scheduleInput>;

export const scheduleSchema = z
  .object({
    id: uuid,
    kind: z.enum(['slot', 'recurrence']),
    position: z.int(),
    starts_at: isoTimestamp.nullable(),
    ends_at: isoTimestamp.nullable(),
    starts_local: z.string().nullable(),
    rrule: z.string().nullable(),
    duration_minutes: z.int().nullable(),
  })
  .meta({ id: 'EventSchedule' });

export const rangeQuery = z
  .object({ from: timestampInput, to: timestampInput })
  .refine((r) => r.to.getTime() > r.from.getTime(), { message: 'to must be after from', path: ['to'] })
  .refine((r) => r.to.getTime() - r.from.getTime() <= 366 * 86_400_000, { message: 'the range is at most a year', path: ['to'] });
export const occurrenceSchema = z
  .object({ event_id: uuid, schedule_id: uuid, starts_at: isoTimestamp, ends_at: isoTimestamp })
  .meta({ id: 'EventOccurrence' });

export const blockParams = z.object({ id: uuid, block_id: uuid });

// ---------------------------------------------------------------------------------------
// Wire (Backoffice, spec 2.13)

const deletedAt = isoTimestamp.nullable();
const optionalWire = <F extends readonly string[]>(fields: F) => fieldsOf(fields, () => z.string().nullable().optional());

export const descriptionBlockSchema = blockSchema('ProfileDescriptionBlock', {});
const profileParts = {
  cover_image_key: z.string().nullable(),
  profile_image_key: z.string().nullable(),
  profile: z.object({
    id: uuid,
    workspace_id: uuid,
    profile_type_id: uuid,
    status_id: uuid,
    profile_categories: z.array(z.object({ id: uuid, category_id: uuid })),
    canonical_url: z.string().nullable(),
  }),
  description: z.array(z.object({ id: uuid, locale, blocks: z.array(descriptionBlockSchema), deleted_at: deletedAt })),
  address: z.array(z.object({ id: uuid, locale, ...optionalWire(ADDRESS_FIELDS), deleted_at: deletedAt })).describe('Fields the profile type does not allow are left out'),
  contact: z.array(z.object({ id: uuid, locale, ...optionalWire(CONTACT_FIELDS), deleted_at: deletedAt })).describe('Fields the profile type does not allow are left out'),
  locales: z.array(
    z.object({
      id: uuid,
      locale,
      summary_html: z.string().nullable(),
      summary_text: z.string().nullable(),
      description_html: z.string().nullable(),
      description_text: z.string().nullable(),
      deleted_at: deletedAt,
    }),
  ),
  inserted_at: isoTimestamp,
  updated_at: isoTimestamp,
  deleted_at: deletedAt,
};

const recordSchemaOf = (one: string, fields: ProfileFields) => z.object({ id: uuid, ...fields.wire, ...profileParts }).meta({ id: one });

export const profileBlockSchema = z
  .object({ id: uuid, key: z.string(), position: z.int(), locales: z.array(z.object({ locale, title: z.string() })) })
  .meta({ id: 'ProfileBlock' });
export const blockEntrySchema = z.object({ id: uuid, content_id: uuid, relation_id: uuid.nullable() }).meta({ id: 'ProfileBlockEntry' });

// ---------------------------------------------------------------------------------------
// Reader (spec 2.3 for people; the other kinds alike, with their own fields)

const readerContact = z.object({ ...optionalWire(CONTACT_FIELDS), meta: z.object({ locales: localesMeta }) }).nullable();

const readerItemFields = (fields: ProfileFields) => ({
  id: uuid,
  profile_type_id: uuid,
  kind: z.string().describe('person, organization, project or event'),
  ...fields.wire,
  summary_html: z.string().nullable(),
  summary_text: z.string().nullable(),
  canonical_url: z.string().nullable(),
  canonical_domain: z.string().nullable(),
  profile_image_url: z.string().nullable(),
  cover_image_url: z.string().nullable(),
  contact: readerContact,
  category_ids: z.array(uuid),
  metadata: z.array(metadataEntrySchema),
  meta: z.object({ locales: localesMeta }),
  updated_at: isoTimestamp,
});

const readerItemSchemaOf = (one: string, fields: ProfileFields) => z.object(readerItemFields(fields)).meta({ id: `Reader${one}` });
const readerRecordSchemaOf = (one: string, fields: ProfileFields) =>
  z
    .object({
      ...readerItemFields(fields),
      description_blocks: z.array(blockSchema(`Reader${one}DescriptionBlock`, {})),
      description_html: z.string().nullable(),
      address: z.object({ ...optionalWire(ADDRESS_FIELDS), meta: z.object({ locales: localesMeta }) }).nullable(),
      blocks: z.array(z.object({ id: uuid, key: z.string(), position: z.int(), title: z.string().nullable() })),
    })
    .meta({ id: `Reader${one}WithParts` });

/** A schema made on first use, then the same object. */
const once = <T>(make: () => T) => {
  let made: T | undefined;
  return () => (made ??= make());
};

/**
 * A kind's schemas, each made once, when a route first declares it (every app built in the
 * process declares its routes with the same objects, and the OpenAPI document names them in the
 * order the routes do): the Backoffice record, its create and update bodies, the Reader's record
 * (with its parts) and the Reader lists' item.
 */
export const profileSchemas = (one: string, fields: ProfileFields) => {
  const item = once(() => recordSchemaOf(one, fields));
  const create = once(() => createBodyOf(one, fields));
  const update = once(() => updateBodyOf(one, fields));
  const reader = once(() => readerRecordSchemaOf(one, fields));
  const readerItem = once(() => readerItemSchemaOf(one, fields));
  return {
    get item() {
      return item();
    },
    get create() {
      return create();
    },
    get update() {
      return update();
    },
    get reader() {
      return reader();
    },
    get readerItem() {
      return readerItem();
    },
  };
};

export const readerBlockSchema = z
  .object({ id: uuid, key: z.string(), position: z.int(), title: z.string().nullable(), entries: z.array(blockEntrySchema) })
  .meta({ id: 'ReaderProfileBlock' });

const idList = (what: string) =>
  z
    .union([uuid, z.array(uuid)])
    .transform((v) => (Array.isArray(v) ? v : [v]))
    .pipe(z.array(uuid).max(50))
    .optional()
    .describe(`Only profiles with one of these ${what} (repeat the parameter)`);

export const readerProfilesQuery = pagingQuery
  .extend(localeQuery.shape)
  .extend({ 'category_ids[]': idList('categories'), 'profile_type_ids[]': idList('profile types') })
  .meta({ id: 'ReaderProfilesQuery' });
export const readerProfilesSearchQuery = readerProfilesQuery
  .extend({
    q: searchText.optional().describe('Search text, 1 to 200 characters; without it, the filters alone, newest first'),
    sort: searchSort,
  })
  .meta({ id: 'ReaderProfilesSearchQuery' });
export type ReaderProfilesQuery = z.output<typeof readerProfilesQuery>;
export type ReaderProfilesSearchQuery = z.output<typeof readerProfilesSearchQuery>;

export const datesQuery = z
  .object({ from: timestampInput, to: timestampInput, locale: locale.optional() })
  .refine((r) => r.to.getTime() > r.from.getTime(), { message: 'to must be after from', path: ['to'] })
  .refine((r) => r.to.getTime() - r.from.getTime() <= 366 * 86_400_000, { message: 'the range is at most a year', path: ['to'] });

export const registrationBody = z
  .strictObject({
    listed: z.boolean().default(false).describe('Appear by display name in the participants list'),
    display_name: z.string().trim().min(1).max(200).optional().describe('The name participants see (required when listed)'),
  })
  .refine((b) => !b.listed || b.display_name, { message: 'is required when listed is true', path: ['display_name'] })
  .meta({ id: 'EventRegistrationCreate' });
export const registrationSchema = z
  .object({ id: uuid, event_id: uuid, listed: z.boolean(), display_name: z.string().nullable(), inserted_at: isoTimestamp })
  .meta({ id: 'EventRegistration' });
export const participantSchema = z.object({ id: uuid, display_name: z.string() }).meta({ id: 'EventParticipant' });
