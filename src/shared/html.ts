import { z } from 'zod';
import type sanitizeHtml from 'sanitize-html';
import { onFirstUse } from './on-first-use.js';

const sanitizer = onFirstUse<typeof sanitizeHtml>('sanitize-html');

// Rich text written by editors: formatting, links, images, no scripts or event handlers.
const richText: sanitizeHtml.IOptions = {
  allowedTags: [
    'p', 'br', 'hr', 'b', 'strong', 'i', 'em', 'u', 's', 'sub', 'sup', 'small', 'mark', 'span', 'a',
    'ul', 'ol', 'li', 'blockquote', 'q', 'cite', 'code', 'pre', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
    'figure', 'figcaption', 'img', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'abbr', 'time',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    time: ['datetime'],
    abbr: ['title'],
    '*': ['lang', 'dir', 'class'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowProtocolRelative: false,
};

// Icons: static SVG shapes only; no script, foreignObject, external references or handlers.
const svgShapeAttrs = [
  'fill', 'fill-rule', 'clip-rule', 'stroke', 'stroke-width', 'stroke-linecap', 'stroke-linejoin',
  'stroke-miterlimit', 'opacity', 'fill-opacity', 'stroke-opacity', 'transform', 'class',
];
const svgIcon: sanitizeHtml.IOptions = {
  allowedTags: ['svg', 'g', 'path', 'circle', 'ellipse', 'rect', 'line', 'polyline', 'polygon', 'title', 'desc'],
  allowedAttributes: {
    svg: ['xmlns', 'viewBox', 'width', 'height', 'role', 'aria-hidden', 'aria-label', ...svgShapeAttrs],
    g: svgShapeAttrs,
    path: ['d', ...svgShapeAttrs],
    circle: ['cx', 'cy', 'r', ...svgShapeAttrs],
    ellipse: ['cx', 'cy', 'rx', 'ry', ...svgShapeAttrs],
    rect: ['x', 'y', 'width', 'height', 'rx', 'ry', ...svgShapeAttrs],
    line: ['x1', 'y1', 'x2', 'y2', ...svgShapeAttrs],
    polyline: ['points', ...svgShapeAttrs],
    polygon: ['points', ...svgShapeAttrs],
  },
  allowedSchemes: [],
  // Tag names are lower-cased (every allowed one is), so <Script> is dropped with its text;
  // attribute names keep their case for viewBox.
  nonTextTags: ['script', 'style', 'foreignobject', 'textarea', 'option'],
  parser: { lowerCaseAttributeNames: false, lowerCaseTags: true },
  // Paint may only reference the icon itself (url(#id)), never an external resource.
  transformTags: {
    '*': (tagName, attribs) => ({
      tagName,
      attribs: Object.fromEntries(Object.entries(attribs).filter(([, value]) => !/url\s*\(\s*(?!['"]?#)/i.test(value))),
    }),
  },
};

/** Plain text as HTML text: the five characters HTML gives a meaning, as entities. */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

export const sanitizeRichText = (html: string): string => sanitizer()(html, richText);
export const sanitizeSvg = (svg: string): string => sanitizer()(svg, svgIcon);

// Block ends and line breaks become line breaks in the text twin, so that words of two
// paragraphs do not run together.
const BLOCK_END = /<\/(p|div|li|h[1-6]|blockquote|tr|figcaption|pre|table)>|<br\s*\/?>|<hr\s*\/?>/gi;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'", nbsp: ' ' };

/** The plain text of sanitized rich HTML: tags dropped, entities decoded, blank runs collapsed. */
export function htmlToText(html: string): string {
  const stripped = sanitizer()(html.replace(BLOCK_END, '$&\n'), { allowedTags: [], allowedAttributes: {} });
  return stripped
    .replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/g, (_, name: string) => ENTITIES[name]!)
    .split('\n')
    .map((line) => line.replace(/[ \t\r\f\v\u00a0]+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
}

/**
 * A rich-HTML body field (`title_html`, `content_html`...): sanitized on write with the one
 * allow-list, and its `_text` twin derived from it, never accepted from a client. Its output
 * is `{ html, text }`, the two columns a service stores.
 */
export const richHtml = (max = 100_000) =>
  z
    .string()
    .max(max)
    .transform((value) => {
      const html = sanitizeRichText(value);
      return { html, text: htmlToText(html) };
    })
    .describe('HTML; sanitized on write (formatting, links, images; no scripts, styles or event handlers)');
