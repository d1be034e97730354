import { z } from 'zod';
import { isoTimestamp, uuid } from '../../../shared/schemas.js';
import { placementPosition } from '../ads/ads.schemas.js';

export const placementSchema = z
  .object({
    id: uuid,
    ad_id: uuid,
    target: z.enum(['media', 'issue']),
    issue_id: uuid.nullable(),
    position: z.string().nullable().describe('null: anywhere'),
    inserted_at: isoTimestamp,
  })
  .meta({ id: 'Placement' });

export const placementBody = z
  .discriminatedUnion('target', [
    z.strictObject({ target: z.literal('media'), position: placementPosition.optional() }),
    z.strictObject({ target: z.literal('issue'), issue_id: uuid.describe('A magazine issue of the media'), position: placementPosition.optional() }),
  ])
  .meta({ id: 'PlacementCreate' });

export type PlacementInput = z.output<typeof placementBody>;
