import type { Db, Executor } from '../../../db/client.js';
import type { Paginator } from '../../../shared/paging.js';
import { recordService } from '../../../shared/record/index.js';
import { docsErrors } from '../docs.errors.js';
import { contentTypeAggregate } from './content-types.repository.js';
import type { contentTypes } from './content-types.table.js';

/** Content types: the standard record service (list, get, create, update, soft delete, restore) over their aggregate. */
export function createContentTypesService(deps: { db: Db; pager: Paginator }) {
  const records = recordService<typeof contentTypes, typeof contentTypeAggregate.parts>(deps, { agg: contentTypeAggregate, notFound: docsErrors.contentTypeNotFound, conflict: docsErrors.contentTypeKeyTaken });
  return {
    list: records.list,
    get: records.get,
    create: records.create,
    update: records.update,
    remove: records.remove,
    restore: records.restore,
    /** Whether a live content type of the media has this id (templates point at one). */
    exists: async (executor: Executor, mediaId: string, id: string) => Boolean(await contentTypeAggregate.find(executor, id, mediaId)),
  };
}

export type ContentTypesService = ReturnType<typeof createContentTypesService>;
