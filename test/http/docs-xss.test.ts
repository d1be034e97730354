import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../setup/app.js';
import { type Client, type SeededMedia, client, seedMedia } from '../setup/factories.js';
import { type DocsFixture, createBlock, createContent, docsFixture } from '../setup/docs.js';
import { clientToken, readerClient, registerClient } from '../setup/reader.js';

// Classic payloads (OWASP's filter evasion cheat sheet and friends): each goes through every
// *_html field of contents and their blocks, and nothing executable may be stored or served.
const PAYLOADS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=https://xss.example/xss.js></SCRIPT>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<img src=x onerror=alert(1)>',
  '<IMG SRC="javascript:alert(1);">',
  '<IMG SRC=JaVaScRiPt:alert(1)>',
  '<IMG SRC=`javascript:alert("x")`>',
  '<IMG """><SCRIPT>alert("XSS")</SCRIPT>">',
  '<IMG SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;&#41;>',
  '<IMG SRC=&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A&#x61&#x6C&#x65&#x72&#x74&#x28&#x27&#x58&#x53&#x53&#x27&#x29>',
  '<IMG SRC="jav\tascript:alert(1);">',
  '<IMG SRC="jav&#x0A;ascript:alert(1);">',
  '<IMG SRC=" &#14;  javascript:alert(1);">',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="  JAVASCRIPT:alert(1)">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<a href="//evil.example/x">x</a>',
  '<a href="https://ok.example" onclick="alert(1)">x</a>',
  '<a href="https://ok.example" onmouseover=alert(1)>x</a>',
  '<svg/onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<svg><animate onbegin=alert(1) attributeName=x dur=1s>',
  '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
  '<body onload=alert(1)>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<form action="javascript:alert(1)"><input type=submit></form>',
  '<button formaction="javascript:alert(1)">x</button>',
  '<input onfocus=alert(1) autofocus>',
  '<select onfocus=alert(1) autofocus>',
  '<textarea onfocus=alert(1) autofocus>',
  '<keygen onfocus=alert(1) autofocus>',
  '<video><source onerror="alert(1)"></video>',
  '<audio src=x onerror=alert(1)>',
  '<details open ontoggle=alert(1)>',
  '<marquee onstart=alert(1)>x</marquee>',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<p style="x:expression(alert(1))">x</p>',
  '<style>@import "https://xss.example/x.css";</style>',
  '<link rel=stylesheet href="https://xss.example/x.css">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<table background="javascript:alert(1)"><tr><td>x</td></tr></table>',
  '<td background="javascript:alert(1)">x</td>',
  '<div onmouseenter=alert(1)>x</div>',
  '<span onpointerover=alert(1)>x</span>',
  '<p><img src="https://ok.example/a.png" alt="ok" onload="alert(1)"></p>',
  '"><script>alert(1)</script>',
  "'><img src=x onerror=alert(1)>",
  '</p><script>alert(1)</script><p>',
  '<!--<script>alert(1)</script>-->',
  '<![CDATA[<script>alert(1)</script>]]>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<a href="jav&#x09;ascript:alert(1)">x</a>',
  '<img src="x:x" onerror="eval(atob(\'YWxlcnQoMSk=\'))">',
  '<a href="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058alert(1)">x</a>',
  '<xss onafterscriptexecute=alert(1)><script>1</script>',
];

const FORBIDDEN_TAGS = /<\s*\/?\s*(script|iframe|object|embed|style|svg|math|form|button|input|select|textarea|keygen|video|audio|source|details|marquee|link|meta|base|body|noscript|xss)\b/i;
const HANDLER = /<[^>]*\son[a-z]+\s*=/i;
const STYLE = /<[^>]*\sstyle\s*=/i;
const decode = (html: string) =>
  html
    .replace(/&#x([0-9a-f]+);?/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);?/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&colon;/gi, ':')
    .replace(/&tab;|&newline;/gi, '');
const URL_ATTR = /\s(href|src|action|formaction|background|xlink:href)\s*=\s*("([^"]*)"|'([^']*)'|([^\s>]+))/gi;

