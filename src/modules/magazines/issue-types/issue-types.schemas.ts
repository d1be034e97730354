import { z } from 'zod';
import { isoTimestamp, recordKey, uuid } from '../../../shared/schemas.js';

export const issueTypeSchema = z
  .object({ id: uuid, key: z.string(), name: z.string(), inserted_at: isoTimestamp, updated_at: isoTimestamp })
  .meta({ id: 'IssueType' });

const fields = { key: recordKey, name: z.string().trim().min(1).max(200) };

export const issueTypeCreateBody = z.strictObject(fields).meta({ id: 'IssueTypeCreate' });
export const issueTypeUpdateBody = z
  .strictObject({ key: fields.key.optional(), name: fields.name.optional() })
  .meta({ id: 'IssueTypeUpdate' });

export type IssueTypeCreate = z.output<typeof issueTypeCreateBody>;
export type IssueTypeUpdate = z.output<typeof issueTypeUpdateBody>;
