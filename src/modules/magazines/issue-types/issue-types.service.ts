import type { Db, Executor } from '../../../db/client.js';
import type { Paginator } from '../../../shared/paging.js';
import { recordService } from '../../../shared/record/index.js';
import { magazinesErrors } from '../magazines.errors.js';
import { issueTypeAggregate } from './issue-types.repository.js';
import type { issueTypes } from './issue-types.table.js';

/** Issue types: the standard record service (list, get, create, update) over their aggregate. */
export function createIssueTypesService(deps: { db: Db; pager: Paginator }) {
  const records = recordService<typeof issueTypes, typeof issueTypeAggregate.parts>(deps, { agg: issueTypeAggregate, notFound: magazinesErrors.issueTypeNotFound, conflict: magazinesErrors.issueTypeKeyTaken });
  return {
    list: records.list,
    get: records.get,
    create: records.create,
    update: records.update,
    /** Whether an issue type of the media has this id (issues point at one). */
    exists: async (executor: Executor, mediaId: string, id: string) => Boolean(await issueTypeAggregate.find(executor, id, mediaId)),
  };
}

export type IssueTypesService = ReturnType<typeof createIssueTypesService>;
