import { z } from 'zod';
import { isoTimestamp, recordKey, uuid } from '../../../shared/schemas.js';

export const contentTypeSchema = z
  .object({
    id: uuid,
    key: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    inserted_at: isoTimestamp,
    updated_at: isoTimestamp,
    deleted_at: isoTimestamp.nullable(),
  })
  .meta({ id: 'ContentType' });

const fields = {
  key: recordKey,
  name: z.string().trim().min(1).max(200),
  description: z.string().max(2000).nullable().optional(),
};

export const contentTypeCreateBody = z.strictObject(fields).meta({ id: 'ContentTypeCreate' });
export const contentTypeUpdateBody = z
  .strictObject({ key: fields.key.optional(), name: fields.name.optional(), description: fields.description })
  .meta({ id: 'ContentTypeUpdate' });

export type ContentTypeCreate = z.output<typeof contentTypeCreateBody>;
export type ContentTypeUpdate = z.output<typeof contentTypeUpdateBody>;
