import { z } from 'zod';
import { localesMeta } from '../../../shared/http/reader.js';
import { isoTimestamp, locale, uuid } from '../../../shared/schemas.js';

export const categoryLocaleSchema = z
  .object({
    id: uuid,
    locale,
    name: z.string(),
    description: z.string().nullable(),
    deleted_at: isoTimestamp.nullable(),
  })
  .meta({ id: 'CategoryLocale' });

export const categorySchema = z
  .object({
    id: uuid,
    locales: z.array(categoryLocaleSchema),
    svg_icon: z.string().nullable(),
    is_archived: z.boolean(),
    inserted_at: isoTimestamp,
    updated_at: isoTimestamp,
    deleted_at: isoTimestamp.nullable(),
  })
  .meta({ id: 'Category' });

const localeInput = z.strictObject({
  locale,
  name: z.string().trim().min(1).max(200),
  description: z.string().max(2000).nullable().optional(),
});

const localesInput = z
  .array(localeInput)
  .min(1)
  .max(50)
  .refine((entries) => new Set(entries.map((e) => e.locale)).size === entries.length, {
    message: 'each locale may appear only once',
  });

const svgIcon = z.string().max(20_000).nullable().describe('Inline SVG; sanitised on write (shapes only, no scripts)');

export const categoryCreateBody = z
  .strictObject({
    svg_icon: svgIcon.optional(),
    is_archived: z.boolean().optional(),
    locales: localesInput,
  })
  .meta({ id: 'CategoryCreate' });

export const categoryUpdateBody = z
  .strictObject({
    svg_icon: svgIcon.optional(),
    is_archived: z.boolean().optional(),
    locales: localesInput
      .optional()
      .describe('The complete set of locale entries: listed ones are created or updated, others are deleted'),
  })
  .meta({ id: 'CategoryUpdate' });

export type CategoryCreate = z.output<typeof categoryCreateBody>;
export type CategoryUpdate = z.output<typeof categoryUpdateBody>;
export type CategoryLocaleInput = z.output<typeof localeInput>;

export const readerCategorySchema = z
  .object({
    id: uuid,
    name: z.string().nullable(),
    description: z.string().nullable(),
    svg_icon: z.string().nullable(),
    meta: z.object({ locales: localesMeta }),
    updated_at: isoTimestamp,
  })
  .meta({ id: 'ReaderCategory' });
