import { z } from 'zod';
import { localesMeta } from '../../../shared/http/reader.js';
import { isoTimestamp, locale, uuid } from '../../../shared/schemas.js';

export const mailingListLocaleSchema = z
  .object({ id: uuid, locale, name: z.string(), description: z.string().nullable(), deleted_at: isoTimestamp.nullable() })
  .meta({ id: 'MailingListLocale' });

export const mailingListSchema = z
  .object({
    id: uuid,
    locales: z.array(mailingListLocaleSchema),
    is_public: z.boolean().describe('Offered to readers (Reader list, subscribe)'),
    double_opt_in: z.boolean().describe('A new address must confirm by the link of a confirmation mail'),
    inserted_at: isoTimestamp,
    updated_at: isoTimestamp,
    deleted_at: isoTimestamp.nullable(),
  })
  .meta({ id: 'MailingList' });

const localeInput = z.strictObject({
  locale,
  name: z.string().trim().min(1).max(200),
  description: z.string().max(2000).nullable().optional(),
});

const localesInput = z
  .array(localeInput)
  .min(1)
  .max(50)
  .refine((entries) => new Set(entries.map((e) => e.locale)).size === entries.length, { message: 'each locale may appear only once' });

export const mailingListCreateBody = z
  .strictObject({ locales: localesInput, is_public: z.boolean().optional(), double_opt_in: z.boolean().optional() })
  .meta({ id: 'MailingListCreate' });

export const mailingListUpdateBody = z
  .strictObject({
    locales: localesInput.optional().describe('The complete set of locale entries: listed ones are created or updated, others are deleted'),
    is_public: z.boolean().optional(),
    double_opt_in: z.boolean().optional(),
  })
  .meta({ id: 'MailingListUpdate' });

export type MailingListCreate = z.output<typeof mailingListCreateBody>;
export type MailingListUpdate = z.output<typeof mailingListUpdateBody>;

export const readerMailingListSchema = z
  .object({
    id: uuid,
    name: z.string().nullable(),
    description: z.string().nullable(),
    double_opt_in: z.boolean(),
    meta: z.object({ locales: localesMeta }),
    updated_at: isoTimestamp,
  })
  .meta({ id: 'ReaderMailingList' });
