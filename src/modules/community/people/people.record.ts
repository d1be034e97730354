import { z } from 'zod';
import { profileRecord } from '../profiles/profiles.record.js';

const text = (max: number) => z.string().trim().min(1).max(max);

/** A person (spec 2.13): names and pronoun. */
export const personRecord = profileRecord('people', {
  input: {
    first_name: text(200),
    last_name: text(200),
    other_name: text(200).nullable().optional(),
    pronoun: text(50).nullable().optional(),
  },
  wire: { first_name: z.string(), last_name: z.string(), other_name: z.string().nullable(), pronoun: z.string().nullable() },
});
