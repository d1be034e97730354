import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Executor } from '../../../db/client.js';
import { escapeHtml } from '../../../shared/html.js';
import { sendConditional } from '../../../shared/http/conditional.js';
import { type LocaleFallback, type MediaInfo, fallbackOf, pickLocale } from '../../../shared/http/reader.js';
import { type ContentResponse, type RequestContext, route } from '../../../shared/http/route.js';
import { idParams, locale, queryInt, uuid } from '../../../shared/schemas.js';
import type { DeclaredService, RecordRow } from '../../../shared/record/index.js';
import type { FeedContent, LinkPage, PublisherDeps, SitemapLink } from '../publisher.collection.js';
import { publisherErrors } from '../publisher.errors.js';
import type { rssFeedsCollection } from '../rss-feeds/rss-feeds.js';
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
/** Feeds and sitemaps change with publishing: clients may keep them 5 minutes, then revalidate. */
const MAX_AGE = 300;

const newest = (dates: Array<string | null | undefined>): Date | null => {
  const times = dates.filter((d): d is string => Boolean(d)).map((d) => Date.parse(d));
  return times.length > 0 ? new Date(Math.max(...times)) : null;
};

const isWebUrl = (url: string | null): url is string => url !== null && /^https?:\/\//i.test(url);

/**
 * A record's web address: its own canonical URL, else `<site>/<kind>/<id>` under the website when
 * one is set (site_url carries no query or fragment), else none.
 */
const webUrlOf = (kind: string, record: { id: string; canonicalUrl: string | null }, site: string | null): string | null =>
  isWebUrl(record.canonicalUrl) ? record.canonicalUrl : site ? `${site.replace(/\/+$/, '')}/${kind}/${record.id}` : null;

