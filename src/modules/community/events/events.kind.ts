import { z } from 'zod';
import { timeZone } from '../../../shared/timezone.js';
import { columnsOf, defineKind } from '../profiles/profiles.kind.js';

/** An event: its name, capacity, whether readers may register, and the time zone its schedules are in. */
export const eventsKind = defineKind({
  kind: 'events',
  record: 'event',
  names: { one: 'Event', many: 'Events' },
  input: {
    name: z.string().trim().min(1).max(300),
    capacity: z.int().min(0).max(10_000_000).nullable().optional().describe('At most this many registrations; null: no limit'),
    registration_open: z.boolean().optional().describe('Whether readers may register (default false)'),
    time_zone: timeZone.optional().describe("The IANA zone of the event's local times (default UTC)"),
  },
  wire: { name: z.string(), capacity: z.int().nullable(), registration_open: z.boolean(), time_zone: z.string() },
  columns: columnsOf({ name: 'name', capacity: 'capacity', registration_open: 'registrationOpen', time_zone: 'timeZone' }),
  toWire: (r) => ({ name: r.name ?? '', capacity: r.capacity, registration_open: r.registrationOpen ?? false, time_zone: r.timeZone ?? 'UTC' }),
});
