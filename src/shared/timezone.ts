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
