import { sql } from 'drizzle-orm';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { parseDocument } from 'htmlparser2';
import RssParser from 'rss-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { expectError } from '../../setup/expect.js';
import { communityFixture, createProfile } from '../../setup/community.js';
import { type DocsFixture, createContent, docsFixture, short } from '../../setup/docs.js';
import { type Client, type SeededMedia, client, createCategory, seedMedia } from '../../setup/factories.js';
import { xmllintErrors } from '../../setup/xml.js';
import { escapeHtml } from '../../../src/shared/html.js';

let ctx: TestContext;
let media: SeededMedia;
let editor: Client;
let fixture: DocsFixture;

const ORIGIN = 'https://api.example.test';
const TRICKY = 'Tom & Jerry <3 🎉';

beforeAll(async () => {
  ctx = await createTestApp({ publicBaseUrl: ORIGIN });
  media = await seedMedia(ctx.app);
  editor = client(ctx.app, media.keys.editor);
  fixture = await docsFixture(editor, media.workspaceId);
});
afterAll(() => ctx?.close());

const parser = new XMLParser({ ignoreAttributes: false, parseTagValue: false, isArray: (name) => ['item', 'url', 'sitemap'].includes(name) });
/** Validates the document, then parses it. */
const parse = (body: string) => {
  expect(XMLValidator.validate(body)).toBe(true);
  return parser.parse(body);
};
/** A feed reader or a crawler: no header, the media in the query. */
const anonymous = (url: string, headers: Record<string, string> = {}) => ctx.app.inject({ method: 'GET', url, headers });

async function createFeed(body: Record<string, unknown> = {}) {
  const res = await editor.post('/publisher/v2/rss-feeds', { key: `feed-${short()}`, locales: [{ locale: 'en', title: TRICKY, description: 'All <b>the</b> news & more' }], ...body });
  if (res.statusCode !== 201) throw new Error(`createFeed: ${res.statusCode} ${res.body}`);
  return res.json().data as { id: string; key: string; limit: number; category_ids: string[]; updated_at: string };
}

