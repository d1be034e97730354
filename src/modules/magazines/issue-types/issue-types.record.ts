import { z } from 'zod';
import { aggregate } from '../../../shared/aggregate.js';
import { type RecordDeps, declaredService, defineRecord, named } from '../../../shared/record/index.js';
import { isoTimestamp, recordKey, uuid } from '../../../shared/schemas.js';
import { magazinesErrors } from '../magazines.errors.js';
import { magazinesTags } from '../magazines.tags.js';
import { issueTypes } from './issue-types.table.js';

export const issueTypeAggregate = aggregate(issueTypes, { owner: issueTypes.mediaId, conflict: magazinesErrors.issueTypeKeyTaken, parts: {} });

const fields = { key: recordKey, name: z.string().trim().min(1).max(200) };

/** What kind of issue (monthly, special…): a key and a name, never deleted (issues point at them). */
export const issueTypeRecord = defineRecord({
  ...named('issue type', 'issue types'),
  area: { read: 'magazines:read', write: 'magazines:write' },
  path: '/issue-types',
  tags: { backoffice: magazinesTags.issueTypes },
  agg: issueTypeAggregate,
  schemas: {
    item: z.object({ id: uuid, key: z.string(), name: z.string(), inserted_at: isoTimestamp, updated_at: isoTimestamp }).meta({ id: 'IssueType' }),
    create: z.strictObject(fields).meta({ id: 'IssueTypeCreate' }),
    update: z.strictObject({ key: fields.key.optional(), name: fields.name.optional() }).meta({ id: 'IssueTypeUpdate' }),
  },
  notFound: magazinesErrors.issueTypeNotFound,
  conflict: magazinesErrors.issueTypeKeyTaken,
  only: ['list', 'create', 'get', 'update'],
  docs: {
    list: { description: 'Issue types of the media, newest first.' },
    create: { summary: 'Create an issue type', description: undefined },
    update: { summary: 'Update an issue type', description: 'Fields left out keep their value.' },
  },
});

/** Issue types: the declared record's service (issues ask it whether a type `exists`). */
export function createIssueTypesService(deps: RecordDeps) {
  return declaredService(deps, issueTypeRecord);
}

export type IssueTypesService = ReturnType<typeof createIssueTypesService>;
