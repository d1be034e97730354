import { iso } from '../../../shared/time.js';
import type { ReaderInvitationRow } from './invitations.table.js';

export const toBackofficeInvitation = (row: ReaderInvitationRow, now = new Date()) => ({
  id: row.id,
  email: row.email,
  product_key: row.productKey,
  status: row.expiresAt.getTime() <= now.getTime() ? ('expired' as const) : ('pending' as const),
  expires_at: iso(row.expiresAt),
  inserted_at: iso(row.insertedAt),
  updated_at: iso(row.updatedAt),
});

export const toReaderInvitation = (row: ReaderInvitationRow) => ({
  id: row.id,
  email: row.email,
  product_key: row.productKey,
  expires_at: iso(row.expiresAt),
});
