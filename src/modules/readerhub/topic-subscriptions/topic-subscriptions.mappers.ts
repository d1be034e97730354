import { toReaderTopic } from '../../publisher/index.js';
import { iso } from '../../../shared/time.js';
import type { SubscriptionWithTopic } from './topic-subscriptions.repository.js';

export const toTopicSubscription = (row: SubscriptionWithTopic) => ({
  id: row.id,
  topic: toReaderTopic(row.topic),
  inserted_at: iso(row.insertedAt),
});
