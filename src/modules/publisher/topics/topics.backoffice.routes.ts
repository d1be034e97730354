import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { backofficeResource } from '../../../shared/http/resource.js';
import { publisherTags } from '../publisher.tags.js';
import { toBackofficeTopic } from './topics.mappers.js';
import { topicCreateBody, topicSchema, topicUpdateBody } from './topics.schemas.js';
import type { TopicsService } from './topics.service.js';
import { topicAggregate } from './topics.repository.js';

/** /publisher/v2/topics: topics readers subscribe to, managed with the publisher's permissions. */
export const topicsBackofficeRoutes: FastifyPluginAsyncZod<{ topics: TopicsService }> = async (app, { topics }) => {
  const resource = backofficeResource(app, {
    path: '/topics',
    kind: 'topic',
    lock: topicAggregate,
    names: { one: 'Topic', many: 'Topics' },
    tag: publisherTags.topics,
    item: topicSchema,
    map: toBackofficeTopic,
    read: 'publisher:read',
    write: 'publisher:write',
  });
  resource.list(
    { summary: 'List topics', description: "Topics of the key's media in the order they were created." },
    topics.list,
  );
  resource.create(
    {
      summary: 'Create a topic',
      description: '`key` is unique within the media: a second topic with the same key is a 409 topic_exists.',
      body: topicCreateBody,
      errors: [409],
    },
    topics.create,
  );
  resource.get({ summary: 'Topic by id' }, topics.get);
  resource.update(
    { summary: 'Update a topic', description: 'Fields left out keep their value; a key a live topic has is a 409.', body: topicUpdateBody, errors: [409] },
    topics.update,
  );
  resource.remove(
    { summary: 'Delete a topic (soft)', description: 'Readers no longer see it nor subscribe to it; restore brings it back.' },
    topics.remove,
  );
  resource.restore(
    { summary: 'Restore a deleted topic', description: 'Idempotent. 409 topic_exists when a live topic took its key meanwhile.', errors: [409] },
    topics.restore,
  );
};
