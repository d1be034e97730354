import { z } from 'zod';
import { isoTimestamp, uuid } from '../../../shared/schemas.js';
import { timeZone } from '../../../shared/timezone.js';
import { PRIORITY_MAX, PRIORITY_MIN } from './ads.table.js';

/** A timestamp with an offset (an instant), or without one: a wall-clock time in the ad's `timezone`. */
const zonedTimestamp = z.iso
  .datetime({ offset: true, local: true, message: 'must be an ISO 8601 date-time such as 2026-11-21T09:00:00 or 2026-11-21T08:00:00.000Z' })
  .describe("ISO 8601; without an offset it is a wall-clock time in the ad's timezone")
  .meta({ examples: ['2026-12-01T00:00:00', '2026-11-30T23:00:00.000Z'] });

export const adCategorySummarySchema = z.object({ id: uuid, name: z.string() }).meta({ id: 'AdCategorySummary' });

/** Spec 2.12, exactly. */
export const adSchema = z
  .object({
    id: uuid,
    advertiser_id: uuid,
    name: z.string(),
    priority: z.int().describe(`Weight of the ad when ads are drawn (${PRIORITY_MIN}..${PRIORITY_MAX})`),
    business_reference: z.string().nullable(),
    category: adCategorySummarySchema,
    starts_at: isoTimestamp,
    ends_at: isoTimestamp.describe('The ad runs until this instant, excluded'),
    timezone: z.string(),
    inserted_at: isoTimestamp,
    updated_at: isoTimestamp,
  })
  .meta({ id: 'Ad' });

/** Create (spec 4.2), and PUT (a full replace, validated like a create). */
export const adBody = z
  .strictObject({
    advertiser_id: uuid.describe("Must equal the path's advertiser"),
    name: z.string().trim().min(1).max(200),
    priority: z.int().min(PRIORITY_MIN).max(PRIORITY_MAX),
    business_reference: z.string().trim().max(200).nullable().optional(),
    category: z.strictObject({ id: uuid }).describe('The ad category, by id'),
    starts_at: zonedTimestamp,
    ends_at: zonedTimestamp,
    timezone: timeZone,
  })
  .meta({
    id: 'AdWrite',
    examples: [
      {
        advertiser_id: '0193a5c4-2b6e-7d1f-9a3c-5e8f0b1d2c4a',
        name: 'Winter sale',
        priority: 10,
        business_reference: 'PO-2026-17',
        category: { id: '0193a5c4-3c7f-7e20-8b4d-6f9a1c2e3d5b' },
        starts_at: '2026-12-01T00:00:00',
        ends_at: '2027-01-01T00:00:00',
        timezone: 'Europe/Paris',
      },
    ],
  });

export type AdInput = z.output<typeof adBody>;


export const placementPosition = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, 'must be lower-case letters, digits, - or _ (at most 63), such as top or sidebar')
  .describe('A slot of the page: top, sidebar, inline, …');
