import { describe, expect, it } from 'vitest';
import { isTimeZone, offsetAt, zonedInstant } from './timezone.js';

const at = (value: string, zone: string) => zonedInstant(value, zone).toISOString();

describe('zonedInstant', () => {
  it('reads a wall-clock time in the zone, and keeps an instant with Z or an offset as it is', () => {
    expect(at('2026-07-01T12:00:00', 'Europe/Paris')).toBe('2026-07-01T10:00:00.000Z');
    expect(at('2026-01-01T12:00', 'Europe/Paris')).toBe('2026-01-01T11:00:00.000Z');
    expect(at('2026-07-01T00:00:00.5', 'Asia/Kolkata')).toBe('2026-06-30T18:30:00.500Z');
    expect(at('2026-07-01T12:00:00Z', 'Europe/Paris')).toBe('2026-07-01T12:00:00.000Z');
    expect(at('2026-07-01T12:00:00+05:30', 'Europe/Paris')).toBe('2026-07-01T06:30:00.000Z');
    expect(at('0050-07-01T12:00:00', 'UTC')).toBe('0050-07-01T12:00:00.000Z');
    expect(at('2028-02-29T23:30:00', 'Asia/Tokyo')).toBe('2028-02-29T14:30:00.000Z');
  });

  it('moves a time skipped by the spring change forward by the gap, and takes the first of a time that occurs twice', () => {
    expect(at('2026-03-29T02:30:00', 'Europe/Paris')).toBe('2026-03-29T01:30:00.000Z');
    expect(at('2026-10-25T02:30:00', 'Europe/Paris')).toBe('2026-10-25T00:30:00.000Z');
    expect(at('2026-03-08T02:30:00', 'America/New_York')).toBe('2026-03-08T07:30:00.000Z');
    expect(at('2026-11-01T01:30:00', 'America/New_York')).toBe('2026-11-01T05:30:00.000Z');
    // Southern hemisphere: Sydney falls back on 5 April 2026 at 03:00 AEDT.
    expect(at('2026-04-05T02:30:00', 'Australia/Sydney')).toBe('2026-04-04T15:30:00.000Z');
  });

  it('knows the offsets on either side of a change', () => {
    expect(offsetAt('Europe/Paris', Date.parse('2026-03-29T00:59:59Z'))).toBe(3_600_000);
    expect(offsetAt('Europe/Paris', Date.parse('2026-03-29T01:00:00Z'))).toBe(7_200_000);
    expect(isTimeZone('Europe/Paris')).toBe(true);
    expect(isTimeZone('+01:00')).toBe(false);
  });
});
