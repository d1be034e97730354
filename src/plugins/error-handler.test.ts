import Fastify, { type FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../db/connection-errors.js';
import { AppError } from '../shared/errors.js';
import { envelopeServerOptions, errorHandlerPlugin } from './error-handler.js';
import { findBadText } from './text-rule.js';

// What Drizzle throws: its own error with the driver's error as `cause`.
const drizzleError = (cause: Record<string, unknown>) =>
  Object.assign(new Error('Failed query: insert into "things" ...\nparams: secret'), { cause: Object.assign(new Error(String(cause.message ?? 'x')), cause) });

let app: FastifyInstance;
let toThrow: unknown;

beforeAll(async () => {
  app = Fastify({ logger: false, routerOptions: { maxParamLength: 200 }, ...envelopeServerOptions });
  await app.register(errorHandlerPlugin);
  app.get('/throw', async () => {
    throw toThrow;
  });
  app.post('/echo/:name', async (req) => ({ ok: true, body: req.body }));
  await app.ready();
});
afterAll(() => app.close());

const thrown = async (err: unknown) => {
  toThrow = err;
  return app.inject({ method: 'GET', url: '/throw' });
};

describe('the error handler', () => {
  it.each([
    ['SQLSTATE 08006 (connection failure)', drizzleError({ code: '08006' })],
    ['SQLSTATE 08001 (cannot connect)', drizzleError({ code: '08001' })],
    ['SQLSTATE 57P01 (admin shutdown)', drizzleError({ code: '57P01' })],
    ['SQLSTATE 57P02 (crash shutdown)', drizzleError({ code: '57P02' })],
    ['SQLSTATE 57P03 (starting up)', drizzleError({ code: '57P03' })],
    ['ECONNREFUSED', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['ECONNRESET under Drizzle', drizzleError({ code: 'ECONNRESET', message: 'read ECONNRESET' })],
    ['an AggregateError of refused connections', new AggregateError([Object.assign(new Error('refused'), { code: 'ECONNREFUSED' })], 'x')],
    ["pg's Connection terminated unexpectedly", drizzleError({ message: 'Connection terminated unexpectedly' })],
    ["pg's Connection terminated", new Error('Connection terminated')],
    ['a client that is not queryable', new Error('Client has encountered a connection error and is not queryable')],
    ["the pool's connect timeout", new Error('timeout exceeded when trying to connect')],
    ['a pool that was ended', new Error('Cannot use a pool after calling end on the pool')],
    ['a closed PGlite', drizzleError({ message: 'PGlite is closed' })],
  ])('answers %s with 503 database_unavailable and Retry-After', async (_name, err) => {
    expect(isDatabaseUnavailable(err)).toBe(true);
    const res = await thrown(err);
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ error: expect.any(String), code: 'database_unavailable' });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('does not take a query error for an outage', async () => {
    expect(isDatabaseUnavailable(drizzleError({ code: '42P01', message: 'relation "x" does not exist' }))).toBe(false);
    const res = await thrown(drizzleError({ code: '42P01', message: 'relation "x" does not exist' }));
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: 'internal error', code: 'internal' });
  });

  it('answers a unique violation that reached it with 409 conflict, and a foreign-key violation too', async () => {
    for (const code of ['23505', '23503']) {
      const res = await thrown(drizzleError({ code, message: 'duplicate key value violates unique constraint "things_pkey"' }));
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ error: expect.any(String), code: 'conflict' });
      expect(res.body).not.toMatch(/things|violates|secret/);
    }
  });
});

describe('the one string rule', () => {
  it.each([
    ['a NUL escape in the body', '{"name": "a\\u0000b"}', 'name'],
    ['a lone high surrogate escape', '{"metadata": [{"key": "k", "value": "\\ud800x"}]}', 'metadata.0.value'],
    ['a lone low surrogate escape', '{"a": {"b": ["ok", "\\udc00"]}}', 'a.b.1'],
    ['a reversed pair', '{"a": "\\udc00\\ud800"}', 'a'],
    ['a bad key', '{"\\ud800": 1}', '\uFFFD'],
  ])('answers %s with 400 invalid_text naming the field', async (_name, payload, path) => {
    const res = await app.inject({ method: 'POST', url: '/echo/x', payload, headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: expect.any(String), code: 'invalid_text', details: [{ path, message: expect.any(String) }] });
  });

  it('applies to query strings and path parameters', async () => {
    for (const url of ['/echo/x?q=a%00b', '/echo/a%00b', '/echo/x?q=%ED%A0%80']) {
      const res = await app.inject({ method: 'POST', url, payload: {} });
      expect(res.statusCode, url).toBeLessThan(500);
    }
    expect((await app.inject({ method: 'POST', url: '/echo/x?q=a%00b', payload: {} })).json().code).toBe('invalid_text');
    expect((await app.inject({ method: 'POST', url: '/echo/a%00b', payload: {} })).json().code).toBe('invalid_text');
  });

  it('lets well-formed text through: pairs, emoji, every plane', async () => {
    const payload = { name: 'é 😀 \u{10FFFF} 中文 \uFFFD', list: ['\ud83d\ude00'] };
    const res = await app.inject({ method: 'POST', url: '/echo/x', payload });
    expect(res.statusCode).toBe(200);
    expect(res.json().body).toEqual(payload);
  });

  it('walks a deeply nested value without overflowing the stack', () => {
    let deep: unknown = 'a\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findBadText(deep)).toMatch(/^0(\.0)*$/);
  });
});

describe('the router refusals', () => {
  it('answers a 10,000-character path parameter with 414 url_too_long, without echoing it', async () => {
    const res = await app.inject({ method: 'POST', url: `/echo/${'a'.repeat(10_000)}`, payload: {} });
    expect(res.statusCode).toBe(414);
    expect(res.json()).toEqual({ error: expect.any(String), code: 'url_too_long' });
    expect(res.body).not.toContain('aaaaaaaaaa');
  });

  it('answers an undecodable URL with 400 bad_request', async () => {
    const res = await app.inject({ method: 'POST', url: '/echo/%E0%A4%A', payload: {} });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: expect.any(String), code: 'bad_request' });
  });
});

describe('the log line of a 503', () => {
  it("names the database only when the database is the cause: the service's own back-pressure is 'service busy'", async () => {
    const lines: Array<{ msg: string; code?: string; level: number }> = [];
    const logged = Fastify({
      loggerInstance: pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) }),
      ...envelopeServerOptions,
    });
    await logged.register(errorHandlerPlugin);
    let next: unknown;
    logged.get('/throw', async () => {
      throw next;
    });
    await logged.ready();
    try {
      next = new AppError(503, 'transforms_busy', 'too many images are being resized right now; retry shortly');
      expect((await logged.inject({ method: 'GET', url: '/throw' })).json()).toEqual({ error: expect.any(String), code: 'transforms_busy' });
      next = drizzleError({ code: '08006' });
      expect((await logged.inject({ method: 'GET', url: '/throw' })).json()).toEqual({ error: expect.any(String), code: 'database_unavailable' });
      const warnings = lines.filter((l) => l.level === 40).map((l) => ({ msg: l.msg, code: l.code }));
      expect(warnings).toEqual([
        { msg: 'service busy', code: 'transforms_busy' },
        { msg: 'database unavailable', code: undefined },
      ]);
    } finally {
      await logged.close();
    }
  });
});