/** Whether a sanitized HTML string could run anything in a browser. */
function executable(html: string): string | undefined {
  if (FORBIDDEN_TAGS.test(html)) return 'forbidden tag';
  if (HANDLER.test(html)) return 'event handler';
  if (STYLE.test(html)) return 'style attribute';
  for (const m of html.matchAll(URL_ATTR)) {
    // Old browsers took backticks as quotes around an unquoted value.
    const raw = m[3] ?? m[4] ?? (m[5] ?? '').replace(/^`|`$/g, '');
    // Browsers skip control characters and spaces inside a scheme.
    const value = [...decode(raw)].filter((ch) => ch.charCodeAt(0) > 0x20).join('').toLowerCase();
    // A URL runs code only through its scheme (a value without one is a relative path).
    const scheme = /^([a-z][a-z0-9+.-]*):/.exec(value)?.[1];
    if ((scheme && !['http', 'https', 'mailto', 'tel'].includes(scheme)) || value.startsWith('//')) return `url ${value}`;
  }
  return undefined;
}

/** Every `*_html` string anywhere in a JSON value, with its path. */
function htmlFields(value: unknown, path = ''): Array<[string, string]> {
  if (Array.isArray(value)) return value.flatMap((v, i) => htmlFields(v, `${path}.${i}`));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) =>
      k.endsWith('_html') && typeof v === 'string' ? [[`${path}.${k}`, v] as [string, string]] : htmlFields(v, `${path}.${k}`),
    );
  }
  return [];
}

let ctx: TestContext;
let media: SeededMedia;
let api: Client;
let fx: DocsFixture;
let token: string;

beforeAll(async () => {
  ctx = await createTestApp();
  media = await seedMedia(ctx.app);
  api = client(ctx.app, media.keys.editor);
  fx = await docsFixture(api, media.workspaceId);
  token = (await clientToken(ctx.app, await registerClient(ctx.app, media.keys.admin, ['media:read']))).access_token;
});
afterAll(() => ctx.close());

describe('an XSS corpus through every *_html field of contents and blocks', () => {
  it(`has at least 50 payloads`, () => {
    expect(PAYLOADS.length).toBeGreaterThanOrEqual(50);
    // The checker itself catches each payload unsanitized (else the test below could not fail).
    for (const p of PAYLOADS) expect(executable(p), p).toBeDefined();
  });

  it('stores and serves nothing executable, on the Backoffice and the Reader', async () => {
    const reader = readerClient(ctx.app, media.mediaId, token);
    const ids: string[] = [];
    let checked = 0;
    for (const payload of PAYLOADS) {
      const html = `<p>ok</p>${payload}`;
      const content = await createContent(api, fx, {
        locales: [
          {
            locale: 'en',
            title_html: html,
            subtitle_html: html,
            lead_html: html,
            visual: { type: 'video', video: { url: 'https://v.example/1', provider: 'v', caption_html: html } },
          },
        ],
      });
      ids.push(content.id);
      for (const kind of ['richtext', 'html', 'quote']) await createBlock(api, content.id, { locale: 'en', kind, content_html: html });
      await createBlock(api, content.id, { locale: 'en', kind: 'video', video: { url: 'https://v.example/2', provider: 'v', caption_html: html } });

      const served = [
        (await api.get(`/docs/v2/contents/${content.id}`)).json(),
        (await api.get(`/docs/v2/contents/${content.id}/blocks`)).json(),
        (await reader.get(`/api/media/v1/contents/${content.id}`)).json(),
      ];
      const fields = served.flatMap((body) => htmlFields(body));
      // title, subtitle, lead, visual caption (Backoffice and Reader), 4 blocks (twice).
      expect(fields.length, payload).toBe(4 + 4 + 4 + 4);
      for (const [path, value] of fields) {
        expect(executable(value), `${payload} → ${path}: ${value}`).toBeUndefined();
        checked++;
      }
    }
    expect(checked).toBe(PAYLOADS.length * 16);

    // What the database holds is the sanitized HTML, not the payload.
    const stored = (await ctx.database.db.execute(sql`
      select title_html as h from content_locales where content_id in ${ids}
      union all select subtitle_html from content_locales where content_id in ${ids}
      union all select lead_html from content_locales where content_id in ${ids}
      union all select visual_video->>'caption_html' from content_locales where content_id in ${ids}
      union all select b.fields->>'content_html' from content_blocks b join content_locales l on l.id = b.locale_id where l.content_id in ${ids} and b.kind <> 'video'
      union all select b.fields->'video'->>'caption_html' from content_blocks b join content_locales l on l.id = b.locale_id where l.content_id in ${ids} and b.kind = 'video'
    `)) as unknown as { rows: Array<{ h: string }> };
    expect(stored.rows.length).toBe(PAYLOADS.length * 8);
    for (const { h } of stored.rows) expect(executable(h), h).toBeUndefined();
  });
});
