import type { LoadResult } from './load.js';

/** A scenario's measured row, as the reports read it. */
export interface MeasuredRow {
  name: string;
  result: LoadResult;
  /** CPU time of this process per request of the measured run (the median round's). */
  cpuUsPerRequest: number;
  /** The CPU per request of each round, in round order: every scenario runs once in every round. */
  roundsCpu: number[];
}

/** The middle value (the upper one of an even count). */
export const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * A row's CPU per request against another's (its floor): the median over the rounds of the two
 * measured in the same round, a few seconds apart. The machine's speed drifts between rounds (the
 * same floor measured 980 and 1,980 µs within an hour on this 2-core VM); a ratio of the two rows'
 * medians can pair a fast round of one with a slow round of the other, a round's own pair cannot.
 */
export const cpuRatio = (row: MeasuredRow, floor: MeasuredRow): number =>
  median(row.roundsCpu.map((cpu, i) => cpu / Math.max(floor.roundsCpu[i] ?? floor.cpuUsPerRequest, 1)));

/**
 * Throws unless the floor answers the app's JSON to the letter (same fields in the same order),
 * showing both from a little before the first character where they part.
 */
export function expectSameJson(what: string, floor: unknown, app: unknown): void {
  const [f, a] = [JSON.stringify(floor) ?? 'undefined', JSON.stringify(app) ?? 'undefined'];
  if (f === a) return;
  let at = 0;
  while (at < f.length && f[at] === a[at]) at++;
  const from = Math.max(0, at - 150);
  const around = (s: string) => `${from > 0 ? '…' : ''}${s.slice(from, at + 250)}`;
  throw new Error(`${what}, from character ${at}:\nfloor: ${around(f)}\napp:   ${around(a)}`);
}
