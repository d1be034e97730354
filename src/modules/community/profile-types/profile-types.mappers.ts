import { iso } from '../../../shared/time.js';
import type { ProfileTypeRow } from './profile-types.table.js';
import type { PROFILE_KINDS } from './profile-types.schemas.js';

const flagsOf = (row: ProfileTypeRow) => ({
  has_phone: row.hasPhone,
  has_email: row.hasEmail,
  has_bluesky: row.hasBluesky,
  has_linkedin: row.hasLinkedin,
  has_website: row.hasWebsite,
  has_facebook: row.hasFacebook,
  has_twitter: row.hasTwitter,
  has_instagram: row.hasInstagram,
  has_country: row.hasCountry,
  has_state: row.hasState,
  has_city: row.hasCity,
  has_street: row.hasStreet,
  has_location: row.hasLocation,
});

const fieldsOf = (row: ProfileTypeRow) => ({
  id: row.id,
  kind: row.kind as (typeof PROFILE_KINDS)[number],
  key: row.key,
  name: row.name,
  ...flagsOf(row),
  metadata: row.metadata,
});

export const toProfileType = (row: ProfileTypeRow) => ({
  ...fieldsOf(row),
  inserted_at: iso(row.insertedAt),
  updated_at: iso(row.updatedAt),
});

export const toReaderProfileType = (row: ProfileTypeRow, locales: { current: string | null; available: string[] }) => ({
  ...fieldsOf(row),
  meta: { locales },
  updated_at: iso(row.updatedAt),
});
