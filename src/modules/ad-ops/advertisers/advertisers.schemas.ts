import { z } from 'zod';
import { isoTimestamp, uuid } from '../../../shared/schemas.js';

/** An http(s) URL: other schemes (javascript:, data:) never reach a page that links them. */
export const webUrl = z
  .url({ protocol: /^https?$/, hostname: z.regexes.domain, message: 'must be an http or https URL' })
  .max(2000);

export const advertiserSchema = z
  .object({
    id: uuid,
    name: z.string(),
    contact_email: z.string().nullable(),
    website: z.string().nullable(),
    is_active: z.boolean().describe('Only the ads of an active advertiser run'),
    inserted_at: isoTimestamp,
    updated_at: isoTimestamp,
  })
  .meta({ id: 'Advertiser' });

/** Create, and PUT (a full replace: a field left out takes its default). */
export const advertiserBody = z
  .strictObject({
    name: z.string().trim().min(1).max(200),
    contact_email: z.email().max(320).nullable().optional(),
    website: webUrl.nullable().optional(),
    is_active: z.boolean().default(true),
  })
  .meta({ id: 'AdvertiserWrite' });

export type AdvertiserInput = z.output<typeof advertiserBody>;
