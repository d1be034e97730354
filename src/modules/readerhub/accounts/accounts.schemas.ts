import { z } from 'zod';
import { isoTimestamp, pagingQuery, uuid } from '../../../shared/schemas.js';
import { SCOPES } from '../../../shared/scopes.js';

export const readerAccountSchema = z
  .object({
    id: uuid.describe('The reader id'),
    provider_id: uuid.describe('The identity provider (oauth provider record) the reader signs in with'),
    sub: z.string().describe("The provider's subject identifier"),
    email: z.string().nullable().describe('As the provider last told it'),
    name: z.string().nullable().describe('As the provider last told it'),
    inserted_at: isoTimestamp,
    updated_at: isoTimestamp,
  })
  .meta({ id: 'ReaderAccount' });

export const userInfoSchema = readerAccountSchema
  .extend({ scopes: z.array(z.enum(SCOPES)).describe('What the presented token may do') })
  .meta({ id: 'ReaderUserInfo' });

export const readersQuery = pagingQuery.extend({
  email: z.string().trim().min(1).max(320).optional().describe('Only the readers with this e-mail address (case-insensitive)'),
});
export type ReadersQuery = z.output<typeof readersQuery>;

export const metadataPair = z
  .strictObject({
    key: z.string().trim().min(1).max(100),
    value: z.string().max(2000),
  })
  .meta({ id: 'ReaderProfileMetadataPair' });

const metadataList = z
  .array(metadataPair)
  .max(50)
  .refine((pairs) => new Set(pairs.map((p) => p.key)).size === pairs.length, { message: 'each key may appear only once' });

const personName = z.string().trim().max(200).nullable();

export const profileSchema = z
  .object({
    id: uuid,
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    other_name: z.string().nullable(),
    pronoun: z.string().nullable(),
    profile_image_key: z.string().nullable().describe("An asset image's `file_key` in this media, served at `/assets/{file_key}`"),
    metadata: z.array(z.object({ key: z.string(), value: z.string() })),
    inserted_at: isoTimestamp,
    updated_at: isoTimestamp,
  })
  .meta({ id: 'ReaderProfile' });

const profileFields = {
  first_name: personName.optional(),
  last_name: personName.optional(),
  other_name: personName.optional(),
  pronoun: z.string().trim().max(50).nullable().optional(),
  profile_image_key: z
    .string()
    .trim()
    .min(1)
    .max(300)
    .nullable()
    .optional()
    .describe("The `file_key` of a live asset image of this media (a reader's upload answers it); 404 otherwise"),
};

export const profileCreateBody = z
  .strictObject({ ...profileFields, metadata: metadataList.optional().describe('Initial {key, value} pairs') })
  .meta({ id: 'ReaderProfileCreate' });

export const profileUpdateBody = z
  .strictObject(profileFields)
  .meta({ id: 'ReaderProfileUpdate' });

export const metadataBody = z
  .strictObject({ metadata: metadataList.describe('The complete set of pairs; pairs not listed are removed') })
  .meta({ id: 'ReaderProfileMetadataReplace' });

export const metadataResponse = z.object({ data: z.array(z.object({ key: z.string(), value: z.string() })) });

export type ProfileCreate = z.output<typeof profileCreateBody>;
export type ProfileUpdate = z.output<typeof profileUpdateBody>;
export type MetadataInput = z.output<typeof metadataPair>[];
