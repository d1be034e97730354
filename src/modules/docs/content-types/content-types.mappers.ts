import { iso, isoOrNull } from '../../../shared/time.js';
import type { ContentTypeRecord } from './content-types.repository.js';

export const toContentType = (row: ContentTypeRecord) => ({
  id: row.id,
  key: row.key,
  name: row.name,
  description: row.description,
  inserted_at: iso(row.insertedAt),
  updated_at: iso(row.updatedAt),
  deleted_at: isoOrNull(row.deletedAt),
});
