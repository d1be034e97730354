import { type AggregateRow, aggregate } from '../../../shared/aggregate.js';
import { magazinesErrors } from '../magazines.errors.js';
import { issueTypes } from './issue-types.table.js';

export const issueTypeAggregate = aggregate(issueTypes, {
  owner: issueTypes.mediaId,
  conflict: magazinesErrors.issueTypeKeyTaken,
  parts: {},
});

export type IssueTypeRecord = AggregateRow<typeof issueTypes, typeof issueTypeAggregate.parts>;
