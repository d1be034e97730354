import { z } from 'zod';

// The IANA zones this runtime knows, and the names it resolves to one of them (links such as
// Asia/Calcutta): no hand-written list to fall behind the tz database.
const ZONES = new Set(Intl.supportedValuesOf('timeZone'));

/** Whether `name` is an IANA time zone name (`Europe/Paris`, `UTC`); offsets such as `+01:00` are not. */
export function isTimeZone(name: string): boolean {
  if (ZONES.has(name)) return true;
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** A time zone field: an IANA name, else 400. */
export const timeZone = z
  .string()
  .max(64)
  .refine(isTimeZone, { message: 'must be an IANA time zone name such as Europe/Paris' })
  .describe('IANA time zone name (Area/City)')
  .meta({ examples: ['Europe/Paris'] });

// One formatter per zone: building an Intl.DateTimeFormat costs far more than using one.
const FORMATTERS = new Map<string, Intl.DateTimeFormat>();
const formatterOf = (zone: string) => {
  let format = FORMATTERS.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    FORMATTERS.set(zone, format);
  }
  return format;
};

/** The zone's offset from UTC at `instant`, in milliseconds (Europe/Paris in summer: 7,200,000). */
export function offsetAt(zone: string, instant: number): number {
  const parts: Record<string, number> = {};
  for (const p of formatterOf(zone).formatToParts(new Date(instant))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const wall = new Date(Date.UTC(2000, 0, 1, parts.hour!, parts.minute!, parts.second!));
  wall.setUTCFullYear(parts.year!, parts.month! - 1, parts.day!);
  return wall.getTime() - (instant - (((instant % 1000) + 1000) % 1000));
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?$/;
const DAY = 86_400_000;

/**
 * An ISO 8601 date-time as an instant: one with `Z` or an offset is taken as it is; one without
 * is a wall-clock time in `zone`. Across a DST change it resolves as RFC 9557 / Temporal's
 * `compatible` choice does: a time skipped by the spring change moves forward by the gap, a time
 * that occurs twice in autumn is its first (earlier) occurrence.
 */
export function zonedInstant(value: string, zone: string): Date {
  const local = LOCAL.exec(value);
  if (!local) return new Date(value);
  const [, y, mo, d, h, mi, s, frac] = local;
  const date = new Date(Date.UTC(2000, 0, 1, Number(h), Number(mi), Number(s ?? 0), Number((frac ?? '0').padEnd(3, '0').slice(0, 3))));
  // setUTCFullYear, not Date.UTC: the latter reads the years 0 to 99 as 1900 to 1999.
  date.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  const wall = date.getTime();
  // The offsets on either side of any change near this wall time; each gives a candidate.
  const before = offsetAt(zone, wall - DAY);
  const after = offsetAt(zone, wall + DAY);
  const fits = [before, after].map((off) => wall - off).filter((t) => offsetAt(zone, t) === wall - t);
  if (fits.length > 0) return new Date(Math.min(...fits));
  // Skipped: read with the offset in force before the change, which lands after it.
  return new Date(wall - before);
}
