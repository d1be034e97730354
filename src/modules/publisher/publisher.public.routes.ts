import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicTwin, successorOf } from '../../shared/http/public.js';
import { route } from '../../shared/http/route.js';
import { idParams, uuid } from '../../shared/schemas.js';
import { announcementsCollection } from './announcements/announcements.js';
import { distributionsCollection } from './distributions/distributions.js';
import { mediaBlocksCollection } from './media-blocks/media-blocks.js';
import { type PublisherRecord, ofOrganization } from './publisher.collection.js';
import { type DeclaredService, recordReaderList } from '../../shared/record/index.js';
import { publicationsCollection } from './publications/publications.js';
import { publisherTags } from './publisher.tags.js';
import { releasesCollection } from './releases/releases.js';
import { rssFeedsCollection } from './rss-feeds/rss-feeds.js';
import { webpagesCollection } from './webpages/webpages.js';

export interface PublisherPublicOptions {
  collections: Record<'announcements' | 'distributions' | 'releases' | 'mediaBlocks' | 'publications' | 'rssFeeds' | 'webpages', DeclaredService>;
  /** The media of a published organization (community's), else its 404. */
  organizationMedia: (id: string) => Promise<string>;
}

const tag = publisherTags.public;
const mediaParams = z.object({ media_id: uuid.describe('The media') });

/**
 * Public (deprecated): the publisher's records by media and by id, RSS feeds, and the records of
 * an organization. Where the Reader has the operation, the Public one is its twin; the other lists
 * take the Reader's list declaration (`collectionListRoute`) under their own path.
 */
export const publisherCollectionsPublicRoutes: FastifyPluginAsyncZod<PublisherPublicOptions> = async (app, { collections, organizationMedia }) => {
  const of = (c: PublisherRecord, service: DeclaredService) => ({ param: 'id', of: (id: string) => service.mediaOf(id, c.reader?.view as never) });

  for (const [c, service] of [
    [announcementsCollection, collections.announcements],
    [distributionsCollection, collections.distributions],
    [releasesCollection, collections.releases],
  ] as const) {
    const { one: One, many: Many } = c.names;
    publicTwin(app, { reader: `readerList${Many}`, url: `/publisher/v2/medias/:media_id${c.reader.path}`, operationId: `publicList${Many}`, media: 'path', tag });
    publicTwin(app, { reader: `readerGet${One}`, url: `/publisher/v2${c.reader.path}/:id`, operationId: `publicGet${One}`, media: of(c, service), tag });
  }
  publicTwin(app, {
    reader: 'readerGetMediaBlock',
    url: '/publisher/v2/blocks/:id',
    operationId: 'publicGetMediaBlock',
    media: of(mediaBlocksCollection, collections.mediaBlocks),
    tag,
  });
  publicTwin(app, {
    reader: 'readerGetRssFeed',
    url: '/publisher/v2/rss/:id',
    operationId: 'publicGetRssFeed',
    media: of(rssFeedsCollection, collections.rssFeeds),
    tag,
  });

  route(app, {
    ...recordReaderList(publicationsCollection, collections.publications, {
      description: 'Deprecated, with no Reader successor: where the media\'s contents went out beside its own site, newest first.',
    }),
    url: '/publisher/v2/medias/:media_id/publications',
    operationId: 'publicListPublications',
    tag,
    access: { anonymous: true },
    params: mediaParams,
    config: { publicMedia: 'path' },
  });

  // Under /core, where the media's feeds were listed; the feeds are publisher's records.
  const feed = successorOf(app, 'readerGetRssFeed');
  route(app, {
    ...recordReaderList(rssFeedsCollection, collections.rssFeeds, {
      description: `Deprecated: the media's RSS feeds, newest first; read each at the Reader operation GET ${feed}.`,
    }),
    url: '/core/v2/medias/:media_id/feeds',
    operationId: 'publicListRssFeeds',
    summary: "The media's RSS feeds",
    tag,
    access: { anonymous: true },
    params: mediaParams,
    config: { successor: feed, publicMedia: 'path' },
  });

  for (const [c, service] of [
    [announcementsCollection, collections.announcements],
    [distributionsCollection, collections.distributions],
    [webpagesCollection, collections.webpages],
  ] as const) {
    const successor = successorOf(app, `readerList${c.names.many}`);
    route(app, {
      ...recordReaderList(c, service, {
        description: `Deprecated: use the Reader operation GET ${successor}. The organization's ${c.plural} that readers see, in the Reader list's order.`,
        filter: ofOrganization(c),
      }),
      url: `/community/v2/organizations/:id${c.path}`,
      operationId: `publicListOrganization${c.names.many}`,
      summary: `An organization's ${c.plural}`,
      tag,
      access: { anonymous: true },
      params: idParams,
      config: { successor, publicMedia: { param: 'id', of: organizationMedia } },
    });
  }
};
