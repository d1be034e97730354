import { iso, isoOrNull } from '../../../shared/time.js';
import type { ApiKeyRow } from './api-keys.table.js';
import type { Role } from '../../../shared/permissions.js';

export const toApiKey = (row: ApiKeyRow) => ({
  id: row.id,
  name: row.name,
  role: row.role as Role,
  prefix: row.keyPrefix,
  last_used_at: isoOrNull(row.lastUsedAt),
  expires_at: isoOrNull(row.expiresAt),
  revoked_at: isoOrNull(row.revokedAt),
  inserted_at: iso(row.insertedAt),
  updated_at: iso(row.updatedAt),
});
