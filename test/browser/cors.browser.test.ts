import { existsSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, type Page, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../setup/app.js';
import { type SeededMedia, createCategory, client, seedMedia } from '../setup/factories.js';
import { registerClient } from '../setup/reader.js';

// A real browser (Debian's chromium, headless) on a page of one origin calling the API on
// another, as a newsroom's front end does; and /docs over plain HTTP on a host that is not
// localhost, where a browser gives no plain-HTTP page the benefit of the doubt.

const CHROMIUM = '/usr/bin/chromium';
const DOCS_HOST = 'docs.test';

/** The front end: fetches a token, a Reader list, an error and the Backoffice, and tells what it could read. */
const FRONT_END = `<!doctype html>
<meta charset="utf-8">
<title>front end</title>
<script>
(async () => {
  const q = new URLSearchParams(location.search);
  const api = q.get('api');
  const headers = (res) => Object.fromEntries(['x-request-id', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'content-type']
    .map((name) => [name, res.headers.get(name)]));
  const read = async (res) => ({ status: res.status, body: await res.json(), headers: headers(res) });
  const out = {};
  try {
    out.token = await read(await fetch(api + '/api/media/v1/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: q.get('client_id'), client_secret: q.get('client_secret'), scope: 'media:read' }),
    }));
    const bearer = { authorization: 'Bearer ' + out.token.body.access_token, 'x-service-media-id': q.get('media') };
    out.list = await read(await fetch(api + '/api/media/v1/categories?limit=5', { headers: bearer }));
    out.again = await read(await fetch(api + '/api/media/v1/categories?limit=5', { headers: bearer }));
    out.unauthorized = await read(await fetch(api + '/api/media/v1/categories', { headers: { 'x-service-media-id': q.get('media') } }));
    out.tokenError = await read(await fetch(api + '/api/media/v1/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=password',
    }));
    out.backoffice = await fetch(api + '/core/v2/media', { headers: { 'x-api-key': 'mps_anything' } })
      .then((res) => 'readable: ' + res.status, (err) => 'refused: ' + err.name);
  } catch (err) {
    out.error = err.name + ': ' + err.message;
  }
  window.result = out;
})();
</script>`;

interface Answer {
  status: number;
  body: Record<string, unknown> & { data?: Array<{ name: string }> };
  headers: Record<string, string | null>;
}
/** What the front end's script could read (window.result). */
interface FrontEndResult {
  token?: Answer;
  list?: Answer;
  again?: Answer;
  unauthorized?: Answer;
  tokenError?: Answer;
  backoffice?: string;
  error?: string;
}

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};

describe.skipIf(!existsSync(CHROMIUM))('a browser front end on another origin', () => {
  let ctx: TestContext;
  let media: SeededMedia;
  let creds: { clientId: string; clientSecret: string };
  let pages: Server;
  let browser: Browser;
  let pagePort: number;
  let api: string;
  let apiPort: number;
  const preflights: string[] = [];

  beforeAll(async () => {
    pages = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(FRONT_END));
    pagePort = await listen(pages);
    // Only the page's 127.0.0.1 origin is listed; the same page at localhost is another origin.
    ctx = await createTestApp({ corsOrigins: [`http://127.0.0.1:${pagePort}`] });
    ctx.app.server.on('request', (req) => {
      if (req.method === 'OPTIONS') preflights.push(req.url ?? '');
    });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    apiPort = (ctx.app.server.address() as AddressInfo).port;
    api = `http://127.0.0.1:${apiPort}`;
    media = await seedMedia(ctx.app);
    creds = await registerClient(ctx.app, media.keys.admin, ['media:read']);
    await createCategory(client(ctx.app, media.keys.editor), { locales: [{ locale: 'en', name: 'Politics' }] });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: [`--host-resolver-rules=MAP ${DOCS_HOST} 127.0.0.1`] });
  });
  afterAll(async () => {
    await browser?.close();
    await ctx?.close();
    pages?.closeAllConnections();
    await new Promise((resolve) => pages?.close(resolve));
  });

  const frontEnd = async (host: string) => {
    const page = await browser.newPage();
    const query = new URLSearchParams({ api, media: media.mediaId, client_id: creds.clientId, client_secret: creds.clientSecret });
    await page.goto(`http://${host}:${pagePort}/?${query}`);
    await page.waitForFunction(() => 'result' in globalThis, undefined, { timeout: 10_000 });
    const result = (await page.evaluate(() => (globalThis as unknown as { result: unknown }).result)) as FrontEndResult;
    await page.close();
    return result;
  };

  it('gets a token, reads a Reader list with its headers, and reads the errors of a listed origin', async () => {
    const out = await frontEnd('127.0.0.1');
    expect(out.error).toBeUndefined();
    expect(out.token).toMatchObject({ status: 200, body: { token_type: 'Bearer', scope: 'media:read', expires_in: 900 } });
    expect(out.token?.body).not.toHaveProperty('refresh_token');

    const list = out.list!;
    expect(list.status).toBe(200);
    expect(list.body.data?.map((c) => c.name)).toEqual(['Politics']);
    // Exposed: without Access-Control-Expose-Headers a script reads none of these.
    expect(list.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(list.headers['ratelimit-limit']).toBe('300');
    expect(Number(list.headers['ratelimit-remaining'])).toBeLessThan(300);
    expect(Number(list.headers['ratelimit-reset'])).toBeGreaterThan(0);
    expect(list.headers['content-type']).toMatch(/^application\/json/);
    expect(out.again).toMatchObject({ status: 200 });

    expect(out.unauthorized).toMatchObject({ status: 401, body: { code: 'missing_token' } });
    expect(out.tokenError).toMatchObject({
      status: 400,
      body: { error: 'unsupported_grant_type', code: 'unsupported_grant_type', error_description: expect.any(String) },
    });
    // The Backoffice has no CORS unless CORS_BACKOFFICE_ORIGINS is set: the browser refuses it.
    expect(out.backoffice).toBe('refused: TypeError');
    // One preflight for the bearer list: the second call used the browser's preflight cache.
    expect(preflights.filter((url) => url === '/api/media/v1/categories?limit=5')).toHaveLength(1);
  });

  it('refuses every read to an origin that is not listed', async () => {
    const out = await frontEnd('localhost');
    expect(out.error).toBe('TypeError: Failed to fetch');
    expect(out.token).toBeUndefined();
  });

  it('renders /docs over plain HTTP on a host other than localhost, from /openapi.json', async () => {
    const page: Page = await browser.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    try {
      const res = await page.goto(`http://${DOCS_HOST}:${apiPort}/docs`);
      expect(res?.status()).toBe(200);
      expect(await res?.headerValue('content-security-policy')).not.toContain('upgrade-insecure-requests');
      // Swagger UI draws the whole document (some 260 operations): beside the rest of the suite on a
      // loaded 2-core machine that took more than 10 s.
      await page.waitForSelector('.information-container .title', { timeout: 40_000 });
      expect(await page.textContent('.information-container .title')).toContain('Media Publishing Service');
      // Operations from that document are drawn (a blank page had none).
      await page.waitForSelector('.opblock', { timeout: 10_000 });
      expect(requested).toContain(`http://${DOCS_HOST}:${apiPort}/openapi.json`);
      expect(requested.filter((url) => !url.startsWith(`http://${DOCS_HOST}:${apiPort}/`))).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);
});
