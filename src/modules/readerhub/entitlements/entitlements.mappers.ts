import { iso, isoOrNull } from '../../../shared/time.js';
import type { EntitlementView } from './entitlements.repository.js';

/** What the reader sees of their own entitlement. */
export const toReaderEntitlement = (row: EntitlementView) => ({
  id: row.id,
  product_key: row.productKey,
  status: row.status,
  starts_at: iso(row.startsAt),
  ends_at: isoOrNull(row.endsAt),
  revoked_at: isoOrNull(row.revokedAt),
  inserted_at: iso(row.insertedAt),
  updated_at: iso(row.updatedAt),
});

export const toBackofficeEntitlement = (row: EntitlementView) => ({
  ...toReaderEntitlement(row),
  reader_id: row.readerId,
});
