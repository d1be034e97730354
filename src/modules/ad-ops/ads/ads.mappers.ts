import { iso } from '../../../shared/time.js';
import type { AdRow } from './ads.repository.js';

export const toAd = (row: AdRow) => ({
  id: row.id,
  advertiser_id: row.advertiserId,
  name: row.name,
  priority: row.priority,
  business_reference: row.businessReference,
  category: row.category,
  starts_at: iso(row.startsAt),
  ends_at: iso(row.endsAt),
  timezone: row.timezone,
  inserted_at: iso(row.insertedAt),
  updated_at: iso(row.updatedAt),
});
