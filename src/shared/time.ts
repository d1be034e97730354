/**
 * ISO 8601 UTC with milliseconds, as on the wire. Aggregate reads already get timestamps
 * in that form from SQL (`isoText`), which pass through; Dates and other strings are
 * converted.
 */
export const iso = (value: Date | string): string =>
  typeof value === 'string' && value.length === 24 && value.charCodeAt(23) === 90 /* Z */
    ? value
    : (value instanceof Date ? value : new Date(value)).toISOString();

export const isoOrNull = (value: Date | string | null | undefined): string | null =>
  value === null || value === undefined ? null : iso(value);

/** The timestamps of a soft-deletable record, as its wire shape carries them. */
export const stamps = (row: { insertedAt: Date | string; updatedAt: Date | string; deletedAt: Date | string | null | undefined }) => ({
  inserted_at: iso(row.insertedAt),
  updated_at: iso(row.updatedAt),
  deleted_at: isoOrNull(row.deletedAt),
});
