import type { LocalesMeta } from '../../../shared/http/reader.js';
import { iso, stamped } from '../../../shared/time.js';
import type { ProfileTypeWithMetadata } from './profile-types.repository.js';
import type { PROFILE_KINDS } from './profile-types.schemas.js';

const flagsOf = (row: ProfileTypeWithMetadata) => ({
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

const fieldsOf = (row: ProfileTypeWithMetadata) => ({
  id: row.id,
  kind: row.kind as (typeof PROFILE_KINDS)[number],
  key: row.key,
  name: row.name,
  ...flagsOf(row),
  // In position order, as the aggregate reads them.
  metadata: row.metadata.map((m) => ({ key: m.key, value: m.value })),
});

export const toProfileType = (row: ProfileTypeWithMetadata) => stamped(fieldsOf(row), row);

/** Reader view (spec 2.5): a profile type has no per-language fields; meta.locales follows the media's. */
export const toReaderProfileType = (row: ProfileTypeWithMetadata, locales: LocalesMeta) => ({
  ...fieldsOf(row),
  meta: { locales },
  updated_at: iso(row.updatedAt),
});
