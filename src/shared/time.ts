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

type Stamped = { insertedAt: Date | string; updatedAt: Date | string; deletedAt: Date | string | null | undefined };
type WireStamps = { inserted_at: string; updated_at: string; deleted_at: string | null };

/**
 * A wire object with the timestamps of a soft-deletable record written last, as every record's
 * wire shape carries them: set on the object the mapper built, not spread into a new one (a
 * spread into an object literal copies property by property in the runtime, for every record of
 * every page).
 */
export const stamped = <T extends object>(wire: T, row: Stamped): T & WireStamps => {
  const out = wire as T & WireStamps;
  out.inserted_at = iso(row.insertedAt);
  out.updated_at = iso(row.updatedAt);
  out.deleted_at = isoOrNull(row.deletedAt);
  return out;
};
