import { describe, expect, it } from 'vitest';
import { richHtml, sanitizeRichText, sanitizeSvg } from './html.js';

describe('sanitizeRichText', () => {
  it('keeps formatting, headings, lists, quotes, tables and language attributes', () => {
    const html =
      '<h2 class="lead" lang="fr">Titre</h2><p>Some <strong>bold</strong>, <em>italic</em>, <u>u</u>, <s>s</s> and <code>code</code>.</p>' +
      '<ul><li>one</li></ul><ol><li>two</li></ol><blockquote>quoted</blockquote>' +
      '<table><thead><tr><th>h</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table>' +
      '<figure><img src="https://cdn.example.com/a.png" alt="A" width="10" height="20"><figcaption>cap</figcaption></figure>';
    expect(sanitizeRichText(html)).toBe(
      '<h2 class="lead" lang="fr">Titre</h2><p>Some <strong>bold</strong>, <em>italic</em>, <u>u</u>, <s>s</s> and <code>code</code>.</p>' +
        '<ul><li>one</li></ul><ol><li>two</li></ol><blockquote>quoted</blockquote>' +
        '<table><thead><tr><th>h</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table>' +
        '<figure><img src="https://cdn.example.com/a.png" alt="A" width="10" height="20" /><figcaption>cap</figcaption></figure>',
    );
  });

  it('keeps http, https, mailto and tel links with their title, target and rel', () => {
    const html =
      '<p><a href="https://example.com/x?y=1" title="t" target="_blank" rel="noopener">web</a> ' +
      '<a href="http://example.com">plain</a> <a href="mailto:desk@example.com">mail</a> <a href="tel:+41000">call</a></p>';
    expect(sanitizeRichText(html)).toBe(html);
  });

  it('drops script elements together with their content', () => {
    const out = sanitizeRichText('<p>before</p><script>alert(1)</script><SCRIPT src="https://evil/x.js"></SCRIPT><p>after</p>');
    expect(out).toBe('<p>before</p><p>after</p>');
  });

  it('drops on* event handlers and style, keeping the element', () => {
    const out = sanitizeRichText(
      '<p onclick="alert(1)" style="color:red">x</p><img src="https://cdn.example.com/a.png" onerror="alert(1)" alt="a"><a href="https://example.com" onmouseover="alert(1)">l</a>',
    );
    expect(out).toBe('<p>x</p><img src="https://cdn.example.com/a.png" alt="a" /><a href="https://example.com">l</a>');
    expect(out).not.toMatch(/\son\w+=/i);
  });

  it('drops javascript:, data: and protocol-relative URLs however they are spelled', () => {
    const out = sanitizeRichText(
      '<a href="javascript:alert(1)">a</a><a href="JaVaScRiPt:alert(1)">b</a><a href="  javascript:alert(1)">c</a>' +
        '<a href="jav&#x09;ascript:alert(1)">d</a><a href="data:text/html,<script>alert(1)</script>">e</a>' +
        '<a href="//evil.example.com">f</a><img src="javascript:alert(1)">',
    );
    expect(out).toBe('<a>a</a><a>b</a><a>c</a><a>d</a><a>e</a><a>f</a><img />');
    expect(out.toLowerCase()).not.toContain('javascript');
  });

  it('drops iframes, objects, embeds, styles and forms', () => {
    const out = sanitizeRichText(
      '<iframe src="https://evil.example.com"></iframe><object data="x.swf"></object><embed src="x.swf">' +
        '<style>p { color: red }</style><form action="https://evil"><input name="q"></form><p>kept</p>',
    );
    expect(out).toBe('<p>kept</p>');
  });
});

