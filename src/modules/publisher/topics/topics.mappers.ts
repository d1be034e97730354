import { toDescribedRecord } from '../../../shared/record/index.js';
import { iso } from '../../../shared/time.js';
import type { TopicRow } from './topics.table.js';

/** A topic on the Backoffice wire: the shared described-record shape. */
export const toBackofficeTopic = toDescribedRecord;

export const toReaderTopic = (row: Pick<TopicRow, 'id' | 'key' | 'name' | 'description' | 'updatedAt'>) => ({
  id: row.id,
  key: row.key,
  name: row.name,
  description: row.description,
  updated_at: iso(row.updatedAt),
});
