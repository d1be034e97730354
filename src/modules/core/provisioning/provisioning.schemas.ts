import { z } from 'zod';
import { locale, siteUrl } from '../../../shared/schemas.js';
import { createdApiKeySchema } from '../api-keys/api-keys.schemas.js';
import { mediaSchema } from '../tenancy/tenancy.schemas.js';

/** BCP 47's canonical form of a language tag (fr-ch: fr-CH, EN: en); the tag as sent when it is none. */
const canonicalLocale = (tag: string) => {
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? tag;
  } catch {
    return tag;
  }
};

/**
 * A media's language as an operator types it, in any case (`fr-ch`, `EN`), kept in BCP 47's
 * canonical form: the form every other locale field of the service takes, which it must then match.
 */
const mediaLocale = z
  .string()
  .overwrite(canonicalLocale)
  .pipe(locale)
  .describe('Language code (BCP 47: en, fr-CH, ...), in any case; kept in its canonical form (fr-ch: fr-CH)')
  // Documented as what it takes; the canonical form must then match the service's locale pattern.
  .meta({ pattern: '^[a-zA-Z]{2,3}(-[a-zA-Z]{2,4}|-\\d{3})?$', examples: ['en', 'fr-CH'] });

export const mediaCreateBody = z
  .strictObject({
    name: z.string().trim().min(1).max(200),
    locales: z.array(mediaLocale).min(1).max(50).describe('Languages the media publishes in'),
    default_locale: mediaLocale.optional().describe('One of locales; the first of them when left out'),
    site_url: siteUrl.optional(),
  })
  .meta({ id: 'MediaCreate', examples: [{ name: 'Daily Planet', locales: ['en', 'fr'], default_locale: 'en' }] });

export const provisionedMediaSchema = z
  .object({
    media: mediaSchema,
    admin_key: createdApiKeySchema.describe("The media's first admin key; its secret (key) is shown only in this answer"),
  })
  .meta({ id: 'ProvisionedMedia' });

export type MediaCreate = z.output<typeof mediaCreateBody>;
