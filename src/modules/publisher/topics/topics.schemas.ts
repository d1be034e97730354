import { z } from 'zod';
import { isoTimestamp, recordKey, uuid } from '../../../shared/schemas.js';

const topicKey = recordKey.describe('Stable handle, unique within the media (used for push channels and feeds)');

export const topicSchema = z
  .object({
    id: uuid,
    key: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    inserted_at: isoTimestamp,
    updated_at: isoTimestamp,
    deleted_at: isoTimestamp.nullable(),
  })
  .meta({ id: 'Topic' });

export const topicCreateBody = z
  .strictObject({
    key: topicKey,
    name: z.string().trim().min(1).max(200),
    description: z.string().max(2000).nullable().optional(),
  })
  .meta({ id: 'TopicCreate' });

export const readerTopicSchema = z
  .object({
    id: uuid,
    key: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    updated_at: isoTimestamp,
  })
  .meta({ id: 'ReaderTopic' });

export const topicUpdateBody = z
  .strictObject({
    key: topicKey.optional(),
    name: z.string().trim().min(1).max(200).optional(),
    description: z.string().max(2000).nullable().optional(),
  })
  .meta({ id: 'TopicUpdate' });

export type TopicCreate = z.output<typeof topicCreateBody>;
export type TopicUpdate = z.output<typeof topicUpdateBody>;
