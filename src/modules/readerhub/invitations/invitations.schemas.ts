import { z } from 'zod';
import { futureTimestampInput, isoTimestamp, pagingQuery, uuid } from '../../../shared/schemas.js';

export const invitationSchema = z
  .object({
    id: uuid,
    email: z.string(),
    product_key: z.string().nullable(),
    status: z.enum(['pending', 'expired']).describe('expired from expires_at on'),
    expires_at: isoTimestamp,
    inserted_at: isoTimestamp,
    updated_at: isoTimestamp,
  })
  .meta({ id: 'ReaderInvitation' });

export const readerInvitationSchema = z
  .object({
    id: uuid,
    email: z.string(),
    product_key: z.string().nullable(),
    expires_at: isoTimestamp,
  })
  .meta({ id: 'Invitation' });

export const invitationCreateBody = z
  .strictObject({
    email: z.email().max(320).transform((value) => value.toLowerCase()),
    product_key: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}$/, 'must be letters, digits, _ . : or - (at most 100)')
      .nullable()
      .optional()
      .describe('The product the invitee is offered, if any'),
    expires_at: futureTimestampInput,
  })
  .meta({ id: 'ReaderInvitationCreate' });

export const invitationsQuery = pagingQuery;

export type InvitationCreate = z.output<typeof invitationCreateBody>;