export const feedsReaderRoutes: FastifyPluginAsyncZod<{ feeds: PublisherDeps['feeds']; rssFeeds: DeclaredService<RecordRow<typeof rssFeedsCollection>> }> = async (
  app,
  { feeds, rssFeeds },
) => {
  const linksOf = (db: Executor, kind: SitemapKind, media: string, page: LinkPage) =>
    kind === 'contents' ? feeds.contentLinks(db, media, page) : feeds.profileLinks(db, media, kind, page);

  /**
   * The files of a kind: each file's links, 50,000 at most, walked by id: the published records with a
   * web URL, which is every one when the media has a website, else those with a canonical URL.
   */
  async function* files(ctx: RequestContext, kind: SitemapKind, media: MediaInfo): AsyncGenerator<SitemapLink[]> {
    let afterId: string | undefined;
    for (;;) {
      const links = await linksOf(ctx.db, kind, media.id, { ...(afterId && { afterId }), limit: SITEMAP_LIMIT, canonicalOnly: !media.siteUrl });
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
      "RSS 2.0 of the feed's latest published contents (newest publication first, at most its `limit`), in the asked language by the locale rule. The channel links to the feed's site_url, else the media's, else the API's origin; an item to its canonical_url, else `<site_url>/contents/<id>`, else its Reader URL. Titles are text escaped for HTML, descriptions the leads' sanitized HTML.",
    tag,
    access: { anonymous: true, mediaFromQuery: true },
    // RSS links are absolute, under the Public twin too.
    config: { absoluteLinks: true },
    params: idParams,
    querystring: z.object({ media_id: mediaId, locale: locale.optional() }),
    response: { 200: xml('application/rss+xml', 'An RSS 2.0 document') },
    handler: async (ctx: RequestContext, { params, query }, reply) => {
      const req = reply.request;
      const feed = await rssFeeds.get(ctx, params.id);
      const { entry, meta } = pickLocale(feed.locales, query.locale, fallbackOf(req.media));
      // The feed's website before the media's; without either, the API's origin as before.
      const site = feed.siteUrl ?? req.media.siteUrl;
      const language = meta.current ?? req.media.defaultLocale;
      const items = await feeds.contents(ctx.db, ctx.mediaId, { categoryIds: feed.categoryIds, templateIds: feed.templateIds, limit: feed.limit });
      const self = selfUrl(req.linkOrigin, `/rss/${feed.id}`, ctx.mediaId);
      const updated = newest([feed.updatedAt, ...items.map((i) => i.updatedAt)]);
      const channel = {
        title: escapeHtml(entry?.title ?? ''),
        description: escapeHtml(entry?.description ?? ''),
        link: site ?? req.linkOrigin,
        self,
        language,
        updated,
      };
      const body = () => rss2(channel, items.map((item) => feedItem(item, { language, fallback: fallbackOf(req.media), origin: req.linkOrigin, site })));
      // The document follows from the feed and its items as read (each content's updated_at moves with any edit):
      // a feed reader's conditional request is answered from them, without writing the XML.
      const version = JSON.stringify([self, site, feed.updatedAt, language, entry?.locale, items.map((i) => [i.id, i.updatedAt, i.publishedAt])]);
      return sendConditional(req, reply, { body, version, type: RSS_TYPE, lastModified: updated, maxAge: MAX_AGE });
    },
  });

  for (const kind of SITEMAP_KINDS) {
    route(app, {
      method: 'GET',
      url: `/sitemaps/${kind}.xml`,
      operationId: `readerGet${kind[0]!.toUpperCase()}${kind.slice(1)}Sitemap`,
      summary: `Sitemap of ${kind}`,
      description: `The web URLs of the published ${kind} with their lastmod, ${SITEMAP_LIMIT.toLocaleString('en')} at most a file: \`page\` (from 1) names the file, as the sitemap index lists them. A record's URL is its canonical_url, else \`<site_url>/${kind}/<id>\` when the media has a site_url (else it is left out). 404 \`sitemap_not_found\` when the media has none to list (a urlset must list at least one), \`sitemap_page_not_found\` past the last file.`,
      tag,
      access: { anonymous: true, mediaFromQuery: true },
      querystring: z.object({ media_id: mediaId, page: queryInt(1, 100_000).optional().describe('The file, from 1 (default)') }),
      response: { 200: xml('application/xml', 'A sitemaps.org urlset') },
      errors: [404],
      handler: async (ctx, { query }, reply) => {
        const media = reply.request.media;
        const page = query.page ?? 1;
        let links: SitemapLink[] = [];
        let n = 0;
        for await (const file of files(ctx, kind, media)) {
          if (++n === page) {
            links = file;
            break;
          }
        }
        if (n < page) throw page === 1 ? publisherErrors.sitemapNotFound() : publisherErrors.sitemapPageNotFound();
        const urls = links.map((l) => ({ url: webUrlOf(kind, l, media.siteUrl)!, lastmod: l.updatedAt }));
        const { SitemapStream, streamToPromise } = await import('sitemap');
        const body = (await streamToPromise(Readable.from(urls).pipe(new SitemapStream({ xmlns: { news: false, video: false, image: false, xhtml: false } })))).toString();
        return sendConditional(reply.request, reply, { body, type: XML_TYPE, lastModified: newest(links.map((l) => l.updatedAt)), maxAge: MAX_AGE });
      },
    });
  }

  route(app, {
    method: 'GET',
    url: '/sitemaps/index.xml',
    operationId: 'readerGetSitemapIndex',
    summary: 'Sitemap index',
    description:
      'Every sitemap file of the media (contents, events, organizations, people, projects; split by 50,000 URLs) with its lastmod; a kind with no URL has no file. 404 `sitemap_not_found` when the media has no file at all (an index must list at least one).',
    tag,
    access: { anonymous: true, mediaFromQuery: true },
    querystring: z.object({ media_id: mediaId }),
    response: { 200: xml('application/xml', 'A sitemaps.org sitemapindex') },
    errors: [404],
    handler: async (ctx, _input, reply) => {
      const req = reply.request;
      const entries: Array<{ url: string; lastmod?: string }> = [];
      for (const kind of SITEMAP_KINDS) {
        let n = 0;
        for await (const file of files(ctx, kind, req.media)) {
          n++;
          const lastmod = newest(file.map((l) => l.updatedAt));
          entries.push({ url: selfUrl(req.linkOrigin, `/sitemaps/${kind}.xml`, ctx.mediaId, n > 1 ? `&page=${n}` : ''), ...(lastmod && { lastmod: lastmod.toISOString() }) });
        }
      }
      if (entries.length === 0) throw publisherErrors.sitemapNotFound();
      const { SitemapIndexStream, streamToPromise } = await import('sitemap');
      const body = (await streamToPromise(Readable.from(entries).pipe(new SitemapIndexStream()))).toString();
      return sendConditional(req, reply, { body, type: XML_TYPE, lastModified: newest(entries.map((e) => e.lastmod)), maxAge: MAX_AGE });
    },
  });
};

/**
 * A content as an RSS item: the feed's language (else the media's default, else any), its web URL (canonical, else
 * under the website) or else its Reader URL; the title is the entry's plain text escaped for HTML, the description
 * its lead as sanitized HTML.
 */
function feedItem(item: FeedContent, at: { language: string; fallback: LocaleFallback; origin: string; site: string | null }): RssItem {
  const { entry } = pickLocale(item.locales, at.language, at.fallback);
  return {
    title: escapeHtml(entry?.title ?? ''),
    link: webUrlOf('contents', item, at.site) ?? `${at.origin}/api/media/v1/contents/${item.id}`,
    guid: item.id,
    published: new Date(item.publishedAt),
    description: describe(entry),
  };
}

/** An item's description: its lead, then its correction notes newest first, each dated (all sanitized HTML on write). */
function describe(entry: FeedContent['locales'][number] | undefined): string | null {
  if (!entry || entry.corrections.length === 0) return entry?.leadHtml ?? null;
  const notes = entry.corrections.map((c) => `<aside class="correction"><p>Correction, ${c.insertedAt.slice(0, 10)}:</p>${c.noteHtml}</aside>`);
  return [entry.leadHtml ?? '', ...notes].join('');
}
