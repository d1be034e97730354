import { aggregate } from '../../../shared/aggregate.js';
import { type RecordDeps, declaredService, defineRecord, describedRecordSchemas, named } from '../../../shared/record/index.js';
import { docsErrors } from '../docs.errors.js';
import { docsTags } from '../docs.tags.js';
import { contentTypes } from './content-types.table.js';

export const contentTypeAggregate = aggregate(contentTypes, { owner: contentTypes.mediaId, conflict: docsErrors.contentTypeKeyTaken, parts: {} });

const schemas = describedRecordSchemas({ record: 'ContentType', create: 'ContentTypeCreate', update: 'ContentTypeUpdate' });

/** A kind of content (article, live blog, recipe): a key, a name and a description; templates belong to one. */
export const contentTypeRecord = defineRecord({
  ...named('content type', 'content types'),
  area: { read: 'docs:read', write: 'docs:write' },
  path: '/content-types',
  tags: { backoffice: docsTags.contentTypes },
  agg: contentTypeAggregate,
  schemas: { item: schemas.record, create: schemas.create, update: schemas.update },
  notFound: docsErrors.contentTypeNotFound,
  conflict: docsErrors.contentTypeKeyTaken,
  docs: {
    list: { description: 'Live content types of the media, newest first.' },
    create: { description: undefined },
    update: { description: 'Fields left out keep their value.' },
    remove: { summary: 'Remove a content type (soft)', description: undefined },
    restore: { summary: 'Restore a removed content type', description: 'Idempotent; 409 when a live type has taken its key meanwhile.' },
  },
});

/** Content types: the declared record's service (templates ask it whether a type `exists`). */
export function createContentTypesService(deps: RecordDeps) {
  return declaredService(deps, contentTypeRecord);
}

export type ContentTypesService = ReturnType<typeof createContentTypesService>;
