import { iso } from '../../../shared/time.js';
import type { CreativeRow } from './creatives.repository.js';
import type { CREATIVE_KINDS } from './creatives.table.js';

export const creativeMapper = (urlOf: (fileKey: string) => string) => (row: CreativeRow) => ({
  id: row.id,
  ad_id: row.adId,
  name: row.name,
  kind: row.kind as (typeof CREATIVE_KINDS)[number],
  click_url: row.clickUrl,
  alt_text: row.altText,
  width: row.width,
  height: row.height,
  html: row.html,
  image: row.image ? { id: row.image.id, file_key: row.image.file_key, url: urlOf(row.image.file_key), width: row.image.width, height: row.image.height } : null,
  inserted_at: iso(row.insertedAt),
  updated_at: iso(row.updatedAt),
});
