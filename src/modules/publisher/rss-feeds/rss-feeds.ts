import { z } from 'zod';
import { aggregate, part } from '../../../shared/aggregate.js';
import { recordSchemas } from '../../../shared/record/index.js';
import { siteUrl, uuid } from '../../../shared/schemas.js';
import { type PublisherRecord, keyInput, publisherRecord, reference } from '../publisher.collection.js';
import { publisherErrors } from '../publisher.errors.js';
import { rssFeedLocales, rssFeeds } from './rss-feeds.table.js';

export const rssFeedAggregate = aggregate(rssFeeds, {
  owner: rssFeeds.mediaId,
  conflict: publisherErrors.rssFeed.conflict,
  parts: {
    locales: part(rssFeedLocales, { parent: rssFeedLocales.recordId, match: ['locale'], columns: ['id', 'locale', 'title', 'description', 'deletedAt'] }),
  },
});

const ids = (what: string) =>
  z
    .array(uuid)
    .max(100)
    .refine((list) => new Set(list).size === list.length, { message: 'each id may appear only once' })
    .describe(`Only contents with one of these ${what} (none: any)`);

/** What an RSS feed lists: the latest published contents, of some categories or templates, at most `limit`. */
export const rssFeedsCollection = {
  agg: rssFeedAggregate,
  schemas: recordSchemas('RssFeed', {
    fields: {
      key: z.string(),
      category_ids: z.array(uuid),
      template_ids: z.array(uuid),
      limit: z.int(),
      site_url: z.string().nullable().describe("This feed's website, which wins over the media's site_url (null: the media's)"),
    },
    input: {
      key: keyInput,
      category_ids: ids('categories').optional(),
      template_ids: ids('templates').optional(),
      limit: z.int().min(1).max(100).optional().describe('How many contents the feed lists, newest first (default 20)'),
      site_url: siteUrl
        .nullable()
        .optional()
        .describe("This feed's website, which wins over the media's site_url: the channel link and the base of its items' links (absolute http(s), no query or fragment)"),
    },
    locale: { title: z.string(), description: z.string().nullable() },
    localeInput: { title: z.string().trim().min(1).max(200), description: z.string().max(2000).nullable().optional() },
  }),
  ...publisherRecord('/rss-feeds', 'rss feed', 'rss feeds', publisherErrors.rssFeed),
  notes: {
    create: 'Readers fetch it as RSS 2.0 at GET /api/media/v1/rss/{id}. category_ids and template_ids name live records of the media (404 otherwise).',
  },
  references: [reference('categories', 'category_ids'), reference('templates', 'template_ids')],
} satisfies PublisherRecord;
