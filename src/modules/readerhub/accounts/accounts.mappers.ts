import { iso } from '../../../shared/time.js';
import type { Scope } from '../../../shared/scopes.js';
import type { ProfileWithMetadata } from './accounts.repository.js';
import type { ReaderRow } from './accounts.table.js';

/** The account as the reader and the Backoffice see it. */
export const toReaderAccount = (row: ReaderRow) => ({
  id: row.id,
  provider_id: row.providerId,
  sub: row.sub,
  email: row.email,
  name: row.name,
  inserted_at: iso(row.insertedAt),
  updated_at: iso(row.updatedAt),
});

export const toUserInfo = (row: ReaderRow, scopes: Scope[]) => ({ ...toReaderAccount(row), scopes });

export const toReaderProfile = (row: ProfileWithMetadata) => ({
  id: row.id,
  first_name: row.firstName,
  last_name: row.lastName,
  other_name: row.otherName,
  pronoun: row.pronoun,
  profile_image_key: row.profileImageKey,
  metadata: row.metadata,
  inserted_at: iso(row.insertedAt),
  updated_at: iso(row.updatedAt),
});