describe('RSS feeds', () => {
  it('answers RSS 2.0 of the latest published contents, text escaped for HTML, leads as sanitized HTML, an emoji kept; only published ones, newest first, at most limit', async () => {
    const category = await createCategory(editor);
    const older = await createContent(editor, fixture, {
      canonical_url: 'https://news.example.com/a?x=1&y=2',
      published_at: new Date(Date.now() - 3_600_000).toISOString(),
      locales: [{ locale: 'en', title_html: 'Tom &amp; Jerry &lt;3 🎉', lead_html: '<p>Lead &amp; more</p>' }],
      content_categories: [{ category_id: category.id }],
    });
    const newer = await createContent(editor, fixture, { content_categories: [{ category_id: category.id }], locales: [{ locale: 'en', title_html: 'Newest' }] });
    await createContent(editor, fixture, { status_id: fixture.statuses.draft, content_categories: [{ category_id: category.id }] });
    await createContent(editor, fixture, { published_at: new Date(Date.now() + 3_600_000).toISOString(), content_categories: [{ category_id: category.id }] });
    await createContent(editor, fixture); // another category: not in the feed
    const feed = await createFeed({ category_ids: [category.id], limit: 5 });

    const res = await anonymous(`/api/media/v1/rss/${feed.id}?media_id=${media.mediaId}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    // Text escaped for HTML (&amp;), then for XML (&amp;amp;): a feed reader decodes the XML to HTML that shows the text.
    expect(res.body).toContain('Tom &amp;amp; Jerry &amp;lt;3 🎉');
    const doc = parse(res.body);
    expect(doc.rss['@_version']).toBe('2.0');
    const channel = doc.rss.channel;
    expect(channel.title).toBe('Tom &amp; Jerry &lt;3 🎉');
    expect(channel.description).toBe('All &lt;b&gt;the&lt;/b&gt; news &amp; more');
    expect(channel.language).toBe('en');
    expect(channel.link).toBe(`${ORIGIN}/`);
    expect(channel.item.map((i: { title: string }) => i.title)).toEqual(['Newest', 'Tom &amp; Jerry &lt;3 🎉']);
    const [first, second] = channel.item;
    expect(first.link).toBe(`${ORIGIN}/api/media/v1/contents/${newer.id}`);
    expect(second).toMatchObject({ link: 'https://news.example.com/a?x=1&y=2', description: '<p>Lead &amp; more</p>' });
    expect(JSON.stringify(second.guid)).toContain(older.id);
    expect(new Date(second.pubDate).toISOString().slice(0, 16)).toBe(older.published_at!.slice(0, 16));

    // The header names the media as well as the query does.
    expect((await anonymous(`/api/media/v1/rss/${feed.id}`, { 'x-service-media-id': media.mediaId })).body).toBe(res.body);
  });

  it('answers ETag and Last-Modified, 304 to a matching If-None-Match or If-Modified-Since, 200 again after a change', async () => {
    const feed = await createFeed({ template_ids: [fixture.templateId] });
    await createContent(editor, fixture);
    const url = `/api/media/v1/rss/${feed.id}?media_id=${media.mediaId}`;
    const first = await anonymous(url);
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[0-9a-f]{16}"$/);
    const lastModified = first.headers['last-modified'] as string;
    expect(new Date(lastModified).toUTCString()).toBe(lastModified);

    const cached = await anonymous(url, { 'if-none-match': etag });
    expect(cached.statusCode).toBe(304);
    expect(cached.body).toBe('');
    expect(cached.headers.etag).toBe(etag);
    expect((await anonymous(url, { 'if-none-match': `"other", W/${etag}` })).statusCode).toBe(304);
    expect((await anonymous(url, { 'if-modified-since': lastModified })).statusCode).toBe(304);
    expect((await anonymous(url, { 'if-modified-since': new Date(Date.parse(lastModified) - 60_000).toUTCString() })).statusCode).toBe(200);
    expect((await anonymous(url, { 'if-none-match': '"stale"' })).statusCode).toBe(200);

    const breaking = await createContent(editor, fixture, { locales: [{ locale: 'en', title_html: 'Breaking' }] });
    const changed = await anonymous(url, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(parse(changed.body).rss.channel.item[0].title).toBe('Breaking');

    // An edited title is a new document too.
    expect((await editor.patch(`/docs/v2/contents/${breaking.id}`, { locales: [{ locale: 'en', title_html: 'Breaking, updated' }] })).statusCode).toBe(200);
    const edited = await anonymous(url, { 'if-none-match': changed.headers.etag as string });
    expect(edited.statusCode).toBe(200);
    expect(parse(edited.body).rss.channel.item[0].title).toBe('Breaking, updated');
  });

  it('answers 404 for an unknown, deleted or foreign feed, 400 without any media, 404 for an unknown media', async () => {
    const feed = await createFeed();
    const other = await seedMedia(ctx.app);
    expectError(await anonymous(`/api/media/v1/rss/${feed.id}?media_id=${other.mediaId}`), 404, 'rss_feed_not_found');
    expectError(await anonymous(`/api/media/v1/rss/${feed.id}`), 400, 'missing_media_id');
    expectError(await anonymous(`/api/media/v1/rss/${feed.id}?media_id=nope`), 400, 'invalid_media_id');
    expectError(await anonymous(`/api/media/v1/rss/${feed.id}?media_id=${crypto.randomUUID()}`), 404, 'media_not_found');
    await editor.delete(`/publisher/v2/rss-feeds/${feed.id}`);
    expectError(await anonymous(`/api/media/v1/rss/${feed.id}?media_id=${media.mediaId}`), 404, 'rss_feed_not_found');
  });

  it('checks the categories and templates a feed names (404 naming the field), and its limit (1..100)', async () => {
    const missing = crypto.randomUUID();
    const res = await editor.post('/publisher/v2/rss-feeds', { key: `f-${short()}`, category_ids: [missing], locales: [{ locale: 'en', title: 'X' }] });
    expect(expectError(res, 404, 'category_not_found').details).toEqual([{ path: 'category_ids.0', message: 'is not a live record of this media' }]);
    expectError(await editor.post('/publisher/v2/rss-feeds', { key: `f-${short()}`, template_ids: [missing], locales: [{ locale: 'en', title: 'X' }] }), 404, 'template_not_found');
    for (const limit of [0, 101, 1.5]) {
      expectError(await editor.post('/publisher/v2/rss-feeds', { key: `f-${short()}`, limit, locales: [{ locale: 'en', title: 'X' }] }), 400, 'validation_failed');
    }
    const feed = await createFeed();
    expect(feed).toMatchObject({ limit: 20, category_ids: [] });
    expect((await editor.patch(`/publisher/v2/rss-feeds/${feed.id}`, { limit: 3 })).json().data).toMatchObject({ limit: 3, category_ids: [] });
  });
});

/** Text an editor may type anywhere: markup, markup already escaped, CDATA ends, quotes, ampersands, handlers. */
const HOSTILE = `<script>alert(1)</script> &lt;script&gt;alert(2)&lt;/script&gt; <img src=x onerror=alert(3)> ]]> ]]]]> "dq" 'sq' & &amp; x onerror=alert(4)`;
/** The RSS elements the service writes; anything else in a feed (an element the text smuggled in) fails. */
const RSS_ELEMENTS = new Set(['rss', 'channel', 'title', 'link', 'description', 'lastBuildDate', 'docs', 'generator', 'language', 'atom:link', 'item', 'guid', 'pubDate']);

interface HtmlNode {
  type: string;
  name?: string;
  attribs?: Record<string, string>;
  data?: string;
  children?: HtmlNode[];
}
/** A decoded field as a feed reader's HTML renderer sees it: its elements (name and attributes) and its text. */
function asHtml(value: string) {
  const elements: Array<{ name: string; attribs: Record<string, string> }> = [];
  let text = '';
  const walk = (nodes: HtmlNode[]) => {
    for (const node of nodes) {
      if (node.type === 'text') text += node.data;
      else if (node.name) elements.push({ name: node.name, attribs: node.attribs ?? {} });
      if (node.children) walk(node.children);
    }
  };
  walk(parseDocument(value).children as HtmlNode[]);
  return { elements, text };
}

/** Every element and attribute of a parsed feed, with its decoded text: `rss.channel.item.title`, `…atom:link@href`. */
function fieldsOf(node: unknown, path: string, out: Array<{ path: string; value: string }> = []) {
  if (typeof node === 'string') out.push({ path, value: node });
  else if (Array.isArray(node)) for (const child of node) fieldsOf(child, path, out);
  else if (node && typeof node === 'object') {
    for (const [key, child] of Object.entries(node)) {
      if (key.startsWith('@_')) out.push({ path: `${path}@${key.slice(2)}`, value: child as string });
      else if (key === '#text') out.push({ path, value: child as string });
      else {
        if (key !== '?xml') expect(RSS_ELEMENTS.has(key), `element <${key}> at ${path}`).toBe(true);
        fieldsOf(child, path ? `${path}.${key}` : key, out);
      }
    }
  }
  return out;
}

/** Values exactly as written: a sanitized lead may start with a space. */
const untrimmed = new XMLParser({ ignoreAttributes: false, parseTagValue: false, trimValues: false, isArray: (name) => name === 'item' });

describe('RSS escaping', () => {
  it('writes plain text as escaped text and rich HTML as its sanitized HTML, in every field, on the Reader and the Public feed', async () => {
    const own = await seedMedia(ctx.app);
    const api = client(ctx.app, own.keys.editor);
    const f = await docsFixture(api, own.workspaceId);
    const hostileUrl = `https://news.example.com/a?q="><script>alert(9)</script>&x='y'`;
    const leadHtml = `<p>${escapeHtml(HOSTILE)}</p><p><a href="javascript:alert(5)" onclick="alert(6)">more</a><img src="https://img.example.com/i.png" onerror="alert(7)"></p><script>alert(8)</script>`;
    // Typed as text in a rich editor (escaped), and pasted as markup (sanitized): both titles are text in the feed.
    const typed = await createContent(api, f, {
      canonical_url: hostileUrl,
      published_at: new Date(Date.now() - 120_000).toISOString(),
      locales: [{ locale: 'en', title_html: escapeHtml(HOSTILE), lead_html: leadHtml }],
    });
    const pasted = await createContent(api, f, { locales: [{ locale: 'en', title_html: HOSTILE, lead_html: HOSTILE }] });
    const [typedEntry, pastedEntry] = [typed.locales[0]!, pasted.locales[0]!];
    expect(typedEntry.title_text).toBe(HOSTILE);
    const feedRes = await api.post('/publisher/v2/rss-feeds', { key: `f-${short()}`, template_ids: [f.templateId], locales: [{ locale: 'en', title: HOSTILE, description: HOSTILE }] });
    expect(feedRes.statusCode, feedRes.body).toBe(201);
    const feed = feedRes.json().data as { id: string };

    const reader = await anonymous(`/api/media/v1/rss/${feed.id}?media_id=${own.mediaId}`);
    const publicFeed = await anonymous(`/api/public/publisher/v2/rss/${feed.id}`);
    for (const res of [reader, publicFeed]) {
      expect(res.statusCode, res.body).toBe(200);
      expect(await xmllintErrors(res.body)).toEqual([]);
      const doc = untrimmed.parse(res.body);
      const channel = doc.rss.channel;
      const [newer, older] = channel.item;
      // Plain text: an HTML renderer finds no element, and its text is exactly what was typed.
      const plain = { 'channel title': [channel.title, HOSTILE], 'channel description': [channel.description, HOSTILE], 'typed title': [older.title, typedEntry.title_text], 'pasted title': [newer.title, pastedEntry.title_text] };
      for (const [field, [value, text]] of Object.entries(plain)) {
        expect(value, field).toBe(escapeHtml(text));
        expect(asHtml(value), field).toEqual({ elements: [], text });
      }
      // Rich HTML: the sanitized HTML the Backoffice answers, with the escaped text still text.
      expect(older.description).toBe(typedEntry.lead_html);
      expect(newer.description).toBe(pastedEntry.lead_html);
      const lead = asHtml(older.description);
      expect(lead.elements).toEqual([{ name: 'p', attribs: {} }, { name: 'p', attribs: {} }, { name: 'a', attribs: {} }, { name: 'img', attribs: { src: 'https://img.example.com/i.png' } }]);
      expect(lead.text).toBe(`${HOSTILE}more`);
      expect(asHtml(newer.description).elements.map((e) => e.name)).toEqual(['img']);
      // Links: the URL as the WHATWG serializer writes it, quotes and brackets percent-encoded.
      expect(older.link).toBe(new URL(hostileUrl).href);
      expect(older.link).not.toMatch(/[<>"' ]/);
      expect(newer.link).toBe(`${ORIGIN}/api/media/v1/contents/${pasted.id}`);
      expect([older.guid['#text'], newer.guid['#text']]).toEqual([typed.id, pasted.id]);

      // Every field, attributes too: an RSS element, and no element an HTML renderer would run.
      for (const { path, value } of fieldsOf(doc, '')) {
        for (const element of asHtml(value).elements) {
          expect(path, `${element.name} in ${path}`).toBe('rss.channel.item.description');
          expect(['p', 'a', 'img'], path).toContain(element.name);
          expect(Object.keys(element.attribs).filter((name) => name.startsWith('on')), path).toEqual([]);
          expect(Object.values(element.attribs).join(' '), path).not.toMatch(/javascript:/i);
        }
      }

      // What the reviewers' feed reader (rss-parser) makes of it.
      const read = await new RssParser().parseString(res.body);
      expect(read.title).toBe(escapeHtml(HOSTILE));
      expect(read.description).toBe(escapeHtml(HOSTILE));
      expect(read.items.map((i) => [i.title, i.link, i.guid, i.content])).toEqual([
        [escapeHtml(pastedEntry.title_text), `${ORIGIN}/api/media/v1/contents/${pasted.id}`, pasted.id, pastedEntry.lead_html],
        [escapeHtml(HOSTILE), new URL(hostileUrl).href, typed.id, typedEntry.lead_html],
      ]);
    }
    expect(publicFeed.body).toBe(reader.body);
  });

  it('drops the characters XML 1.0 cannot carry, so that strict parsers still read the feed', async () => {
    const own = await seedMedia(ctx.app);
    const api = client(ctx.app, own.keys.editor);
    const f = await docsFixture(api, own.workspaceId);
    await createContent(api, f, { locales: [{ locale: 'en', title_html: 'Bell\u0007 and\u0001 form\u000c feed' }] });
    const feedRes = await api.post('/publisher/v2/rss-feeds', { key: `f-${short()}`, template_ids: [f.templateId], locales: [{ locale: 'en', title: 'News\u0001 \u0008', description: 'a\u001fb\ufffe' }] });
    expect(feedRes.statusCode, feedRes.body).toBe(201);
    const res = await anonymous(`/api/media/v1/rss/${feedRes.json().data.id}?media_id=${own.mediaId}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(await xmllintErrors(res.body)).toEqual([]);
    const channel = untrimmed.parse(res.body).rss.channel;
    expect([channel.title, channel.description, channel.item[0].title]).toEqual(['News ', 'ab', 'Bell and form feed']);
  });
});

/** A sitemap or index: valid against sitemaps.org's schema for its root element (libxml2), then parsed. */
async function parseSitemap(body: string) {
  const doc = parse(body);
  const root = 'urlset' in doc ? 'urlset' : 'sitemapindex';
  expect(await xmllintErrors(body, root)).toEqual([]);
  return doc;
}

describe('Sitemaps', () => {
  it('lists the published contents with their canonical URL and lastmod, escaped, and the index lists the file', async () => {
    const own = await seedMedia(ctx.app);
    const api = client(ctx.app, own.keys.editor);
    const f = await docsFixture(api, own.workspaceId);
    const a = await createContent(api, f, { canonical_url: 'https://news.example.com/story?a=1&b=2' });
    await createContent(api, f, { canonical_url: 'https://news.example.com/draft', status_id: f.statuses.draft });
    await createContent(api, f); // no canonical URL: not in a sitemap

    const res = await anonymous(`/api/media/v1/sitemaps/contents.xml?media_id=${own.mediaId}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.body).toContain('https://news.example.com/story?a=1&amp;b=2');
    const urls = (await parseSitemap(res.body)).urlset.url;
    expect(urls).toEqual([{ loc: 'https://news.example.com/story?a=1&b=2', lastmod: a.updated_at }]);
    expect((await anonymous(`/api/media/v1/sitemaps/contents.xml?media_id=${own.mediaId}`, { 'if-none-match': res.headers.etag as string })).statusCode).toBe(304);

    // A kind with nothing to list has no file: an empty urlset fails sitemaps.org's schema.
    for (const kind of ['events', 'organizations', 'people', 'projects']) {
      expectError(await anonymous(`/api/media/v1/sitemaps/${kind}.xml?media_id=${own.mediaId}`), 404, 'sitemap_not_found');
    }

    const index = await anonymous(`/api/media/v1/sitemaps/index.xml`, { 'x-service-media-id': own.mediaId });
    expect(index.statusCode, index.body).toBe(200);
    expect((await parseSitemap(index.body)).sitemapindex.sitemap).toEqual([
      { loc: `${ORIGIN}/api/media/v1/sitemaps/contents.xml?media_id=${own.mediaId}`, lastmod: expect.stringMatching(/^\d{4}-/) },
    ]);
    expect((await anonymous(`/api/media/v1/sitemaps/index.xml?media_id=${own.mediaId}`, { 'if-none-match': index.headers.etag as string })).statusCode).toBe(304);
    expectError(await anonymous(`/api/media/v1/sitemaps/contents.xml?media_id=${own.mediaId}&page=2`), 404, 'sitemap_page_not_found');
  });

  it('lists the published people, organizations, events and projects with a canonical URL, each in its own file', async () => {
    const own = await seedMedia(ctx.app);
    const api = client(ctx.app, own.keys.editor);
    const f = await communityFixture(api, own.workspaceId);
    const urls: Record<string, string> = {};
    for (const kind of ['people', 'organizations', 'events', 'projects'] as const) {
      urls[kind] = `https://site.example.com/${kind}/a?b=1&c=2`;
      const made = await createProfile(api, f, kind, { profile: { canonical_url: urls[kind] } });
      await createProfile(api, f, kind, { profile: { canonical_url: `https://site.example.com/${kind}/draft`, status_id: f.statuses.draft } });
      const res = await anonymous(`/api/media/v1/sitemaps/${kind}.xml?media_id=${own.mediaId}`);
      expect(res.statusCode, res.body).toBe(200);
      expect((await parseSitemap(res.body)).urlset.url).toEqual([{ loc: urls[kind], lastmod: made.updated_at }]);
    }
    const index = await parseSitemap((await anonymous(`/api/media/v1/sitemaps/index.xml?media_id=${own.mediaId}`)).body);
    expect(index.sitemapindex.sitemap.map((s: { loc: string }) => s.loc)).toEqual(
      ['events', 'organizations', 'people', 'projects'].map((kind) => `${ORIGIN}/api/media/v1/sitemaps/${kind}.xml?media_id=${own.mediaId}`),
    );
  });

  it('splits more than 50,000 URLs into files of 50,000 that the index lists', async () => {
    const own = await seedMedia(ctx.app);
    const api = client(ctx.app, own.keys.editor);
    const f = await docsFixture(api, own.workspaceId);
    await ctx.database.db.execute(sql`
      insert into contents (id, media_id, workspace_id, status_id, template_id, canonical_url, published_at)
      select gen_random_uuid(), ${own.mediaId}, ${own.workspaceId}, ${f.statuses.published}, ${f.templateId},
             'https://news.example.com/s/' || n, now() - interval '1 hour'
      from generate_series(1, 50001) n`);

    const first = await anonymous(`/api/media/v1/sitemaps/contents.xml?media_id=${own.mediaId}`);
    expect(first.statusCode).toBe(200);
    const firstUrls = (await parseSitemap(first.body)).urlset.url as Array<{ loc: string }>;
    expect(firstUrls).toHaveLength(50_000);
    const second = await anonymous(`/api/media/v1/sitemaps/contents.xml?media_id=${own.mediaId}&page=2`);
    const secondUrls = (await parseSitemap(second.body)).urlset.url as Array<{ loc: string }>;
    expect(secondUrls).toHaveLength(1);
    expect(new Set([...firstUrls, ...secondUrls].map((u) => u.loc)).size).toBe(50_001);

    const index = await parseSitemap((await anonymous(`/api/media/v1/sitemaps/index.xml?media_id=${own.mediaId}`)).body);
    expect(index.sitemapindex.sitemap.map((s: { loc: string }) => s.loc)).toEqual([
      `${ORIGIN}/api/media/v1/sitemaps/contents.xml?media_id=${own.mediaId}`,
      `${ORIGIN}/api/media/v1/sitemaps/contents.xml?media_id=${own.mediaId}&page=2`,
    ]);
  }, 120_000);
});

