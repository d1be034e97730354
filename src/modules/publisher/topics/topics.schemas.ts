import { z } from 'zod';
import { describedRecordSchemas } from '../../../shared/record/index.js';
import { isoTimestamp, recordKey, uuid } from '../../../shared/schemas.js';

const topicKey = recordKey.describe('Stable handle, unique within the media (used for push channels and feeds)');

const schemas = describedRecordSchemas({ record: 'Topic', create: 'TopicCreate', update: 'TopicUpdate' }, topicKey);
export const topicSchema = schemas.record;
export const topicCreateBody = schemas.create;
export const topicUpdateBody = schemas.update;

export const readerTopicSchema = z
  .object({
    id: uuid,
    key: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    updated_at: isoTimestamp,
  })
  .meta({ id: 'ReaderTopic' });

export type TopicCreate = z.output<typeof topicCreateBody>;
export type TopicUpdate = z.output<typeof topicUpdateBody>;
