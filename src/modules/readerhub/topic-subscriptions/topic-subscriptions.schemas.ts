import { z } from 'zod';
import { isoTimestamp, pagingQuery, uuid } from '../../../shared/schemas.js';
import { readerTopicSchema } from '../../publisher/index.js';

export const topicSubscriptionSchema = z
  .object({
    id: uuid,
    topic: readerTopicSchema,
    inserted_at: isoTimestamp.describe('When the reader subscribed'),
  })
  .meta({ id: 'ReaderTopicSubscription' });

export const topicSubscriptionsQuery = pagingQuery;
