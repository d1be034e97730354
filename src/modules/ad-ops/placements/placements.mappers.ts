import { iso } from '../../../shared/time.js';
import type { PlacementRow } from './placements.repository.js';

export const toPlacement = (row: PlacementRow) => ({
  id: row.id,
  ad_id: row.adId,
  target: row.target as 'media' | 'issue',
  issue_id: row.issueId,
  position: row.position,
  inserted_at: iso(row.insertedAt),
});
