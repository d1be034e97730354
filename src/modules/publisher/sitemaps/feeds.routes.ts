import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SitemapIndexStream, SitemapStream, streamToPromise } from 'sitemap';
import { z } from 'zod';
import type { Db } from '../../../db/client.js';
import { escapeHtml } from '../../../shared/html.js';
import { sendConditional } from '../../../shared/http/conditional.js';
import { pickLocale } from '../../../shared/http/reader.js';
import { type ContentResponse, type RequestContext, route } from '../../../shared/http/route.js';
import { idParams, locale, queryInt, uuid } from '../../../shared/schemas.js';
import type { CollectionService, FeedContent, PublisherDeps, SitemapLink } from '../publisher.collection.js';
import { publisherErrors } from '../publisher.errors.js';
import { type RssItem, rss2 } from './rss.js';

/** sitemaps.org: at most 50,000 URLs a file; more are split into files the index lists. */
export const SITEMAP_LIMIT = 50_000;
export const SITEMAP_KINDS = ['contents', 'events', 'organizations', 'people', 'projects'] as const;
type SitemapKind = (typeof SITEMAP_KINDS)[number];

const tag = {
  name: 'Reader: Feeds and sitemaps',
  description:
    'RSS 2.0 feeds and sitemaps.org files for feed readers and crawlers: no token, the media from x-service-media-id or ?media_id=, ETag and Last-Modified with 304 to a matching conditional request.',
};

const mediaId = uuid.optional().describe('The media, for clients that send no x-service-media-id header (feed readers, crawlers)');
const xml = (type: string, description: string): ContentResponse => ({ description, content: { [type]: { schema: z.string() } } });
const RSS_TYPE = 'application/rss+xml; charset=utf-8';
const XML_TYPE = 'application/xml; charset=utf-8';
const EMPTY_URLSET = '<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>';
const EMPTY_INDEX = '<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></sitemapindex>';
/** Feeds and sitemaps change with publishing: clients may keep them 5 minutes, then revalidate. */
const MAX_AGE = 300;

const newest = (dates: Array<string | null | undefined>): Date | null => {
  const times = dates.filter((d): d is string => Boolean(d)).map((d) => Date.parse(d));
  return times.length > 0 ? new Date(Math.max(...times)) : null;
};

const isWebUrl = (url: string | null): url is string => url !== null && /^https?:\/\//i.test(url);

