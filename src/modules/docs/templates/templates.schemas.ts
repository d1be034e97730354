import { z } from 'zod';
import { BLOCK_KINDS } from '../../../shared/blocks.js';
import { isoTimestamp, uuid } from '../../../shared/schemas.js';
import { recordKey } from '../../../shared/schemas.js';

const blockKind = z.enum(BLOCK_KINDS);
export const metadataKey = z.string().min(1).max(100);

const unique = <T>(what: string) => (values: T[]) => new Set(values).size === values.length || `each ${what} may appear only once`;

export const templateSchema = z
  .object({
    id: uuid,
    content_type_id: uuid,
    key: z.string(),
    name: z.string(),
    block_kinds: z.array(blockKind).describe('The block kinds its contents may carry; empty allows none'),
    metadata_keys: z.array(z.string()).describe('The metadata keys its contents may carry; empty allows none'),
    inserted_at: isoTimestamp,
    updated_at: isoTimestamp,
    deleted_at: isoTimestamp.nullable(),
  })
  .meta({ id: 'Template' });

const blockKinds = z
  .array(blockKind)
  .max(BLOCK_KINDS.length)
  .refine((v) => unique('block kind')(v) === true, { message: 'each block kind may appear only once' });
const metadataKeys = z
  .array(metadataKey)
  .max(100)
  .refine((v) => unique('key')(v) === true, { message: 'each metadata key may appear only once' });

export const templateCreateBody = z
  .strictObject({
    content_type_id: uuid,
    key: recordKey,
    name: z.string().trim().min(1).max(200),
    block_kinds: blockKinds.default([]),
    metadata_keys: metadataKeys.default([]),
  })
  .meta({ id: 'TemplateCreate' });

export const templateUpdateBody = z
  .strictObject({
    content_type_id: uuid.optional(),
    key: recordKey.optional(),
    name: z.string().trim().min(1).max(200).optional(),
    block_kinds: blockKinds.optional(),
    metadata_keys: metadataKeys.optional(),
  })
  .meta({ id: 'TemplateUpdate' });

export type TemplateCreate = z.output<typeof templateCreateBody>;
export type TemplateUpdate = z.output<typeof templateUpdateBody>;