describe('Empty sitemaps', () => {
  it('answers 404 sitemap_not_found for the index and every kind of a media with no URL to list, records without a web URL left out', async () => {
    const own = await seedMedia(ctx.app);
    const api = client(ctx.app, own.keys.editor);
    const kinds = ['contents', 'events', 'organizations', 'people', 'projects'];
    const expectNone = async () => {
      expectError(await anonymous(`/api/media/v1/sitemaps/index.xml?media_id=${own.mediaId}`), 404, 'sitemap_not_found');
      for (const kind of kinds) expectError(await anonymous(`/api/media/v1/sitemaps/${kind}.xml?media_id=${own.mediaId}`), 404, 'sitemap_not_found');
    };
    await expectNone();
    // Published, but with no canonical URL and no site_url: nothing to list still, and no empty file in the index.
    await createContent(api, await docsFixture(api, own.workspaceId));
    const community = await communityFixture(api, own.workspaceId);
    for (const kind of ['events', 'organizations', 'people', 'projects'] as const) await createProfile(api, community, kind);
    await expectNone();
    expectError(await anonymous(`/api/media/v1/sitemaps/contents.xml?media_id=${own.mediaId}&page=2`), 404, 'sitemap_page_not_found');
  });

  it('documents the 404 sitemap_not_found of the index and of each kind in the OpenAPI document', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    for (const file of ['index', 'contents', 'events', 'organizations', 'people', 'projects']) {
      const operation = doc.paths[`/api/media/v1/sitemaps/${file}.xml`].get;
      expect(operation.responses['404']?.content['application/json'].schema, file).toEqual({ $ref: '#/components/schemas/Error' });
      expect(operation.description, file).toContain('404 `sitemap_not_found`');
    }
  });
});

