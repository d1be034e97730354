import { z } from 'zod';
import { localesMeta } from '../../../shared/http/reader.js';
import { isoTimestamp, recordKey, uuid } from '../../../shared/schemas.js';

export const PROFILE_KINDS = ['event', 'organization', 'person', 'project'] as const;

export const FLAG_NAMES = [
  'has_phone', 'has_email', 'has_bluesky', 'has_linkedin', 'has_website', 'has_facebook', 'has_twitter',
  'has_instagram', 'has_country', 'has_state', 'has_city', 'has_street', 'has_location',
] as const;
export type FlagName = (typeof FLAG_NAMES)[number];

const flags = <T extends z.ZodType>(make: () => T) =>
  Object.fromEntries(FLAG_NAMES.map((f) => [f, make()])) as Record<FlagName, T>;

const metadataEntry = z.object({ key: z.string(), value: z.string() });

const profileTypeFields = {
  id: uuid,
  kind: z.enum(PROFILE_KINDS),
  key: z.string(),
  name: z.string(),
  ...flags(() => z.boolean()),
  metadata: z.array(metadataEntry),
};

export const profileTypeSchema = z
  .object({ ...profileTypeFields, inserted_at: isoTimestamp, updated_at: isoTimestamp, deleted_at: isoTimestamp.nullable() })
  .meta({ id: 'ProfileType' });

/** Reader view (spec 2.5). */
export const readerProfileTypeSchema = z
  .object({ ...profileTypeFields, meta: z.object({ locales: localesMeta }), updated_at: isoTimestamp })
  .meta({ id: 'ReaderProfileType' });

export const profileTypeCreateBody = z
  .strictObject({
    kind: z.enum(PROFILE_KINDS),
    key: recordKey,
    name: z.string().trim().min(1).max(200),
    ...flags(() => z.boolean().optional()),
    metadata: z
      .array(z.strictObject({ key: z.string().min(1).max(100), value: z.string().max(2000) }))
      .max(100)
      .refine((m) => new Set(m.map((e) => e.key)).size === m.length, { message: 'each key may appear only once' })
      .default([]),
  })
  .meta({ id: 'ProfileTypeCreate' });

export type ProfileTypeCreate = z.output<typeof profileTypeCreateBody>;

/** Fields left out keep their value; `metadata`, when sent, is the complete set. The kind never changes. */
export const profileTypeUpdateBody = profileTypeCreateBody
  .omit({ kind: true })
  .partial()
  .extend({ metadata: profileTypeCreateBody.shape.metadata.unwrap().optional() })
  .meta({ id: 'ProfileTypeUpdate' });

export type ProfileTypeUpdate = z.output<typeof profileTypeUpdateBody>;
