import { z } from 'zod';
import { localesMeta } from '../../../shared/http/reader.js';
import { namedLocaleFields, namedLocalesInput as localesInput } from '../../../shared/named-locales.js';
import { isoTimestamp, uuid } from '../../../shared/schemas.js';

export const mailingListLocaleSchema = z.object(namedLocaleFields).meta({ id: 'MailingListLocale' });

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
