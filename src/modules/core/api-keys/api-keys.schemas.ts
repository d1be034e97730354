import { z } from 'zod';
import { futureTimestampInput, isoTimestamp, uuid } from '../../../shared/schemas.js';
import { ROLES } from '../../../shared/permissions.js';

export const apiKeySchema = z
  .object({
    id: uuid,
    name: z.string(),
    role: z.enum(ROLES),
    prefix: z.string().describe('The first characters of the key, to tell keys apart'),
    last_used_at: isoTimestamp.nullable(),
    expires_at: isoTimestamp.nullable(),
    revoked_at: isoTimestamp.nullable(),
    inserted_at: isoTimestamp,
    updated_at: isoTimestamp,
  })
  .meta({ id: 'ApiKey' });

export const createdApiKeySchema = apiKeySchema
  .extend({ key: z.string().describe('The secret; shown only in this answer') })
  .meta({ id: 'CreatedApiKey' });

export const apiKeyCreateBody = z
  .strictObject({
    name: z.string().trim().min(1).max(200),
    role: z.enum(ROLES),
    expires_at: futureTimestampInput
      .optional()
      .describe('After this instant the key is refused'),
  })
  .meta({ id: 'ApiKeyCreate' });

export type ApiKeyCreate = z.output<typeof apiKeyCreateBody>;
