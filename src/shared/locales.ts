import { z } from 'zod';
import { locale } from './schemas.js';

export const localeQuery = z.object({
  locale: locale.optional().describe("Language to serve; falls back to the media's default, then to any available"),
});

export const localesMeta = z
  .object({ current: z.string().nullable(), available: z.array(z.string()) })
  .meta({ id: 'LocalesMeta' });

/**
 * The entry to serve: the asked language, else the media's default, else the first one.
 * Returns the chosen entry with the list of languages the record has.
 */
export function pickLocale<T extends { locale: string }>(
  entries: T[],
  requested: string | undefined,
  fallback: string,
): { entry: T | undefined; meta: { current: string | null; available: string[] } } {
  const entry =
    (requested && entries.find((e) => e.locale === requested)) ||
    entries.find((e) => e.locale === fallback) ||
    entries[0];
  return { entry, meta: { current: entry?.locale ?? null, available: entries.map((e) => e.locale) } };
}
