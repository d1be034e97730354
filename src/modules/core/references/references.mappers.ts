import { iso, isoOrNull } from '../../../shared/time.js';
import type { ReferenceRow } from './references.table.js';

export const toReference = (row: ReferenceRow) => ({
  id: row.id,
  provider: row.provider,
  ref: `${row.provider}:${row.id}`,
  urn: row.urn,
  expires_at: isoOrNull(row.expiresAt),
  inserted_at: iso(row.insertedAt),
  updated_at: iso(row.updatedAt),
});
