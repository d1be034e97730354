import { iso, isoOrNull } from '../../../shared/time.js';
import type { TopicRow } from './topics.table.js';

export const toBackofficeTopic = (row: TopicRow) => ({
  id: row.id,
  key: row.key,
  name: row.name,
  description: row.description,
  inserted_at: iso(row.insertedAt),
  updated_at: iso(row.updatedAt),
  deleted_at: isoOrNull(row.deletedAt),
});

export const toReaderTopic = (row: Pick<TopicRow, 'id' | 'key' | 'name' | 'description' | 'updatedAt'>) => ({
  id: row.id,
  key: row.key,
  name: row.name,
  description: row.description,
  updated_at: iso(row.updatedAt),
});
