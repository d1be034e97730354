import { type AggregateRow, aggregate } from '../../../shared/aggregate.js';
import { docsErrors } from '../docs.errors.js';
import { contentTypes } from './content-types.table.js';

export const contentTypeAggregate = aggregate(contentTypes, {
  owner: contentTypes.mediaId,
  conflict: docsErrors.contentTypeKeyTaken,
  parts: {},
});

export type ContentTypeRecord = AggregateRow<typeof contentTypes, typeof contentTypeAggregate.parts>;