describe('site_url', () => {
  const SITE = 'https://www.example.com/news/';
  const SITE_BASE = 'https://www.example.com/news';

  it("bases the sitemaps' URLs of records without a canonical URL on the media's site_url; canonical URLs stay, other medias are untouched", async () => {
    const own = await seedMedia(ctx.app);
    const api = client(ctx.app, own.keys.editor);
    const f = await docsFixture(api, own.workspaceId);
    const community = await communityFixture(api, own.workspaceId);
    const canonical = await createContent(api, f, { canonical_url: 'https://news.example.com/story' });
    const bare = await createContent(api, f);
    const profiles: Record<string, string> = {};
    for (const kind of ['events', 'organizations', 'people', 'projects'] as const) profiles[kind] = (await createProfile(api, community, kind)).id;
    expect((await client(ctx.app, own.keys.admin).patch('/core/v2/media', { site_url: SITE })).statusCode).toBe(200);

    const contents = await anonymous(`/api/media/v1/sitemaps/contents.xml?media_id=${own.mediaId}`);
    expect(contents.statusCode, contents.body).toBe(200);
    const locs = ((await parseSitemap(contents.body)).urlset.url as Array<{ loc: string }>).map((u) => u.loc);
    // By id: the canonical record was made first.
    expect(locs).toEqual(['https://news.example.com/story', `${SITE_BASE}/contents/${bare.id}`]);
    expect(canonical.id < bare.id).toBe(true);
    for (const [kind, id] of Object.entries(profiles)) {
      const res = await anonymous(`/api/media/v1/sitemaps/${kind}.xml?media_id=${own.mediaId}`);
      expect(res.statusCode, kind).toBe(200);
      expect((await parseSitemap(res.body)).urlset.url, kind).toEqual([{ loc: `${SITE_BASE}/${kind}/${id}`, lastmod: expect.stringMatching(/^\d{4}-/) }]);
    }
    const index = await parseSitemap((await anonymous(`/api/media/v1/sitemaps/index.xml?media_id=${own.mediaId}`)).body);
    // The files stay where the API serves them.
    expect(index.sitemapindex.sitemap.map((s: { loc: string }) => s.loc)).toEqual(
      ['contents', 'events', 'organizations', 'people', 'projects'].map((kind) => `${ORIGIN}/api/media/v1/sitemaps/${kind}.xml?media_id=${own.mediaId}`),
    );

    // Another media's sitemaps know nothing of this site.
    const other = await seedMedia(ctx.app);
    const otherApi = client(ctx.app, other.keys.editor);
    await createContent(otherApi, await docsFixture(otherApi, other.workspaceId));
    expectError(await anonymous(`/api/media/v1/sitemaps/contents.xml?media_id=${other.mediaId}`), 404, 'sitemap_not_found');

    // Cleared: back to canonical URLs only.
    expect((await client(ctx.app, own.keys.admin).patch('/core/v2/media', { site_url: null })).statusCode).toBe(200);
    const cleared = await anonymous(`/api/media/v1/sitemaps/contents.xml?media_id=${own.mediaId}`);
    expect(((await parseSitemap(cleared.body)).urlset.url as Array<{ loc: string }>).map((u) => u.loc)).toEqual(['https://news.example.com/story']);
    expectError(await anonymous(`/api/media/v1/sitemaps/events.xml?media_id=${own.mediaId}`), 404, 'sitemap_not_found');
  });

  it("links the RSS channel to the feed's site_url, else the media's, else the API's origin, and items without a canonical URL under it", async () => {
    const own = await seedMedia(ctx.app);
    const api = client(ctx.app, own.keys.editor);
    const admin = client(ctx.app, own.keys.admin);
    const f = await docsFixture(api, own.workspaceId);
    await createContent(api, f, { canonical_url: 'https://news.example.com/story', published_at: new Date(Date.now() - 120_000).toISOString() });
    const bare = await createContent(api, f);
    const made = await api.post('/publisher/v2/rss-feeds', { key: `f-${short()}`, template_ids: [f.templateId], locales: [{ locale: 'en', title: 'News' }] });
    expect(made.statusCode, made.body).toBe(201);
    const feed = made.json().data as { id: string };
    const reader = `/api/media/v1/rss/${feed.id}?media_id=${own.mediaId}`;
    const publicUrl = `/api/public/publisher/v2/rss/${feed.id}`;
    const links = async (url: string) => {
      const res = await anonymous(url);
      expect(res.statusCode, res.body).toBe(200);
      const channel = parse(res.body).rss.channel;
      return { channel: channel.link, items: channel.item.map((i: { link: string }) => i.link), etag: res.headers.etag as string };
    };

    const before = await links(reader);
    expect(before).toMatchObject({ channel: `${ORIGIN}/`, items: [`${ORIGIN}/api/media/v1/contents/${bare.id}`, 'https://news.example.com/story'] });

    expect((await admin.patch('/core/v2/media', { site_url: SITE })).statusCode).toBe(200);
    // The document changed with the media's site: a feed reader's old ETag gets the new one, not a 304.
    expect((await anonymous(reader, { 'if-none-match': before.etag })).statusCode).toBe(200);
    for (const url of [reader, publicUrl]) {
      expect(await links(url), url).toMatchObject({ channel: SITE, items: [`${SITE_BASE}/contents/${bare.id}`, 'https://news.example.com/story'] });
    }

    const patched = await api.patch(`/publisher/v2/rss-feeds/${feed.id}`, { site_url: 'https://sport.example.org' });
    expect(patched.json().data.site_url).toBe('https://sport.example.org');
    for (const url of [reader, publicUrl]) {
      expect(await links(url), url).toMatchObject({ channel: 'https://sport.example.org/', items: [`https://sport.example.org/contents/${bare.id}`, 'https://news.example.com/story'] });
    }

    expect((await api.patch(`/publisher/v2/rss-feeds/${feed.id}`, { site_url: null })).json().data.site_url).toBeNull();
    expect((await links(reader)).channel).toBe(SITE);
    expect((await admin.patch('/core/v2/media', { site_url: null })).statusCode).toBe(200);
    expect(await links(reader)).toMatchObject({ channel: `${ORIGIN}/`, items: [`${ORIGIN}/api/media/v1/contents/${bare.id}`, 'https://news.example.com/story'] });
  });

  it('keeps a feed\'s site_url (null unless given), validates it (400 naming it) on create and update, and keeps it within the media', async () => {
    const own = await seedMedia(ctx.app);
    const api = client(ctx.app, own.keys.editor);
    const plain = await api.post('/publisher/v2/rss-feeds', { key: `f-${short()}`, locales: [{ locale: 'en', title: 'Plain' }] });
    expect(plain.json().data.site_url).toBeNull();
    const res = await api.post('/publisher/v2/rss-feeds', { key: `f-${short()}`, site_url: 'http://local.example.net/sport', locales: [{ locale: 'en', title: 'Sport' }] });
    expect(res.statusCode, res.body).toBe(201);
    const feed = res.json().data;
    expect(feed.site_url).toBe('http://local.example.net/sport');
    expect((await api.get(`/publisher/v2/rss-feeds/${feed.id}`)).json().data).toEqual(feed);
    const listed = (await anonymous(`/api/public/core/v2/medias/${own.mediaId}/feeds`)).json().data as Array<{ id: string; site_url: string | null }>;
    expect(listed.find((l) => l.id === feed.id)?.site_url).toBe('http://local.example.net/sport');

    for (const site_url of ['sport', 'ftp://example.com', 'javascript:alert(1)', 'https://example.com/#top', `https://example.com/${'a'.repeat(2000)}`, 7]) {
      const created = expectError(await api.post('/publisher/v2/rss-feeds', { key: `f-${short()}`, site_url, locales: [{ locale: 'en', title: 'X' }] }), 400, 'validation_failed');
      expect(created.details!.map((d) => d.path), JSON.stringify(site_url)).toEqual(['site_url']);
      const updated = expectError(await api.patch(`/publisher/v2/rss-feeds/${feed.id}`, { site_url }), 400, 'validation_failed');
      expect(updated.details!.map((d) => d.path)).toEqual(['site_url']);
    }
    expect((await api.get(`/publisher/v2/rss-feeds/${feed.id}`)).json().data.site_url).toBe('http://local.example.net/sport');

    // Another media's key cannot reach it.
    const other = client(ctx.app, (await seedMedia(ctx.app)).keys.editor);
    expectError(await other.patch(`/publisher/v2/rss-feeds/${feed.id}`, { site_url: 'https://evil.example.com' }), 404, 'rss_feed_not_found');
    expect((await api.get(`/publisher/v2/rss-feeds/${feed.id}`)).json().data.site_url).toBe('http://local.example.net/sport');
  });
});
