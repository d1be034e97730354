import { z } from 'zod';
import { type AggregateRow, aggregate } from '../../../shared/aggregate.js';
import { oldestFirst } from '../../../shared/paging.js';
import { type RecordDeps, declaredService, defineRecord, describedRecordSchemas, named } from '../../../shared/record/index.js';
import { isoTimestamp, recordKey, uuid } from '../../../shared/schemas.js';
import { iso } from '../../../shared/time.js';
import { publisherErrors } from '../publisher.errors.js';
import { publisherTags } from '../publisher.tags.js';
import { type TopicRow, topics } from './topics.table.js';

export const topicAggregate = aggregate(topics, { owner: topics.mediaId, conflict: publisherErrors.topicExists, parts: {} });

export type TopicRecord = AggregateRow<typeof topics, typeof topicAggregate.parts>;

const schemas = describedRecordSchemas(
  { record: 'Topic', create: 'TopicCreate', update: 'TopicUpdate' },
  recordKey.describe('Stable handle, unique within the media (used for push channels and feeds)'),
);

export const readerTopicSchema = z
  .object({ id: uuid, key: z.string(), name: z.string(), description: z.string().nullable(), updated_at: isoTimestamp })
  .meta({ id: 'ReaderTopic' });

/** A topic as readers see it (readerhub's subscriptions name theirs with it). */
export const toReaderTopic = (row: Pick<TopicRow, 'id' | 'key' | 'name' | 'description'> & { updatedAt: Date | string }) => ({
  id: row.id,
  key: row.key,
  name: row.name,
  description: row.description,
  updated_at: iso(row.updatedAt),
});

/** Subjects readers can follow; following is readerhub's business (POST /topics/{id}/subscription). */
export const topicRecord = defineRecord({
  ...named('topic', 'topics'),
  area: { read: 'publisher:read', write: 'publisher:write' },
  path: '/topics',
  tags: { backoffice: publisherTags.topics, reader: publisherTags.readerTopics },
  agg: topicAggregate,
  schemas: { item: schemas.record, create: schemas.create, update: schemas.update, reader: readerTopicSchema },
  notFound: publisherErrors.topicNotFound,
  conflict: publisherErrors.topicExists,
  // A short editorial list, served in the order it was made: topics_media_page_idx's (media_id, inserted_at, id).
  order: { name: 'oldest', keyset: oldestFirst(topics) as never },
  docs: {
    list: { description: "Topics of the key's media in the order they were created." },
    create: { description: '`key` is unique within the media: a second topic with the same key is a 409 topic_exists.' },
    update: { description: 'Fields left out keep their value; a key a live topic has is a 409.' },
    remove: { description: 'Readers no longer see it nor subscribe to it; restore brings it back.' },
    restore: { description: 'Idempotent. 409 topic_exists when a live topic took its key meanwhile.' },
  },
  reader: {
    path: '/topics',
    list: 'Topics of the media in the order they were created; subscribe with POST /topics/{id}/subscription.',
    by: false,
    locales: false,
  },
});

/** Topics: the declared record's service (readerhub's subscriptions follow its topics, typed by its aggregate). */
export function createTopicsService(deps: RecordDeps) {
  return declaredService(deps, topicRecord);
}

export type TopicsService = ReturnType<typeof createTopicsService>;
