import type { z } from 'zod';
import type { ProfileKind } from './profiles.kinds.js';
import type { profiles } from './profiles.table.js';

type Columns = Partial<typeof profiles.$inferInsert>;
/** The root row as reads give it (timestamps as wire text). */
export interface KindRow {
  firstName: string | null;
  lastName: string | null;
  otherName: string | null;
  pronoun: string | null;
  name: string | null;
  legalName: string | null;
  startsOn: string | null;
  endsOn: string | null;
  capacity: number | null;
  registrationOpen: boolean | null;
  timeZone: string | null;
}

/**
 * What one kind adds to the shared profile: its own fields on create (required ones as
 * required), on the wire, and how they map to the profile row's columns. The routes, parts and
 * services are the same for every kind.
 */
export interface KindDef<I extends z.ZodRawShape = z.ZodRawShape, W extends z.ZodRawShape = z.ZodRawShape> {
  kind: ProfileKind;
  /** The record's kind on the wire (webhook events, audit entries, Surrogate-Key): `person`. */
  record: string;
  /** OpenAPI and operationId names: `Person` / `People`. */
  names: { one: string; many: string };
  input: I;
  wire: W;
  /** The columns of the fields present in `input` (a PATCH sends some). */
  columns: (input: Record<string, unknown>) => Columns;
  toWire: (row: KindRow) => z.input<z.ZodObject<W>>;
}

export const defineKind = <I extends z.ZodRawShape, W extends z.ZodRawShape>(def: KindDef<I, W>): KindDef<I, W> => def;

/** The column values of the fields a body carries, by a field → column map. */
export const columnsOf =
  (map: Record<string, keyof Columns>) =>
  (input: Record<string, unknown>): Columns =>
    Object.fromEntries(Object.entries(map).filter(([field]) => input[field] !== undefined).map(([field, col]) => [col, input[field]]));
