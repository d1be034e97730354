import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteEntry } from '../../src/shared/http/route-table.js';
import { type TestContext, createTestApp } from '../setup/app.js';
import { type SeededMedia, createCategory, client, seedMedia } from '../setup/factories.js';
import { type JwksTestProvider, startJwksProvider } from '../setup/identity-providers.js';
import { clientToken, registerClient, registerProvider } from '../setup/reader.js';

// Malformed requests on every operation of the route table (issue 7), read when the file is
// collected so that a route added later is fuzzed without touching this file. Each one must
// answer below 500, in the one error envelope, without repeating a long piece of the request.
/**
 * A 401 or 403 that judged the request's own content, not its credentials: a fuzzed preview token
 * (a declared header and query parameter of every Reader read) or a content the reader may not read.
 */
const JUDGED_ON_CONTENT = new Set(['preview_token_invalid', 'login_required', 'subscription_required', 'meter_exhausted']);
const codeOf = (body: string): string | undefined => {
  try {
    return (JSON.parse(body) as { code?: string }).code;
  } catch {
    return undefined;
  }
};

const RUNS_PER_ROUTE = 50;
const ECHO_LIMIT = 200;

const ctx: TestContext = await createTestApp({
  rateLimit: { backoffice: 10_000_000, reader: 10_000_000, anonymous: 10_000_000, token: 10_000_000 },
});
const routes: RouteEntry[] = ctx.app.routeTable;

let media: SeededMedia;
let jwks: JwksTestProvider;
let readerToken: string;
/** An application token for the routes whose scope readers' tokens do not carry (mailer:send). */
let mailerToken: string;
let categoryId: string;

beforeAll(async () => {
  media = await seedMedia(ctx.app);
  categoryId = (await createCategory(client(ctx.app, media.keys.admin))).id;
  // A signed-in reader, so that reader-only routes get as far as validating their input.
  jwks = await startJwksProvider();
  await registerProvider(ctx.app, media.keys.admin, jwks.registration);
  readerToken = await jwks.mint({ sub: 'fuzz-reader' });
  const verified = await ctx.app.inject({
    method: 'POST',
    url: '/api/media/v1/oauth/verify',
    headers: { 'x-service-media-id': media.mediaId, authorization: `Bearer ${readerToken}` },
  });
  expect([200, 201]).toContain(verified.statusCode);
  mailerToken = (await clientToken(ctx.app, await registerClient(ctx.app, media.keys.admin, ['mailer:send']))).access_token;
});
afterAll(async () => {
  await ctx.close();
  await jwks?.close();
});

// ---------------------------------------------------------------------------------------------
// The OpenAPI document says what each operation takes; the fuzzer bends it.

type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  format?: string;
  minLength?: number;
  maxLength?: number;
};
type Operation = {
  parameters?: Array<{ in: string; name: string; schema?: JsonSchema }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
};
const doc = ctx.app.swagger() as unknown as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema> };
};
const resolve = (schema: JsonSchema | undefined): JsonSchema | undefined => {
  let current = schema;
  for (let i = 0; current?.$ref && i < 10; i++) current = doc.components.schemas[current.$ref.split('/').pop()!];
  return current;
};
const operationOf = (route: RouteEntry): Operation =>
  doc.paths[route.url.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()] ?? {};

