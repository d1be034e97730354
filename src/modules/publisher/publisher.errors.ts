import { errors } from '../../shared/errors.js';

/** Every error the publisher module answers, with its code written out. */
export const publisherErrors = {
  topicNotFound: () => errors.notFound('topic_not_found', 'topic not found'),
  topicExists: () => errors.conflict('topic_exists', 'a topic with this key already exists'),
  /** A display window or a span whose end comes before its start. */
  invalidWindow: (path: string) =>
    errors.validation('the end must come after the start', [{ path, message: 'must be after the start' }]),
  sitemapPageNotFound: () => errors.notFound('sitemap_page_not_found', 'this sitemap has no such page'),
  /** A sitemap (or index) with nothing to list: sitemaps.org's schema wants at least one URL. */
  sitemapNotFound: () => errors.notFound('sitemap_not_found', 'this sitemap has no URL to list'),
  /** Each collection's 404 and 409 (a live record has this key; a restore finds it taken). */
  menu: {
    notFound: () => errors.notFound('menu_not_found', 'menu not found'),
    conflict: () => errors.conflict('menu_key_taken', 'a live menu with this key already exists'),
  },
  mediaBlock: {
    notFound: () => errors.notFound('media_block_not_found', 'media block not found'),
    conflict: () => errors.conflict('media_block_key_taken', 'a live media block with this key already exists'),
  },
  publication: {
    notFound: () => errors.notFound('publication_not_found', 'publication not found'),
    conflict: () => errors.conflict('publication_conflict', 'this publication conflicts with another'),
  },
  rssFeed: {
    notFound: () => errors.notFound('rss_feed_not_found', 'rss feed not found'),
    conflict: () => errors.conflict('rss_feed_key_taken', 'a live rss feed with this key already exists'),
  },
  webpage: {
    notFound: () => errors.notFound('webpage_not_found', 'webpage not found'),
    conflict: () => errors.conflict('webpage_key_taken', 'a live webpage with this key already exists'),
  },
  announcement: {
    notFound: () => errors.notFound('announcement_not_found', 'announcement not found'),
    conflict: () => errors.conflict('announcement_conflict', 'this announcement conflicts with another'),
  },
  release: {
    notFound: () => errors.notFound('release_not_found', 'release not found'),
    conflict: () => errors.conflict('release_conflict', 'this release conflicts with another'),
  },
  distribution: {
    notFound: () => errors.notFound('distribution_not_found', 'distribution not found'),
    conflict: () => errors.conflict('distribution_conflict', 'this distribution conflicts with another'),
  },
};
