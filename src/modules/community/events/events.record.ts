import { z } from 'zod';
import { timeZone } from '../../../shared/timezone.js';
import { profileRecord } from '../profiles/profiles.record.js';

/** An event: its name, capacity, whether readers may register, and the time zone its schedules are in. */
export const eventRecord = profileRecord('events', {
  input: {
    name: z.string().trim().min(1).max(300),
    capacity: z.int().min(0).max(10_000_000).nullable().optional().describe('At most this many registrations; null: no limit'),
    registration_open: z.boolean().optional().describe('Whether readers may register (default false)'),
    time_zone: timeZone.optional().describe("The IANA zone of the event's local times (default UTC)"),
  },
  wire: { name: z.string(), capacity: z.int().nullable(), registration_open: z.boolean(), time_zone: z.string() },
});