export const feedsReaderRoutes: FastifyPluginAsyncZod<{ db: Db; feeds: PublisherDeps['feeds']; rssFeeds: CollectionService }> = async (
  app,
  { db, feeds, rssFeeds },
) => {
  const linksOf = (kind: SitemapKind, media: string, page: { afterId?: string; limit: number }) =>
    kind === 'contents' ? feeds.contentLinks(db, media, page) : feeds.profileLinks(db, media, kind, page);

  /** The files of a kind: each file's links (published records with a web URL), 50,000 at most, walked by id. */
  async function* files(kind: SitemapKind, media: string): AsyncGenerator<SitemapLink[]> {
    let afterId: string | undefined;
    for (;;) {
      const links = await linksOf(kind, media, { ...(afterId && { afterId }), limit: SITEMAP_LIMIT });
      if (links.length === 0) return;
      yield links;
      if (links.length < SITEMAP_LIMIT) return;
      afterId = links.at(-1)!.id;
    }
  }

  const selfUrl = (origin: string, path: string, media: string, extra = '') => `${origin}/api/media/v1${path}?media_id=${media}${extra}`;

  route(app, {
    method: 'GET',
    url: '/rss/:id',
    operationId: 'readerGetRssFeed',
    summary: 'RSS feed by id',
    description:
      "RSS 2.0 of the feed's latest published contents (newest publication first, at most its `limit`), in the asked language by the locale rule.",
    tag,
    access: { anonymous: true, mediaFromQuery: true },
    // RSS links are absolute, under the Public twin too.
    config: { absoluteLinks: true },
    params: idParams,
    querystring: z.object({ media_id: mediaId, locale: locale.optional() }),
    response: { 200: xml('application/rss+xml', 'An RSS 2.0 document') },
    handler: async (ctx: RequestContext, { params, query }, reply) => {
      const req = reply.request;
      const feed = (await rssFeeds.get(ctx, params.id)) as unknown as {
        id: string;
        categoryIds: string[];
        templateIds: string[];
        limit: number;
        updatedAt: string;
        locales: Array<{ locale: string; title: string; description: string | null }>;
      };
      const { entry, meta } = pickLocale(feed.locales, query.locale, req.media.defaultLocale);
      const language = meta.current ?? req.media.defaultLocale;
      const items = await feeds.contents(db, ctx.mediaId, { categoryIds: feed.categoryIds, templateIds: feed.templateIds, limit: feed.limit });
      const self = selfUrl(req.linkOrigin, `/rss/${feed.id}`, ctx.mediaId);
      const updated = newest([feed.updatedAt, ...items.map((i) => i.updatedAt)]);
      const channel = {
        title: escapeHtml(entry?.title ?? ''),
        description: escapeHtml(entry?.description ?? ''),
        link: req.linkOrigin,
        self,
        language,
        updated,
      };
      const body = () => rss2(channel, items.map((item) => feedItem(item, language, req.media.defaultLocale, req.linkOrigin)));
      // The document follows from the feed and its items as read (each content's updated_at moves with any edit):
      // a feed reader's conditional request is answered from them, without writing the XML.
      const version = JSON.stringify([self, feed.updatedAt, language, entry?.locale, items.map((i) => [i.id, i.updatedAt, i.publishedAt])]);
      return sendConditional(req, reply, { body, version, type: RSS_TYPE, lastModified: updated, maxAge: MAX_AGE });
    },
  });

  for (const kind of SITEMAP_KINDS) {
    route(app, {
      method: 'GET',
      url: `/sitemaps/${kind}.xml`,
      operationId: `readerGet${kind[0]!.toUpperCase()}${kind.slice(1)}Sitemap`,
      summary: `Sitemap of ${kind}`,
      description: `The canonical URLs of the published ${kind} with their lastmod, ${SITEMAP_LIMIT.toLocaleString('en')} at most a file: \`page\` (from 1) names the file, as the sitemap index lists them.`,
      tag,
      access: { anonymous: true, mediaFromQuery: true },
      querystring: z.object({ media_id: mediaId, page: queryInt(1, 100_000).optional().describe('The file, from 1 (default)') }),
      response: { 200: xml('application/xml', 'A sitemaps.org urlset') },
      errors: [404],
      handler: async (ctx, { query }, reply) => {
        const page = query.page ?? 1;
        let links: SitemapLink[] = [];
        let n = 0;
        for await (const file of files(kind, ctx.mediaId)) {
          if (++n === page) {
            links = file;
            break;
          }
        }
        if (page > 1 && n < page) throw publisherErrors.sitemapPageNotFound();
        const urls = links.filter((l) => isWebUrl(l.canonicalUrl)).map((l) => ({ url: l.canonicalUrl!, lastmod: l.updatedAt }));
        // The library refuses to end a stream with no URL: a kind with none is an empty urlset.
        const body =
          urls.length === 0
            ? EMPTY_URLSET
            : (await streamToPromise(Readable.from(urls).pipe(new SitemapStream({ xmlns: { news: false, video: false, image: false, xhtml: false } })))).toString();
        return sendConditional(reply.request, reply, { body, type: XML_TYPE, lastModified: newest(links.map((l) => l.updatedAt)), maxAge: MAX_AGE });
      },
    });
  }

  route(app, {
    method: 'GET',
    url: '/sitemaps/index.xml',
    operationId: 'readerGetSitemapIndex',
    summary: 'Sitemap index',
    description: 'Every sitemap file of the media (contents, events, organizations, people, projects; split by 50,000 URLs) with its lastmod.',
    tag,
    access: { anonymous: true, mediaFromQuery: true },
    querystring: z.object({ media_id: mediaId }),
    response: { 200: xml('application/xml', 'A sitemaps.org sitemapindex') },
    handler: async (ctx, _input, reply) => {
      const req = reply.request;
      const entries: Array<{ url: string; lastmod?: string }> = [];
      for (const kind of SITEMAP_KINDS) {
        let n = 0;
        for await (const file of files(kind, ctx.mediaId)) {
          n++;
          const lastmod = newest(file.map((l) => l.updatedAt));
          entries.push({ url: selfUrl(req.linkOrigin, `/sitemaps/${kind}.xml`, ctx.mediaId, n > 1 ? `&page=${n}` : ''), ...(lastmod && { lastmod: lastmod.toISOString() }) });
        }
      }
      const body = entries.length === 0 ? EMPTY_INDEX : (await streamToPromise(Readable.from(entries).pipe(new SitemapIndexStream()))).toString();
      return sendConditional(req, reply, { body, type: XML_TYPE, lastModified: newest(entries.map((e) => e.lastmod)), maxAge: MAX_AGE });
    },
  });
};

/**
 * A content as an RSS item: the feed's language (else the media's default, else any), its canonical URL or its Reader URL;
 * the title is the entry's plain text escaped for HTML, the description its lead as sanitized HTML.
 */
function feedItem(item: FeedContent, language: string, fallback: string, origin: string): RssItem {
  const { entry } = pickLocale(item.locales, language, fallback);
  return {
    title: escapeHtml(entry?.title ?? ''),
    link: isWebUrl(item.canonicalUrl) ? item.canonicalUrl : `${origin}/api/media/v1/contents/${item.id}`,
    guid: item.id,
    published: new Date(item.publishedAt),
    description: entry?.leadHtml ?? null,
  };
}
