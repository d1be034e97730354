import { z } from 'zod';
import { localesMeta } from '../http/reader.js';
import { isoTimestamp, locale as localeCode, recordKey, uuid } from '../schemas.js';
import { stamped } from '../time.js';

/** A body's language entries: one per locale, at least one. */
export const localesIn = <L extends z.ZodRawShape>(locale: L) =>
  z
    .array(z.strictObject({ locale: localeCode, ...locale }))
    .min(1)
    .max(50)
    .refine((entries) => new Set(entries.map((e) => (e as unknown as { locale: string }).locale)).size === entries.length, {
      message: 'each locale may appear only once',
    });

/**
 * The four schemas of a record with locales, from its fields once: the Backoffice record
 * (`locales` with every entry), the Reader record (one entry as `localized`, spec 2.15's shape,
 * with meta.locales), the create body and the update body (every field optional).
 */
export function recordSchemas<F extends z.ZodRawShape, I extends z.ZodRawShape, L extends z.ZodRawShape, LI extends z.ZodRawShape>(
  name: string,
  d: {
    fields: F;
    input: I;
    locale?: L;
    localeInput?: LI;
    /** A rule over the create body's fields together (exactly one of two references), with the path it names. */
    createRule?: { check: (body: Record<string, unknown>) => boolean; message: string; path: string };
    /** The OpenAPI examples of the bodies, where one derived from the schema would not pass its rules. */
    examples?: { create?: unknown; update?: unknown };
  },
) {
  const locale = d.locale ? { locale: z.object({ id: uuid, locale: localeCode, ...d.locale }) } : undefined;
  const localeInput = d.localeInput ? localesIn(d.localeInput) : undefined;
  const item = z
    .object({
      id: uuid,
      ...d.fields,
      ...(locale && { locales: z.array(locale.locale.extend({ deleted_at: isoTimestamp.nullable() })) }),
      inserted_at: isoTimestamp,
      updated_at: isoTimestamp,
      deleted_at: isoTimestamp.nullable(),
    })
    .meta({ id: name });
  const reader = z
    .object({
      id: uuid,
      ...d.fields,
      ...(locale && { localized: locale.locale.nullable().describe('The entry of the asked language (locale rule), null when the record has none') }),
      meta: z.object({ locales: localesMeta }),
      inserted_at: isoTimestamp,
      updated_at: isoTimestamp,
    })
    .meta({ id: `Reader${name}` });
  const rule = d.createRule;
  const create = z
    .strictObject({ ...d.input, ...(localeInput && { locales: localeInput }) })
    .refine((body) => !rule || rule.check(body as Record<string, unknown>), { message: rule?.message ?? '', path: rule ? [rule.path] : [] })
    .meta({ id: `${name}Create`, ...(d.examples?.create !== undefined && { examples: [d.examples.create] }) });
  const partial = Object.fromEntries(Object.entries(d.input).map(([k, v]) => [k, (v as z.ZodType).optional()])) as unknown as {
    [K in keyof I]: z.ZodOptional<I[K]>;
  };
  const update = z
    .strictObject({
      ...partial,
      ...(localeInput && { locales: localeInput.optional().describe('The complete set of locale entries: listed ones are created or updated, others are deleted') }),
    })
    .meta({ id: `${name}Update`, ...(d.examples?.update !== undefined && { examples: [d.examples.update] }) });
  return { item, reader, create, update };
}


/**
 * A media's record with a stable key, a name and a description (content types, topics): its
 * Backoffice wire shape, create and update bodies, and mapper, declared once. Each area names
 * its OpenAPI schemas (`ContentType`, `ContentTypeCreate`, …) and may describe its key.
 */
export function describedRecordSchemas(ids: { record: string; create: string; update: string }, key: z.ZodString = recordKey) {
  const fields = {
    key,
    name: z.string().trim().min(1).max(200),
    description: z.string().max(2000).nullable().optional(),
  };
  return {
    record: z
      .object({
        id: uuid,
        key: z.string(),
        name: z.string(),
        description: z.string().nullable(),
        inserted_at: isoTimestamp,
        updated_at: isoTimestamp,
        deleted_at: isoTimestamp.nullable(),
      })
      .meta({ id: ids.record }),
    create: z.strictObject(fields).meta({ id: ids.create }),
    update: z.strictObject({ key: fields.key.optional(), name: fields.name.optional(), description: fields.description }).meta({ id: ids.update }),
  };
}

interface DescribedRow {
  id: string;
  key: string;
  name: string;
  description: string | null;
  // Dates from a table's row, or ISO text from an aggregate read.
  insertedAt: Date | string;
  updatedAt: Date | string;
  deletedAt: Date | string | null;
}

/** A described record on the Backoffice wire. */
export const toDescribedRecord = (row: DescribedRow) => stamped({
  id: row.id,
  key: row.key,
  name: row.name,
  description: row.description,
}, row);
