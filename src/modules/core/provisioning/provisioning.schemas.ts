import { z } from 'zod';
import { locale, siteUrl } from '../../../shared/schemas.js';
import { createdApiKeySchema } from '../api-keys/api-keys.schemas.js';
import { mediaSchema } from '../tenancy/tenancy.schemas.js';

export const mediaCreateBody = z
  .strictObject({
    name: z.string().trim().min(1).max(200),
    locales: z.array(locale).min(1).max(50).describe('Languages the media publishes in'),
    default_locale: locale.optional().describe('One of locales; the first of them when left out'),
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
