import { z } from 'zod';
import { profileRecord } from '../profiles/profiles.record.js';

/** An organization: its name and legal name. */
export const organizationRecord = profileRecord('organizations', {
  input: { name: z.string().trim().min(1).max(300), legal_name: z.string().trim().min(1).max(300).nullable().optional() },
  wire: { name: z.string(), legal_name: z.string().nullable() },
});
