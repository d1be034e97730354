import { iso, isoOrNull } from '../../../shared/time.js';
import type { SubscriptionStatus } from './subscriptions.schemas.js';
import type { SubscriptionRow } from './subscriptions.repository.js';

export const toReaderSubscription = (row: SubscriptionRow) => ({
  id: row.id,
  mailing_list_id: row.mailingListId,
  email: row.email,
  locale: row.locale,
  status: row.status as SubscriptionStatus,
  inserted_at: iso(row.insertedAt),
  updated_at: iso(row.updatedAt),
  confirmed_at: isoOrNull(row.confirmedAt),
});

export const toSubscription = (row: SubscriptionRow) => ({ ...toReaderSubscription(row), reader_id: row.readerId });
