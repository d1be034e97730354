import { z } from 'zod';
import { columnsOf, defineKind } from '../profiles/profiles.kind.js';

const text = (max: number) => z.string().trim().min(1).max(max);

/** A person (spec 2.13): names and pronoun. */
export const peopleKind = defineKind({
  kind: 'people',
  record: 'person',
  names: { one: 'Person', many: 'People' },
  input: {
    first_name: text(200),
    last_name: text(200),
    other_name: text(200).nullable().optional(),
    pronoun: text(50).nullable().optional(),
  },
  wire: { first_name: z.string(), last_name: z.string(), other_name: z.string().nullable(), pronoun: z.string().nullable() },
  columns: columnsOf({ first_name: 'firstName', last_name: 'lastName', other_name: 'otherName', pronoun: 'pronoun' }),
  toWire: (r) => ({ first_name: r.firstName ?? '', last_name: r.lastName ?? '', other_name: r.otherName, pronoun: r.pronoun }),
});
