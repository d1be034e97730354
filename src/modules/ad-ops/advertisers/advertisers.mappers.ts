import { iso } from '../../../shared/time.js';
import type { AdvertiserRow } from './advertisers.repository.js';

export const toAdvertiser = (row: AdvertiserRow) => ({
  id: row.id,
  name: row.name,
  contact_email: row.contactEmail,
  website: row.website,
  is_active: row.isActive,
  inserted_at: iso(row.insertedAt),
  updated_at: iso(row.updatedAt),
});
