import { z } from 'zod';
import { type ReaderView, pickLocale } from './http/reader.js';
import { isoTimestamp, locale, uuid } from './schemas.js';
import { iso, isoOrNull } from './time.js';

/**
 * Records named per language (categories, mailing lists): a set of `{locale, name, description}`
 * entries, written as a whole, answered with their ids and soft-delete stamps on the Backoffice and
 * as one language by the locale rule on the Reader.
 */
export const namedLocaleInput = z.strictObject({
  locale,
  name: z.string().trim().min(1).max(200),
  description: z.string().max(2000).nullable().optional(),
});
export type NamedLocaleInput = z.output<typeof namedLocaleInput>;

export const namedLocalesInput = z
  .array(namedLocaleInput)
  .min(1)
  .max(50)
  .refine((entries) => new Set(entries.map((e) => e.locale)).size === entries.length, {
    message: 'each locale may appear only once',
  });

/** The wire fields of one entry; each record names its own schema (`.meta({ id })`). */
export const namedLocaleFields = {
  id: uuid,
  locale,
  name: z.string(),
  description: z.string().nullable(),
  deleted_at: isoTimestamp.nullable(),
};

/** The columns a record's named-locales part serves: what `toNamedLocales` and `readerNamed` read. */
export const namedLocaleColumns = ['id', 'locale', 'name', 'description', 'deletedAt'] as const;

export interface NamedLocaleRow {
  id: string;
  locale: string;
  name: string;
  description: string | null;
  deletedAt: Date | string | null;
}

/** The entries for `aggregate.replace(tx, 'locales', …)`. */
export const namedLocaleEntries = (entries: NamedLocaleInput[]) =>
  entries.map((l) => ({ locale: l.locale, name: l.name, description: l.description ?? null }));

export const toNamedLocales = (rows: NamedLocaleRow[]) =>
  rows.map((l) => ({ id: l.id, locale: l.locale, name: l.name, description: l.description, deleted_at: isoOrNull(l.deletedAt) }));

/** The Reader's reading: the name and description in the language the locale rule picks, and meta.locales. */
export function readerNamed(rows: NamedLocaleRow[], view: Pick<ReaderView, 'locale' | 'fallback'>) {
  const { entry, meta } = pickLocale(rows, view.locale, view.fallback);
  return { name: entry?.name ?? null, description: entry?.description ?? null, meta: { locales: meta } };
}

/**
 * A named record as readers see it: its id, name and description in one language, the record's
 * own fields (`fields`), meta.locales and updated_at, in that order on the wire.
 */
export function toReaderNamed<F extends object>(row: { id: string; locales: NamedLocaleRow[]; updatedAt: Date | string }, view: Pick<ReaderView, 'locale' | 'fallback'>, fields: F) {
  const { name, description, meta } = readerNamed(row.locales, view);
  return { id: row.id, name, description, ...fields, meta, updated_at: iso(row.updatedAt) };
}
