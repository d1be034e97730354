import { z } from 'zod';
import { columnsOf, defineKind } from '../profiles/profiles.kind.js';

const day = z.iso.date().describe('A calendar date, YYYY-MM-DD');

/** A project: its name and the days it starts and ends. */
export const projectsKind = defineKind({
  kind: 'projects',
  record: 'project',
  names: { one: 'Project', many: 'Projects' },
  input: { name: z.string().trim().min(1).max(300), starts_on: day.nullable().optional(), ends_on: day.nullable().optional() },
  wire: { name: z.string(), starts_on: z.string().nullable(), ends_on: z.string().nullable() },
  columns: columnsOf({ name: 'name', starts_on: 'startsOn', ends_on: 'endsOn' }),
  toWire: (r) => ({ name: r.name ?? '', starts_on: r.startsOn, ends_on: r.endsOn }),
});
