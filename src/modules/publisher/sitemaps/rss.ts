import type * as fastXmlParser from 'fast-xml-parser';
import { onFirstUse } from '../../../shared/on-first-use.js';

/**
 * RSS 2.0, written with an XML builder that escapes every text and attribute exactly once.
 * Feed readers render an item's title and description (and most the channel's) as HTML once
 * they have decoded the XML: a field is therefore HTML, either plain text escaped for HTML
 * (`escapeHtml` of shared/html) or rich HTML sanitized on write, never the decoded text of rich HTML.
 */
export interface RssChannel {
  /** HTML: escaped plain text. */
  title: string;
  /** HTML: escaped plain text. */
  description: string;
  link: string;
  self: string;
  language: string;
  updated: Date | null;
}

export interface RssItem {
  /** HTML: escaped plain text. */
  title: string;
  link: string;
  guid: string;
  published: Date;
  /** HTML sanitized on write. */
  description?: string | null;
}

// Characters XML 1.0 cannot carry even as references (C0 controls but tab and line ends, lone
// surrogates, U+FFFE/U+FFFF): dropped, or a strict parser refuses the whole feed.
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const xmlText = (text: string) => text.replace(NOT_XML, '');

/** A URL as the WHATWG serializer writes it: quotes, angle brackets and spaces percent-encoded. */
const url = (link: string) => new URL(link).href;

// Made with the first feed, not at start-up.
const xml = onFirstUse<typeof fastXmlParser>('fast-xml-parser');
let made: fastXmlParser.XMLBuilder | undefined;
const builder = () => (made ??= new (xml().XMLBuilder)({ ignoreAttributes: false, attributeNamePrefix: '@', suppressEmptyNode: true }));

export function rss2(channel: RssChannel, items: readonly RssItem[]): string {
  return builder().build({
    '?xml': { '@version': '1.0', '@encoding': 'utf-8' },
    rss: {
      '@version': '2.0',
      '@xmlns:atom': 'http://www.w3.org/2005/Atom',
      channel: {
        title: xmlText(channel.title),
        link: url(channel.link),
        description: xmlText(channel.description),
        lastBuildDate: (channel.updated ?? new Date()).toUTCString(),
        docs: 'https://validator.w3.org/feed/docs/rss2.html',
        generator: 'media-publishing-service',
        language: xmlText(channel.language),
        'atom:link': { '@href': url(channel.self), '@rel': 'self', '@type': 'application/rss+xml' },
        item: items.map((item) => ({
          ...(item.title && { title: xmlText(item.title) }),
          link: url(item.link),
          guid: { '#text': xmlText(item.guid), '@isPermaLink': 'false' },
          pubDate: item.published.toUTCString(),
          ...(item.description && { description: xmlText(item.description) }),
        })),
      },
    },
  }) as string;
}
