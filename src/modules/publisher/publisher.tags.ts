import type { Tag } from '../../shared/http/route.js';

/** The OpenAPI tags of the publisher module's routes, each described once. */
export const publisherTags = {
  topics: { name: 'Core: Topics', description: 'Subjects readers can follow, unique by key within the media, oldest first.' },
  readerTopics: {
    name: 'Reader: Topics',
    description: 'What readers can follow; subscribing is done under /topics/{id}/subscription.',
  },
  public: { name: 'Public: Publisher', description: 'Deprecated: the menus of a media by key; use the Reader operations.' },
} satisfies Record<string, Tag>;
