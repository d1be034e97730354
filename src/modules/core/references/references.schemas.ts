import { z } from 'zod';
import { UUID_PATTERN as UUID } from '../../../shared/ids.js';
import { futureTimestampInput, isoTimestamp, uuid } from '../../../shared/schemas.js';

export const REF_PATTERN = new RegExp(`^([a-z0-9][a-z0-9_.-]{0,62}):(${UUID})$`);

export const providerName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_.-]{0,62}$/, 'must be lower-case letters, digits, _ . or - (at most 63)')
  .describe('The external system, for example "wordpress" or "crm"');

export const urn = z
  .string()
  .regex(new RegExp(`^urn:[a-z0-9][a-z0-9-]{0,31}:[a-z0-9][a-z0-9_-]{0,62}:${UUID}$`, 'i'), 'must look like urn:<namespace>:<kind>:<uuid>')
  .describe('The record this reference points to: urn:<namespace>:<kind>:<uuid>');

export const refString = z
  .string()
  .max(200)
  .regex(REF_PATTERN, 'must look like <provider>:<uuid>')
  .describe('<provider>:<uuid>');

export const referenceSchema = z
  .object({
    id: uuid.describe("The external system's id"),
    provider: z.string(),
    ref: z.string().describe('<provider>:<id>, the address of this reference'),
    urn: z.string(),
    expires_at: isoTimestamp.nullable(),
    inserted_at: isoTimestamp,
    updated_at: isoTimestamp,
  })
  .meta({ id: 'Reference' });

export const referenceCreateBody = z
  .strictObject({
    provider: providerName,
    id: uuid.optional().describe("The external system's id; generated when absent"),
    urn,
    expires_at: futureTimestampInput
      .optional()
      .describe('After this instant the reference no longer resolves'),
  })
  .meta({ id: 'ReferenceCreate' });

export const referenceLookupBody = z
  .strictObject({ refs: z.array(refString).min(1).max(100) })
  .meta({ id: 'ReferenceLookup' });

export const refParams = z.object({ ref: z.string().max(200).describe('<provider>:<uuid>') });

export type ReferenceCreate = z.output<typeof referenceCreateBody>;

/** Splits `<provider>:<uuid>`; undefined when it has another shape. */
export function parseRef(ref: string): { provider: string; id: string } | undefined {
  const match = REF_PATTERN.exec(ref);
  return match ? { provider: match[1]!, id: match[2]!.toLowerCase() } : undefined;
}
