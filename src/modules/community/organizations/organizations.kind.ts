import { z } from 'zod';
import { columnsOf, defineKind } from '../profiles/profiles.kind.js';

/** An organization: its name and legal name. */
export const organizationsKind = defineKind({
  kind: 'organizations',
  record: 'organization',
  names: { one: 'Organization', many: 'Organizations' },
  input: { name: z.string().trim().min(1).max(300), legal_name: z.string().trim().min(1).max(300).nullable().optional() },
  wire: { name: z.string(), legal_name: z.string().nullable() },
  columns: columnsOf({ name: 'name', legal_name: 'legalName' }),
  toWire: (r) => ({ name: r.name ?? '', legal_name: r.legalName }),
});
