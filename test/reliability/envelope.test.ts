import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../src/app.js';
import { type TestContext, createTestApp, createTestDatabase, testConfig } from '../setup/app.js';
import { type SeededMedia, client, seedMedia } from '../setup/factories.js';

// Issue 7.2, 7.4, 7.5, 7.6: every status the service can answer, Fastify's and Node's own
// included, is `{error, code}` and repeats no long piece of the request.
let ctx: TestContext;
let media: SeededMedia;
let port: number;

beforeAll(async () => {
  ctx = await createTestApp();
  media = await seedMedia(ctx.app);
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  port = (ctx.app.server.address() as { port: number }).port;
});
afterAll(() => ctx?.close());

/** Writes raw bytes on a fresh connection and returns what came back until the server closed it. */
function raw(request: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = data.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), headers: head, body });
    });
    socket.end(request);
  });
}

const envelope = (body: string, code: string) => {
  const parsed = JSON.parse(body);
  expect(parsed).toEqual({ error: expect.any(String), code });
  return parsed as { error: string; code: string };
};

describe("Node's and Fastify's own refusals", () => {
  it('answers a 16 KB header with 431 headers_too_large in the envelope', async () => {
    const res = await raw(`GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(17_000)}\r\n\r\n`);
    expect(res.status).toBe(431);
    expect(res.headers).toMatch(/content-type: application\/json/i);
    envelope(res.body, 'headers_too_large');
    expect(res.body).not.toContain('aaaa');
  });

  it('answers a malformed request line and an unknown method with 400 bad_request in the envelope', async () => {
    for (const request of ['GARBAGE\r\n\r\n', 'BREW /health HTTP/1.1\r\nHost: x\r\n\r\n', 'GET /health HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n']) {
      const res = await raw(request);
      expect(res.status, request).toBe(400);
      envelope(res.body, 'bad_request');
    }
  });

  it('answers a 10,000-character path parameter over HTTP with 414 url_too_long, without echoing it', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/core/v2/categories/${'a'.repeat(10_000)}`, { headers: { 'x-api-key': media.keys.admin } });
    expect(res.status).toBe(414);
    const body = await res.text();
    envelope(body, 'url_too_long');
    expect(body.length).toBeLessThan(300);
  });

  it('answers an unknown route or method with 404 route_not_found, echoing at most 200 characters', async () => {
    for (const [method, url] of [
      ['PUT', '/health'],
      ['GET', `/nowhere/${'b'.repeat(5_000)}`],
      ['DELETE', '/core/v2/media'],
    ] as const) {
      const res = await ctx.app.inject({ method, url });
      expect(res.statusCode).toBe(404);
      envelope(res.body, 'route_not_found');
      expect(res.body.length).toBeLessThan(300);
    }
  });
});

describe('input that used to answer 500', () => {
  it('answers a timestamp that is not one with 400 naming the field (POST /core/v2/reader-entitlements ends_at "yesterday")', async () => {
    const api = client(ctx.app, media.keys.admin);
    for (const bad of ['yesterday', 'tomorrow', '2026-02-30T00:00:00Z', '', '1700000000', 'now']) {
      for (const field of ['ends_at', 'starts_at']) {
        const res = await api.post('/core/v2/reader-entitlements', { reader_id: randomUUID(), product_key: 'p1', [field]: bad });
        expect(res.statusCode, `${field}=${bad}: ${res.body}`).toBe(400);
        expect(res.json().code).toBe('validation_failed');
        expect(res.json().details.map((d: { path: string }) => d.path)).toContain(field);
      }
    }
  });

  it('documents every timestamp input as format date-time', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const create = doc.components.schemas.ReaderEntitlementCreateInput.properties;
    expect(create.starts_at).toMatchObject({ type: 'string', format: 'date-time' });
    expect(JSON.stringify(create.ends_at)).toContain('"format":"date-time"');
    for (const [name, schema] of Object.entries(doc.components.schemas as Record<string, { properties?: Record<string, unknown> }>)) {
      for (const [field, property] of Object.entries(schema.properties ?? {})) {
        // An ad's window may be a wall-clock time read in the ad's own time zone (issue 13): said so, and patterned.
        const wallClock = /wall-clock time/.test(JSON.stringify(property)) && /"pattern"/.test(JSON.stringify(property));
        // Spec 2.16's show_published_at is a flag, not a time.
        const flag = (property as { type?: string }).type === 'boolean';
        if (/_at$/.test(field) && !wallClock && !flag) expect(JSON.stringify(property), `${name}.${field}`).toContain('"format":"date-time"');
      }
    }
  });

  it('answers a lone surrogate or NUL anywhere with 400 invalid_text (POST /community/v2/profile-types metadata "\\ud800x")', async () => {
    const api = client(ctx.app, media.keys.admin);
    const res = await api.post('/community/v2/profile-types', {
      key: `kind-${randomUUID().slice(0, 8)}`,
      locales: [{ locale: 'en', name: 'Kind' }],
      metadata: [{ key: 'k', value: '\ud800x' }],
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ error: expect.any(String), code: 'invalid_text', details: [{ path: 'metadata.0.value', message: expect.any(String) }] });
    expect((await api.get('/core/v2/categories?after=a%00b')).json().code).toBe('invalid_text');
  });
});

describe('a database that cannot be reached', () => {
  let app: App;
  let drop: () => Promise<void>;
  let closeDatabase: () => Promise<void>;

  beforeAll(async () => {
    const own = await createTestDatabase();
    drop = own.drop;
    let closing: Promise<void> | undefined;
    // The test closes the database under the running app; app.close() must not close it twice.
    closeDatabase = () => (closing ??= own.database.close());
    app = await buildApp({ config: testConfig(), database: { ...own.database, close: closeDatabase } });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await drop();
  });

  it('answers every route 503 database_unavailable with Retry-After, and /ready 503 in the envelope, never 500', async () => {
    const seeded = await seedMedia(app);
    const api = client(app, seeded.keys.admin);
    expect((await api.get('/core/v2/categories')).statusCode).toBe(200);
    await closeDatabase();

    expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    const ready = await app.inject({ method: 'GET', url: '/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'unavailable', error: expect.any(String), code: 'database_unavailable' });

    for (const res of [
      await api.get('/core/v2/categories'),
      await api.post('/core/v2/categories', { locales: [{ locale: 'en', name: 'Down' }] }),
      await api.get(`/core/v2/categories/${randomUUID()}`),
      await client(app, 'an-unknown-key-that-is-not-cached-0123456789').get('/core/v2/categories'),
    ]) {
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json()).toEqual({ error: expect.any(String), code: 'database_unavailable' });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.body).not.toMatch(/pglite|pool|select|categories/i);
    }
  });
});
