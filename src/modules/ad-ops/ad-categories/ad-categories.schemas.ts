import { z } from 'zod';
import { isoTimestamp, uuid } from '../../../shared/schemas.js';

export const adCategorySchema = z
  .object({
    id: uuid,
    name: z.string(),
    inserted_at: isoTimestamp,
    updated_at: isoTimestamp,
    deleted_at: isoTimestamp.nullable(),
  })
  .meta({ id: 'AdCategory' });

/** Create, and PUT (a full replace). */
export const adCategoryBody = z.strictObject({ name: z.string().trim().min(1).max(200) }).meta({ id: 'AdCategoryWrite' });

export type AdCategoryInput = z.output<typeof adCategoryBody>;
