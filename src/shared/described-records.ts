import { z } from 'zod';
import { isoTimestamp, recordKey, uuid } from './schemas.js';
import { stamped } from './time.js';

/**
 * A media's record with a stable key, a name and a description (content types, topics): its
 * Backoffice wire shape, create and update bodies, and mapper, declared once. Each area names
 * its OpenAPI schemas (`ContentType`, `ContentTypeCreate`, …) and may describe its key.
 */
export function describedRecordSchemas(ids: { record: string; create: string; update: string }, key: z.ZodString = recordKey) {
  const fields = {
    key,
    name: z.string().trim().min(1).max(200),
    description: z.string().max(2000).nullable().optional(),
  };
  return {
    record: z
      .object({
        id: uuid,
        key: z.string(),
        name: z.string(),
        description: z.string().nullable(),
        inserted_at: isoTimestamp,
        updated_at: isoTimestamp,
        deleted_at: isoTimestamp.nullable(),
      })
      .meta({ id: ids.record }),
    create: z.strictObject(fields).meta({ id: ids.create }),
    update: z.strictObject({ key: fields.key.optional(), name: fields.name.optional(), description: fields.description }).meta({ id: ids.update }),
  };
}

interface DescribedRow {
  id: string;
  key: string;
  name: string;
  description: string | null;
  // Dates from a table's row, or ISO text from an aggregate read.
  insertedAt: Date | string;
  updatedAt: Date | string;
  deletedAt: Date | string | null;
}

/** A described record on the Backoffice wire. */
export const toDescribedRecord = (row: DescribedRow) => stamped({
  id: row.id,
  key: row.key,
  name: row.name,
  description: row.description,
}, row);
