import { errors } from '../../shared/errors.js';

/** Every error the publisher module answers, with its code written out. */
export const publisherErrors = {
  topicNotFound: () => errors.notFound('topic_not_found', 'topic not found'),
  topicExists: () => errors.conflict('topic_exists', 'a topic with this key already exists'),
};
