import { iso } from '../../../shared/time.js';
import type { MediaRow, StatusRow, WorkspaceRow } from './tenancy.table.js';

export const toMedia = (row: MediaRow) => ({
  id: row.id,
  name: row.name,
  default_locale: row.defaultLocale,
  locales: row.locales,
  site_url: row.siteUrl,
  locale_fallbacks: row.localeFallbacks,
  meter: { limit: row.meterLimit, period_days: row.meterPeriodDays },
  inserted_at: iso(row.insertedAt),
  updated_at: iso(row.updatedAt),
});

export const toWorkspace = (row: WorkspaceRow) => ({
  id: row.id,
  media_id: row.mediaId,
  key: row.key,
  name: row.name,
  inserted_at: iso(row.insertedAt),
  updated_at: iso(row.updatedAt),
});

export const toStatus = (row: StatusRow) => ({
  id: row.id,
  key: row.key,
  name: row.name,
  is_published: row.isPublished,
  inserted_at: iso(row.insertedAt),
  updated_at: iso(row.updatedAt),
});
