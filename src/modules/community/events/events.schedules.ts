import type rrule from 'rrule';
import { errors } from '../../../shared/errors.js';
import { zonedInstant } from '../../../shared/timezone.js';
import type { ScheduleInput } from '../profiles/profiles.schemas.js';
import { onFirstUse } from '../../../shared/on-first-use.js';

// Loaded with the first recurring schedule, not at start-up.
const rruleModule = onFirstUse<typeof rrule>('rrule');

const MINUTE = 60_000;
const DAY = 86_400_000;
/** How many occurrences one rule may have when it is bounded (COUNT or UNTIL), to find its last. */
const MAX_BOUNDED = 5_000;

/** A stored schedule, as expansion needs it. */
export interface ScheduleRow {
  id: string;
  eventId: string;
  kind: string;
  startsAt: Date | string | null;
  endsAt: Date | string | null;
  startsLocal: string | null;
  rrule: string | null;
  durationMinutes: number | null;
  timeZone: string | null;
}

export interface Occurrence {
  eventId: string;
  scheduleId: string;
  startsAt: Date;
  endsAt: Date;
}

/** A wall-clock `YYYY-MM-DDTHH:mm[:ss]` as a "floating" Date: its UTC fields are the wall clock. */
const floating = (local: string) => new Date(`${local.length === 16 ? `${local}:00` : local}Z`);
/** A floating Date back to wall-clock text. */
const wallText = (d: Date) => d.toISOString().slice(0, 19);

/**
 * The rule, expanded in floating wall-clock time (no TZID: rrule's own zone handling is not
 * DST-safe), so that 18:30 every Tuesday stays 18:30 on both sides of a daylight-saving change;
 * each wall-clock occurrence becomes an instant in the event's zone afterwards.
 */
function ruleOf(rule: string, startsLocal: string) {
  let options;
  try {
    options = rruleModule().RRule.parseString(rule.replace(/^RRULE:/i, ''));
  } catch {
    throw invalidRule('is not an RFC 5545 RRULE');
  }
  if (options.dtstart || options.tzid) throw invalidRule('must not carry DTSTART or TZID: starts_local and the time zone set them');
  if (options.freq === undefined) throw invalidRule('needs FREQ');
  return new (rruleModule().RRule)({ ...options, dtstart: floating(startsLocal) });
}

const invalidRule = (message: string) => errors.validation('the recurrence rule is invalid', [{ path: 'rrule', message }]);

/** The first occurrence's start and the last occurrence's end (null: endless) of a schedule, as instants. */
export function boundsOf(input: ScheduleInput, zone: string): { firstAt: Date; lastAt: Date | null } {
  if (input.kind === 'slot') return { firstAt: input.starts_at, lastAt: input.ends_at };
  const rule = ruleOf(input.rrule, input.starts_local);
  const first = rule.after(new Date(floating(input.starts_local).getTime() - 1), true);
  if (!first) throw invalidRule('has no occurrence');
  const firstAt = zonedInstant(wallText(first), zone);
  if (!rule.options.count && !rule.options.until) return { firstAt, lastAt: null };
  const all = rule.all((_, i) => i < MAX_BOUNDED);
  const last = all.at(-1) ?? first;
  return { firstAt, lastAt: new Date(zonedInstant(wallText(last), zone).getTime() + input.duration_minutes * MINUTE) };
}

/** The occurrences of stored schedules that meet `from`..`to` (start before `to`, end after `from`), by start. */
export function expand(schedules: ScheduleRow[], from: Date, to: Date): Occurrence[] {
  const out: Occurrence[] = [];
  for (const s of schedules) {
    if (s.kind === 'slot') {
      const startsAt = new Date(s.startsAt!);
      const endsAt = new Date(s.endsAt!);
      if (startsAt < to && endsAt > from) out.push({ eventId: s.eventId, scheduleId: s.id, startsAt, endsAt });
      continue;
    }
    const zone = s.timeZone ?? 'UTC';
    const duration = (s.durationMinutes ?? 0) * MINUTE;
    const rule = ruleOf(s.rrule!, s.startsLocal!);
    // Wall-clock bounds wide enough for any zone offset and the duration; instants filter exactly.
    const wallFrom = new Date(from.getTime() - duration - DAY);
    const wallTo = new Date(to.getTime() + DAY);
    for (const wall of rule.between(wallFrom, wallTo, true)) {
      const startsAt = zonedInstant(wallText(wall), zone);
      const endsAt = new Date(startsAt.getTime() + duration);
      if (startsAt < to && endsAt > from) out.push({ eventId: s.eventId, scheduleId: s.id, startsAt, endsAt });
    }
  }
  return out.sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime() || a.eventId.localeCompare(b.eventId));
}
