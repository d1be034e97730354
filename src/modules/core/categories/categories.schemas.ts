import { z } from 'zod';
import { localesMeta } from '../../../shared/http/reader.js';
import { type NamedLocaleInput, namedLocaleFields, namedLocalesInput } from '../../../shared/named-locales.js';
import { isoTimestamp, uuid } from '../../../shared/schemas.js';

export const categoryLocaleSchema = z.object(namedLocaleFields).meta({ id: 'CategoryLocale' });

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

const localesInput = namedLocalesInput;

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
export type CategoryLocaleInput = NamedLocaleInput;

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
