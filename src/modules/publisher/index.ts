import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.js';
import type { Paginator } from '../../shared/paging.js';
import { announcementsCollection } from './announcements/announcements.js';
import { distributionsCollection } from './distributions/distributions.js';
import { mediaBlocksCollection } from './media-blocks/media-blocks.js';
import { menusCollection } from './menus/menus.js';
import { menusPublicRoutes } from './menus/menus.public.routes.js';
import type { PublisherDeps, PublisherRecord } from './publisher.collection.js';
import { declaredServices, recordBackofficeRoutes, recordReaderRoutes } from '../../shared/record/index.js';
import { publicationsCollection } from './publications/publications.js';
import { publisherCollectionsPublicRoutes } from './publisher.public.routes.js';
import { releasesCollection } from './releases/releases.js';
import { rssFeedsCollection } from './rss-feeds/rss-feeds.js';
import { feedsReaderRoutes } from './sitemaps/feeds.routes.js';
import { webpagesCollection } from './webpages/webpages.js';
import { createTopicsService, topicRecord } from './topics/topics.record.js';

export { topics } from './topics/topics.table.js';
export type { TopicRow } from './topics/topics.table.js';
export { type TopicsService, readerTopicSchema, toReaderTopic } from './topics/topics.record.js';
export { publisherTags } from './publisher.tags.js';
export type { PublisherDeps } from './publisher.collection.js';

/** Every publisher collection declared as a record (the standard routes come from the declaration). */
const COLLECTIONS = {
  menus: menusCollection,
  mediaBlocks: mediaBlocksCollection,
  publications: publicationsCollection,
  rssFeeds: rssFeedsCollection,
  webpages: webpagesCollection,
  announcements: announcementsCollection,
  releases: releasesCollection,
  distributions: distributionsCollection,
} satisfies Record<string, PublisherRecord>;

type CollectionName = keyof typeof COLLECTIONS;

export function createPublisherServices(deps: PublisherDeps & { db: Db; pager: Paginator }) {
  return {
    topics: createTopicsService(deps),
    ...declaredServices(deps, COLLECTIONS),
    /** What RSS feeds and sitemaps list, read through the owners' public lookups. */
    feeds: deps.feeds,
  };
}

export type PublisherServices = ReturnType<typeof createPublisherServices>;

/** Publisher's Backoffice: topics under /core/v2 (where they started), the collections under /publisher/v2. */
export const publisherBackofficeRoutes: FastifyPluginAsyncZod<{ publisher: PublisherServices }> = async (app, { publisher }) => {
  await app.register(
    async (scope) => {
      recordBackofficeRoutes(scope, topicRecord, publisher.topics);
      for (const [name, c] of Object.entries(COLLECTIONS)) recordBackofficeRoutes(scope, c, publisher[name as CollectionName]);
    },
    { prefix: '/publisher/v2' },
  );
};

/** Publisher's Reader routes under /api/media/v1. */
export const publisherReaderRoutes: FastifyPluginAsyncZod<{ publisher: PublisherServices }> = async (app, { publisher }) => {
  recordReaderRoutes(app, topicRecord, publisher.topics);
  await app.register(feedsReaderRoutes, { feeds: publisher.feeds, rssFeeds: publisher.rssFeeds });
  for (const [name, c] of Object.entries(COLLECTIONS)) recordReaderRoutes(app, c, publisher[name as CollectionName]);
};

/** Publisher's deprecated Public routes under /api/public: a menu by key, the collections' records, RSS feeds, an organization's records. */
export const publisherPublicRoutes: FastifyPluginAsyncZod<{ publisher: PublisherServices; organizationMedia: (id: string) => Promise<string> }> = async (
  app,
  { publisher, organizationMedia },
) => {
  await app.register(menusPublicRoutes, { menus: publisher.menus });
  await app.register(publisherCollectionsPublicRoutes, { collections: publisher, organizationMedia });
};
