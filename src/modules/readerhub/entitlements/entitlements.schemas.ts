import { z } from 'zod';
import { isoTimestamp, pagingQuery, timestampInput, uuid } from '../../../shared/schemas.js';

export const ENTITLEMENT_STATUSES = ['active', 'scheduled', 'expired', 'revoked'] as const;
export type EntitlementStatus = (typeof ENTITLEMENT_STATUSES)[number];

const status = z
  .enum(ENTITLEMENT_STATUSES)
  .describe('Computed from now: revoked once revoked_at is set; else scheduled before starts_at, expired from ends_at on, active between');

const statusFilter = z
  .string()
  .regex(
    /^(active|scheduled|expired|revoked)(,(active|scheduled|expired|revoked))*$/,
    'must be a comma-separated list of active, scheduled, expired, revoked',
  )
  .transform((value) => [...new Set(value.split(','))] as EntitlementStatus[])
  .describe('Comma-separated statuses to return, e.g. `active,scheduled`');

const productKey = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}$/, 'must be letters, digits, _ . : or - (at most 100)')
  .describe('The product the entitlement grants, as the media names it (e.g. `digital-plus`)');

const entitlementFields = {
  id: uuid,
  product_key: z.string(),
  status,
  starts_at: isoTimestamp,
  ends_at: isoTimestamp.nullable().describe('Null: no end'),
  revoked_at: isoTimestamp.nullable(),
  inserted_at: isoTimestamp,
  updated_at: isoTimestamp,
};

export const entitlementSchema = z
  .object({ ...entitlementFields, reader_id: uuid })
  .meta({ id: 'ReaderEntitlement' });

export const readerEntitlementSchema = z.object(entitlementFields).meta({ id: 'UserEntitlement' });

export const entitlementCreateBody = z
  .strictObject({
    reader_id: uuid.describe('A reader of the key\'s media (GET /core/v2/readers)'),
    product_key: productKey,
    starts_at: timestampInput.optional().describe('Start of the validity window (default: now)'),
    ends_at: timestampInput.nullable().optional().describe('End of the validity window, after starts_at (default: none)'),
  })
  // Runs only once both timestamps parsed (timestampInput aborts on a bad one): a Date each.
  .refine((b) => !b.ends_at || b.ends_at.getTime() > (b.starts_at?.getTime() ?? Date.now()), {
    message: 'must be after starts_at (or after now when starts_at is left out)',
    path: ['ends_at'],
    when: (payload) => payload.issues.length === 0,
  })
  .meta({ id: 'ReaderEntitlementCreate' });

export const entitlementsQuery = pagingQuery.extend({
  reader_id: uuid.optional().describe('Only this reader\'s entitlements'),
  product_key: productKey.optional(),
  status: statusFilter.optional().describe('Comma-separated statuses to return (default: all)'),
});

export const readerEntitlementsQuery = pagingQuery.extend({
  product_key: productKey.optional(),
  status: statusFilter.optional().describe('Comma-separated statuses to return (default: `active`)'),
});

export type EntitlementCreate = z.output<typeof entitlementCreateBody>;
export type EntitlementsQuery = z.output<typeof entitlementsQuery>;
export type ReaderEntitlementsQuery = z.output<typeof readerEntitlementsQuery>;
