import { z } from 'zod';
import { profileRecord } from '../profiles/profiles.record.js';

const day = z.iso.date().describe('A calendar date, YYYY-MM-DD');

/** A project: its name and the days it starts and ends. */
export const projectRecord = profileRecord('projects', {
  input: { name: z.string().trim().min(1).max(300), starts_on: day.nullable().optional(), ends_on: day.nullable().optional() },
  wire: { name: z.string(), starts_on: z.string().nullable(), ends_on: z.string().nullable() },
});