// Strings that have broken services before: too long, unstorable, not what they claim to be.
const LONG = 'x'.repeat(10_000);
const nastyString = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    LONG,
    'é'.repeat(5_000),
    '\ud800',
    '\udc00x',
    'a\ud800b',
    'a\u0000b',
    '\u0000',
    'yesterday',
    'tomorrow',
    '2026-02-30T00:00:00Z',
    '0000-01-01T00:00:00Z',
    '9999-12-31T23:59:59.999-14:00',
    '2026-13-01T00:00:00Z',
    '1e400',
    'NaN',
    '-1',
    'null',
    'true',
    '[]',
    '{}',
    '<script>alert(1)</script>',
    "' or 1=1 --",
    '../../etc/passwd',
    '%00',
    '%ED%A0%80',
    '__proto__',
    'constructor',
    '😀'.repeat(300),
    '00000000-0000-0000-0000-000000000000',
    'not-a-uuid',
  ),
  // Any code points, lone surrogates included (fc.string's 'binary' unit builds a map of all 1.1
  // million of them on first use: a second of this file's CPU and 130 MB to collect).
  fc.array(fc.integer({ min: 0, max: 0x10ffff }), { maxLength: 40 }).map((points) => String.fromCodePoint(...points)),
  fc.string({ minLength: 190, maxLength: 260 }),
  fc.uuid(),
);
const nastyKey = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'id', 'deleted_at', 'media_id', LONG, '\ud800', 'a\u0000'), fc.string({ maxLength: 12 }));
const nastyScalar = fc.oneof(
  nastyString,
  fc.integer(),
  fc.constantFrom(-1, 0, 2 ** 31, 2 ** 53 + 1, 1e308, -1e308, 0.5),
  fc.boolean(),
  fc.constant(null),
);
const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: nastyScalar },
  { weight: 1, arbitrary: fc.array(nastyScalar, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(nastyKey, nastyScalar, { maxKeys: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom([[[[[[[[]]]]]]]], Array.from({ length: 1_000 }, () => 'x'), { toString: 'x' }) },
);

const isoDate = fc.date({ min: new Date('1990-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString());

/** A value of the schema's type (often wrong in content) or, as often, one of the wrong type. */
function valueFor(schema: JsonSchema | undefined, depth: number): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  if (!s || depth > 3) return nastyValue;
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((a) => valueFor(a, depth + 1)), nastyValue);
  if (s.enum) return fc.oneof(fc.constantFrom(...s.enum), nastyValue);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'object':
      return fc.oneof({ weight: 3, arbitrary: objectFor(s, depth) }, { weight: 1, arbitrary: nastyValue });
    case 'array':
      return fc.oneof(fc.array(valueFor(s.items, depth + 1), { maxLength: 4 }), nastyValue);
    case 'string':
      if (s.format === 'date-time') return fc.oneof(isoDate, nastyString, nastyValue);
      if (s.format === 'uuid') return fc.oneof(fc.uuid(), nastyString, nastyValue);
      return fc.oneof(fc.string({ maxLength: Math.min(s.maxLength ?? 30, 30) }), nastyString, nastyValue);
    case 'integer':
    case 'number':
      return fc.oneof(fc.integer({ min: -5, max: 200 }), nastyValue);
    case 'boolean':
      return fc.oneof(fc.boolean(), nastyValue);
    default:
      return nastyValue;
  }
}

/** Some of the schema's fields with bent values, sometimes a field it does not know. */
function objectFor(s: JsonSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const fields = Object.fromEntries(Object.entries(s.properties ?? {}).map(([name, prop]) => [name, valueFor(prop, depth + 1)]));
  return fc
    .tuple(fc.record(fields, { requiredKeys: [] }), fc.option(fc.dictionary(nastyKey, nastyValue, { minKeys: 1, maxKeys: 2 }), { freq: 4 }))
    .map(([known, unknown]) => ({ ...known, ...unknown }));
}

/** Raw bodies that are not the JSON object a route takes, or not JSON at all. */
const rawBody = fc.constantFrom(
  '{"a": 1',
  '{a: 1}',
  'nul',
  '[]',
  'null',
  '42',
  '"string"',
  '{"name": "\\ud800"}',
  '{"name": "a\\u0000b"}',
  '{"\\ud800": "x"}',
  '{"__proto__": {"polluted": true}}',
  '{"constructor": {"prototype": {"polluted": true}}}',
  `{"a": ${'['.repeat(5_000)}${']'.repeat(5_000)}}`,
  `{"${LONG}": 1}`,
  '\u0000',
);
const contentType = fc.constantFrom(
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=latin1',
  'application/octet-stream',
  'application/json, text/plain',
);

// A path parameter or query value, percent-encoded even when it is not valid UTF-16.
function encode(value: string): string {
  try {
    return encodeURIComponent(value); // what the loop below gives a well-formed string, at once
  } catch {
    // a lone surrogate (URIError): encoded as its three UTF-8-like bytes, one character at a time
  }
  return [...value]
    .map((ch) => {
      const unit = ch.charCodeAt(0);
      if (ch.length === 1 && unit >= 0xd800 && unit <= 0xdfff) {
        return [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
      }
      return encodeURIComponent(ch);
    })
    .join('');
}

const PARAM = /:([A-Za-z_][A-Za-z0-9_]*)/g;
const plausibleParam = (name: string) => (/^id$|_id$/.test(name) ? (name === 'id' ? categoryId : randomUUID()) : name === 'ref' ? `p:${randomUUID()}` : 'en');
const paramValue = fc.oneof(nastyString, fc.constantFrom('a'.repeat(201), 'a'.repeat(10_000), '.', '..', '%2F', 'a/b'));

interface FuzzRequest {
  params: Record<string, string>;
  query: Record<string, string | string[]>;
  body?: unknown;
  raw?: string;
  contentType?: string;
}

function requestFor(route: RouteEntry): fc.Arbitrary<FuzzRequest> {
  const operation = operationOf(route);
  const names = [...route.url.matchAll(PARAM)].map((m) => m[1]!);
  const queryNames = (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
  const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
  const takesBody = bodySchema !== undefined || ['POST', 'PUT', 'PATCH'].includes(route.method);
  const value = fc.oneof(nastyString, fc.array(nastyString, { minLength: 2, maxLength: 3 }));
  const params = names.length
    ? fc.record(Object.fromEntries(names.map((n) => [n, fc.oneof({ weight: 1, arbitrary: fc.constant(plausibleParam(n)) }, { weight: 2, arbitrary: paramValue })])))
    : fc.constant({});
  const query = fc.dictionary(fc.oneof(fc.constantFrom(...queryNames, 'unknown', 'limit', 'after'), nastyKey), value, { maxKeys: 3 });
  const body = takesBody
    ? fc.oneof(
        { weight: 4, arbitrary: valueFor(bodySchema ?? { type: 'object' }, 0).map((b) => ({ body: b })) },
        { weight: 1, arbitrary: rawBody.map((raw) => ({ raw, contentType: 'application/json' })) },
        { weight: 1, arbitrary: fc.tuple(rawBody, contentType).map(([raw, type]) => ({ raw, contentType: type })) },
      )
    : fc.option(valueFor({ type: 'object' }, 0).map((b) => ({ body: b })), { freq: 4 }).map((b) => b ?? {});
  return fc.record({ params, query, extra: body }).map(({ params, query, extra }) => ({ params, query, ...extra }));
}

function urlOf(route: RouteEntry, req: FuzzRequest): string {
  const path = route.url.replace(PARAM, (_m, name: string) => encode(req.params[name] ?? ''));
  const pairs = Object.entries(req.query).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((item) => `${encode(k)}=${encode(item)}`));
  return pairs.length ? `${path}?${pairs.join('&')}` : path;
}

function headersFor(route: RouteEntry): Record<string, string> {
  if (route.interface === 'backoffice') return { 'x-api-key': media.keys.admin };
  if (route.interface === 'reader') {
    const token = route.scope === 'mailer:send' ? mailerToken : readerToken;
    return { 'x-service-media-id': media.mediaId, authorization: `Bearer ${token}` };
  }
  return {};
}

/** Every string the request carries, keys included, to look for in the answer. */
function stringsOf(req: FuzzRequest): string[] {
  const out: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      for (const [k, item] of Object.entries(v)) {
        out.push(k);
        walk(item);
      }
    }
  };
  walk(req.params);
  walk(req.query);
  walk(req.body);
  if (req.raw) out.push(req.raw);
  return out;
}

/**
 * What is wrong with an answer, as one message per broken rule (none: it is fine). Checked with one
 * `expect` per request: 20,000 requests with ten `expect`s each spent two seconds in the matchers.
 */
function problemsOf(route: RouteEntry, req: FuzzRequest, res: LightMyRequestResponse): string[] {
  if (res.statusCode >= 500) return ['a 5xx'];
  if (res.statusCode < 400) return [];
  const problems: string[] = [];
  if (!/^application\/json/.test(String(res.headers['content-type']))) problems.push(`content-type ${res.headers['content-type']}`);
  let body: Record<string, unknown>;
  try {
    body = res.json() as Record<string, unknown>;
  } catch {
    return [...problems, 'a body that is not JSON'];
  }
  // The envelope, or RFC 6749's error object (which keeps the envelope's code) where a route says so.
  const keys = route.ownErrorFormat ? ['error', 'error_description', 'code', 'details'] : ['error', 'code', 'details'];
  const unknown = Object.keys(body).filter((k) => !keys.includes(k));
  if (unknown.length) problems.push(`fields outside the envelope: ${unknown.join(', ')}`);
  if (route.ownErrorFormat) {
    if (typeof body.error !== 'string' || !/^[a-z_]+$/.test(body.error)) problems.push('an RFC 6749 error that is not a code');
    if (typeof body.error_description !== 'string') problems.push('no error_description');
  }
  if (typeof body.error !== 'string') problems.push('error is not a string');
  if (typeof body.code !== 'string' || !/^[a-z][a-z0-9_]*$/.test(body.code)) problems.push(`code ${JSON.stringify(body.code)}`);
  if ('details' in body) {
    if (!Array.isArray(body.details)) problems.push('details is not an array');
    else {
      for (const detail of body.details as Array<Record<string, unknown>>) {
        const fields = detail && typeof detail === 'object' ? Object.keys(detail).sort().join(',') : String(detail);
        if (fields !== 'message,path' || typeof detail.path !== 'string' || typeof detail.message !== 'string') {
          problems.push(`a detail that is not {path, message}: ${JSON.stringify(detail).slice(0, 200)}`);
        }
      }
    }
  }
  for (const s of stringsOf(req).filter((s) => s.length > ECHO_LIMIT)) {
    if (res.body.includes(s.slice(0, ECHO_LIMIT + 1)) || res.body.includes(JSON.stringify(s).slice(1, ECHO_LIMIT + 2))) {
      problems.push('echoes its input');
    }
  }
  return problems;
}

function check(route: RouteEntry, req: FuzzRequest, res: LightMyRequestResponse) {
  const problems = problemsOf(route, req, res);
  if (problems.length) expect(problems, `${route.method} ${route.url} → ${res.statusCode} ${res.body.slice(0, 300)}`).toEqual([]);
}

describe('malformed requests on every operation of the route table', () => {
  it('has operations to fuzz, each documented', () => {
    expect(routes.length).toBeGreaterThan(50);
    for (const route of routes) expect(doc.paths[route.url.replace(/:(\w+)/g, '{$1}')], route.url).toBeDefined();
  });

  it.each(routes.map((r) => [`${r.method} ${r.url}`, r] as const))('%s: never a 5xx, always the envelope, no long echo', async (_name, route) => {
    const send = (req: FuzzRequest) => {
      const headers = headersFor(route);
      let payload: string | undefined;
      if (req.raw !== undefined) {
        headers['content-type'] = req.contentType ?? 'application/json';
        payload = req.raw;
      } else if (req.body !== undefined) {
        headers['content-type'] = 'application/json';
        payload = JSON.stringify(req.body);
      }
      return ctx.app.inject({ method: route.method as 'GET', url: urlOf(route, req), headers, ...(payload !== undefined && { payload }) });
    };
    // The cases issue 7 found, on every route, before the generated ones.
    const names = [...route.url.matchAll(PARAM)].map((m) => m[1]!);
    const fixed: FuzzRequest[] = [
      { params: Object.fromEntries(names.map((n) => [n, 'a'.repeat(10_000)])), query: {} },
      { params: Object.fromEntries(names.map((n) => [n, plausibleParam(n)])), query: { q: 'a\u0000b', limit: '\ud800' } },
      { params: Object.fromEntries(names.map((n) => [n, plausibleParam(n)])), query: {}, body: { name: '\ud800x', metadata: [{ key: 'k', value: '\ud800x' }] } },
      { params: Object.fromEntries(names.map((n) => [n, plausibleParam(n)])), query: {}, body: { starts_at: 'yesterday', ends_at: 'yesterday', expires_at: 'yesterday' } },
      { params: Object.fromEntries(names.map((n) => [n, plausibleParam(n)])), query: {}, raw: '{"a": "\\u0000"}' },
    ];
    let pastAuth = 0;
    await fc.assert(
      fc.asyncProperty(requestFor(route), async (req) => {
        const res = await send(req);
        check(route, req, res);
        if ((res.statusCode !== 401 && res.statusCode !== 403) || JUDGED_ON_CONTENT.has(codeOf(res.body) ?? "")) pastAuth++;
      }),
      { numRuns: RUNS_PER_ROUTE, examples: fixed.map((f) => [f] as [FuzzRequest]) },
    );
    // The credentials are good: the requests were judged on their content, not refused at the door.
    expect(pastAuth).toBeGreaterThanOrEqual(RUNS_PER_ROUTE);
  });
});
