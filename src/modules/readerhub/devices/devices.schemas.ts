import { z } from 'zod';
import { isoTimestamp, uuid } from '../../../shared/schemas.js';

export const DEVICE_PLATFORMS = ['ios', 'android', 'web'] as const;

export const deviceSchema = z
  .object({
    id: uuid,
    platform: z.enum(DEVICE_PLATFORMS),
    name: z.string().nullable(),
    last_registered_at: isoTimestamp,
    inserted_at: isoTimestamp,
    updated_at: isoTimestamp,
  })
  .meta({ id: 'ReaderDevice' });

export const deviceRegisterBody = z
  .strictObject({
    token: z
      .string()
      // Push tokens and Web Push endpoints are well under this; the unique index limits a row to ~2.7 kB.
      .regex(/^[\x21-\x7e]{1,2048}$/, 'must be 1 to 2048 printable ASCII characters without spaces')
      .describe('The push token (APNs, FCM or Web Push endpoint); registering it again is idempotent'),
    platform: z.enum(DEVICE_PLATFORMS),
    name: z.string().trim().min(1).max(200).nullable().optional().describe('A label such as "Anna\'s iPhone"'),
  })
  .meta({ id: 'ReaderDeviceRegister' });

export type DeviceRegister = z.output<typeof deviceRegisterBody>;
