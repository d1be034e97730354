import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { backofficeResource } from '../../../shared/http/resource.js';
import { iso } from '../../../shared/time.js';
import { magazinesTags } from '../magazines.tags.js';
import type { IssueTypeRecord } from './issue-types.repository.js';
import { issueTypeCreateBody, issueTypeSchema, issueTypeUpdateBody } from './issue-types.schemas.js';
import type { IssueTypesService } from './issue-types.service.js';
import { issueTypeAggregate } from './issue-types.repository.js';

const toIssueType = (row: IssueTypeRecord) => ({
  id: row.id,
  key: row.key,
  name: row.name,
  inserted_at: iso(row.insertedAt),
  updated_at: iso(row.updatedAt),
});

export const issueTypesBackofficeRoutes: FastifyPluginAsyncZod<{ issueTypes: IssueTypesService }> = async (app, { issueTypes }) => {
  const resource = backofficeResource(app, {
    path: '/issue-types',
    kind: 'issue_type',
    lock: issueTypeAggregate,
    names: { one: 'IssueType', many: 'IssueTypes' },
    tag: magazinesTags.issueTypes,
    item: issueTypeSchema,
    map: toIssueType,
    read: 'magazines:read',
    write: 'magazines:write',
  });
  resource.list({ summary: 'List issue types', description: 'Issue types of the media, newest first.' }, issueTypes.list);
  resource.create({ summary: 'Create an issue type', body: issueTypeCreateBody, errors: [409] }, issueTypes.create);
  resource.get({ summary: 'Issue type by id' }, issueTypes.get);
  resource.update(
    { summary: 'Update an issue type', description: 'Fields left out keep their value.', body: issueTypeUpdateBody, errors: [409] },
    issueTypes.update,
  );
};