describe('sanitizeSvg', () => {
  it('keeps shapes, groups, their presentation attributes and the viewBox with its case', () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="24" height="24" role="img" aria-label="Politics">' +
      '<title>Politics</title><g fill="none" stroke="#000" stroke-width="2">' +
      '<path d="M0 0h24v24H0z" fill-rule="evenodd"></path><circle cx="12" cy="12" r="4"></circle>' +
      '<ellipse cx="1" cy="2" rx="3" ry="4"></ellipse><rect x="1" y="1" width="2" height="2" rx="1"></rect>' +
      '<line x1="0" y1="0" x2="1" y2="1"></line><polyline points="0,0 1,1"></polyline><polygon points="0,0 1,1 2,0"></polygon>' +
      '</g></svg>';
    expect(sanitizeSvg(svg)).toBe(svg);
  });

  it('normalises self-closing shapes to explicit end tags', () => {
    expect(sanitizeSvg('<svg viewBox="0 0 1 1"><circle cx="1" cy="1" r="1"/></svg>')).toBe(
      '<svg viewBox="0 0 1 1"><circle cx="1" cy="1" r="1"></circle></svg>',
    );
  });

  it('drops script elements with their content', () => {
    expect(sanitizeSvg('<svg viewBox="0 0 1 1"><script>alert(1)</script><path d="M0 0"/></svg>')).toBe(
      '<svg viewBox="0 0 1 1"><path d="M0 0"></path></svg>',
    );
    // Upper-case tags are not script elements in SVG, and never come out as markup.
    expect(sanitizeSvg('<svg viewBox="0 0 1 1"><SCRIPT>alert(1)</SCRIPT></svg>')).not.toMatch(/<script/i);
  });

  it('drops foreignObject and the HTML inside it', () => {
    const out = sanitizeSvg(
      '<svg viewBox="0 0 1 1"><foreignObject width="1" height="1"><img src="x" onerror="alert(1)"><iframe src="https://evil"></iframe></foreignObject><rect width="1" height="1"/></svg>',
    );
    expect(out).toBe('<svg viewBox="0 0 1 1"><rect width="1" height="1"></rect></svg>');
  });

  it('drops event handlers and style attributes from every element', () => {
    const out = sanitizeSvg(
      '<svg viewBox="0 0 1 1" onload="alert(1)"><g onclick="x()"><path d="M1 1" ONMOUSEOVER="x()" style="fill:url(javascript:alert(1))"/></g></svg>',
    );
    expect(out).toBe('<svg viewBox="0 0 1 1"><g><path d="M1 1"></path></g></svg>');
  });

  it('drops links, use, image, animations and every href, keeping the shapes they wrapped', () => {
    const out = sanitizeSvg(
      '<svg viewBox="0 0 1 1" xmlns:xlink="http://www.w3.org/1999/xlink">' +
        '<a href="https://evil.example.com" xlink:href="javascript:alert(1)"><path d="M0 0"/></a>' +
        '<use href="#x" xlink:href="https://evil.example.com/s.svg#y"/><image href="https://evil.example.com/p.png"/>' +
        '<animate attributeName="href" to="javascript:alert(1)"/><set attributeName="onload" to="alert(1)"/>' +
        '<circle cx="1" cy="1" r="1" href="javascript:alert(1)"/></svg>',
    );
    expect(out).toBe('<svg viewBox="0 0 1 1"><path d="M0 0"></path><circle cx="1" cy="1" r="1"></circle></svg>');
    expect(out).not.toMatch(/href|javascript/i);
  });

  it('drops external paint references and mixed-case script or style text from SVG icons', () => {
    const out = sanitizeSvg(
      '<svg viewBox="0 0 1 1"><Script>alert(1)</Script><STYLE>x{}</STYLE>' +
        '<path d="M0" fill="url(https://evil.example/x#a)" stroke="url(#local)"/></svg>',
    );
    expect(out).toBe('<svg viewBox="0 0 1 1"><path d="M0" stroke="url(#local)"></path></svg>');
  });
});

describe('richHtml', () => {
  const field = richHtml(500);

  it('sanitizes the HTML and derives its text twin, blocks on their own lines and entities decoded', () => {
    const out = field.parse('<h2>Title &amp; more</h2><p>One <b>bold</b>&nbsp;word<script>alert(1)</script></p><p onclick="x()">Two<br>lines &lt;3</p>');
    expect(out.html).toBe('<h2>Title &amp; more</h2><p>One <b>bold</b>\u00a0word</p><p>Two<br />lines &lt;3</p>');
    expect(out.text).toBe('Title & more\nOne bold word\nTwo\nlines <3');
  });

  it('leaves nothing executable in the html and no markup in the text', () => {
    const out = field.parse('<img src=x onerror=alert(1)><a href="javascript:alert(1)">click</a><iframe src="//evil"></iframe>');
    expect(out.html).toBe('<img src="x" /><a>click</a>');
    expect(out.text).toBe('click');
  });

  it('refuses a value longer than its bound and anything but a string', () => {
    expect(field.safeParse('x'.repeat(501)).success).toBe(false);
    expect(field.safeParse(42).success).toBe(false);
  });
});
