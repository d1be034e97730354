import { randomBytes, randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../setup/app.js';
import { expectError as expectEnvelope } from '../setup/expect.js';
import { type Client, type SeededMedia, client, createCategory, seedMedia } from '../setup/factories.js';

let ctx: TestContext;
let seeded: SeededMedia;
let api: Client;

beforeAll(async () => {
  ctx = await createTestApp();
  seeded = await seedMedia(ctx.app);
  api = client(ctx.app, seeded.keys.admin);
  // Enough rows for every listing to have a second page, so that real cursors exist.
  for (let i = 0; i < 3; i++) await createCategory(api);
});
afterAll(() => ctx.close());

// Anything that would tell a client how the service is built.
const LEAKS = [
  /\n\s+at /,
  /node_modules/,
  /\.[cm]?[jt]s:\d+/,
  /\bselect\b[\s\S]*\bfrom\b/i,
  /\binsert into\b/i,
  /\bupdate\b[\s\S]*\bset\b/i,
  /postgres/i,
  /pglite/i,
  /drizzle/i,
  /sqlstate/i,
  /violates/i,
  /stack/i,
  /FST_/,
  /ZodError/,
];

/** The one error envelope, with the expected status and code, and nothing internal in it. */
function expectError(res: LightMyRequestResponse, status: number, code?: string) {
  const body = expectEnvelope(res, status, code);
  for (const leak of LEAKS) expect(res.body, `leaks ${leak}`).not.toMatch(leak);
  return body;
}

/** Every live row of a listing, following meta.next. */
async function countOf(path: string): Promise<number> {
  let count = 0;
  let url: string | null = `${path}?limit=100`;
  while (url) {
    const res = await api.get(url);
    expect(res.statusCode, res.body).toBe(200);
    count += res.json().data.length;
    url = res.json().meta.next;
  }
  return count;
}

const LISTS = ['/core/v2/categories', '/core/v2/workspaces', '/core/v2/statuses', '/core/v2/api-keys'];

/** Counts every listing, runs the work, and checks that no listing grew or shrank. */
async function writesNothing(work: () => Promise<void>) {
  const before = await Promise.all(LISTS.map((p) => countOf(p)));
  await work();
  expect(await Promise.all(LISTS.map((p) => countOf(p)))).toEqual(before);
}

const raw = (method: 'POST' | 'PATCH', url: string, payload: string | Buffer, contentType = 'application/json') =>
  ctx.app.inject({ method, url, payload, headers: { 'x-api-key': seeded.keys.admin, 'content-type': contentType } });

const validCategory = () => ({ locales: [{ locale: 'en', name: `Valid ${randomUUID().slice(0, 8)}` }] });

describe('malformed bodies', () => {
  it('answers 400 invalid_json to JSON that does not parse, and writes nothing', async () => {
    const category = await createCategory(api);
    await writesNothing(async () => {
      for (const payload of ['{"locales": [', '{locales: []}', "{'a': 1}", '{"a": 1,}', 'nul', '{"a": 1}}', '\u0000']) {
        expectError(await raw('POST', '/core/v2/categories', payload), 400, 'invalid_json');
        expectError(await raw('PATCH', `/core/v2/categories/${category.id}`, payload), 400, 'invalid_json');
        expectError(await raw('POST', '/core/v2/workspaces', payload), 400, 'invalid_json');
      }
      expectError(await raw('POST', '/core/v2/categories', Buffer.from([0xff, 0xfe, 0x7b, 0x00])), 400, 'invalid_json');
    });
    expect((await api.get(`/core/v2/categories/${category.id}`)).json().data).toEqual(category);
  });

  it('answers 400 validation_failed to JSON that is not an object', async () => {
    await writesNothing(async () => {
      for (const payload of ['null', '[]', '"locales"', '42', 'true', '[{"locale": "en", "name": "x"}]']) {
        expectError(await raw('POST', '/core/v2/categories', payload), 400, 'validation_failed');
        expectError(await raw('POST', '/core/v2/api-keys', payload), 400, 'validation_failed');
      }
    });
  });

  it('answers 415 unsupported_media_type to a body that is not JSON, and writes nothing', async () => {
    await writesNothing(async () => {
      const body = JSON.stringify(validCategory());
      for (const type of ['text/plain', 'text/plain; charset=utf-8', 'application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
        expectError(await raw('POST', '/core/v2/categories', body, type), 415, 'unsupported_media_type');
        expectError(await raw('POST', '/core/v2/api-keys', JSON.stringify({ name: 'x', role: 'admin' }), type), 415, 'unsupported_media_type');
      }
    });
  });

  it('survives deeply nested JSON without a 5xx', async () => {
    await writesNothing(async () => {
      const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
      const res = await raw('POST', '/core/v2/categories', `{"locales": ${deep}}`);
      expectError(res, 400);
      const objects = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
      expectError(await raw('POST', '/core/v2/categories', objects), 400);
    });
  });
});

describe('a body over the size limit', () => {
  let small: TestContext;
  let smallKey: string;

  beforeAll(async () => {
    small = await createTestApp({ bodyLimit: 1024 });
    smallKey = (await seedMedia(small.app)).keys.admin;
  });
  afterAll(() => small.close());

  it('answers 413 payload_too_large and writes nothing', async () => {
    const smallApi = client(small.app, smallKey);
    const before = (await smallApi.get('/core/v2/categories?limit=100')).json().data.length;
    const body = JSON.stringify({ locales: [{ locale: 'en', name: 'Big', description: 'x'.repeat(1500) }] });
    expect(body.length).toBeGreaterThan(1024);
    expectError(await smallApi.post('/core/v2/categories', body, { 'content-type': 'application/json' }), 413, 'payload_too_large');
    // The same body under the limit is accepted, so the size alone decided.
    const fits = JSON.stringify({ locales: [{ locale: 'en', name: 'Small', description: 'x'.repeat(500) }] });
    expect((await smallApi.post('/core/v2/categories', fits, { 'content-type': 'application/json' })).statusCode).toBe(201);
    expect((await smallApi.get('/core/v2/categories?limit=100')).json().data.length).toBe(before + 1);
  });

  it('answers 413 even when content-length is not announced up front', async () => {
    const res = await small.app.inject({
      method: 'POST',
      url: '/core/v2/categories',
      payload: Buffer.alloc(4096, 0x20),
      headers: { 'x-api-key': smallKey, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
    });
    expectError(res, 413, 'payload_too_large');
  });
});

describe('unknown and server-owned fields', () => {
  it('refuses unknown fields with 400 validation_failed naming the field', async () => {
    const refId = randomUUID();
    await writesNothing(async () => {
      const cases: Array<[string, Record<string, unknown>]> = [
        ['/core/v2/categories', { ...validCategory(), colour: 'red' }],
        ['/core/v2/categories', { locales: [{ locale: 'en', name: 'x', colour: 'red' }] }],
        ['/core/v2/workspaces', { key: 'colourful', name: 'x', colour: 'red' }],
        ['/core/v2/statuses', { key: 'colourful', name: 'x', colour: 'red' }],
        ['/core/v2/api-keys', { name: 'x', role: 'viewer', colour: 'red' }],
        ['/core/v2/references', { provider: 'p', id: refId, urn: `urn:mps:category:${randomUUID()}`, colour: 'red' }],
        ['/core/v2/references/lookup', { refs: [`p:${randomUUID()}`], colour: 'red' }],
      ];
      for (const [url, body] of cases) {
        const error = expectError(await api.post(url, body), 400, 'validation_failed');
        expect(error.details, url).toEqual(
          expect.arrayContaining([expect.objectContaining({ message: expect.stringMatching(/colour/) })]),
        );
      }
    });
    expect((await api.post('/core/v2/references/lookup', { refs: [`p:${refId}`] })).json()).toEqual({ data: [] });
  });

  it('refuses server-owned fields on create and update', async () => {
    const category = await createCategory(api);
    const workspace = (await api.post('/core/v2/workspaces', { key: `ws-${randomUUID().slice(0, 8)}`, name: 'W' })).json().data;
    await writesNothing(async () => {
      for (const field of ['id', 'media_id', 'inserted_at', 'updated_at', 'deleted_at', 'workspace_id']) {
        const value = field.endsWith('_at') ? new Date().toISOString() : randomUUID();
        expectError(await api.patch(`/core/v2/categories/${category.id}`, { [field]: value }), 400, 'validation_failed');
        expectError(await api.patch(`/core/v2/workspaces/${workspace.id}`, { [field]: value }), 400, 'validation_failed');
        expectError(await api.post('/core/v2/api-keys', { name: 'x', role: 'viewer', [field]: value }), 400, 'validation_failed');
      }
      for (const field of ['key', 'key_hash', 'prefix', 'revoked_at', 'last_used_at']) {
        expectError(await api.post('/core/v2/api-keys', { name: 'x', role: 'viewer', [field]: 'mps_chosen' }), 400, 'validation_failed');
      }
      expectError(await api.patch('/core/v2/media', { id: randomUUID() }), 400, 'validation_failed');
    });
    expect((await api.get(`/core/v2/categories/${category.id}`)).json().data).toEqual(category);
    expect((await api.get(`/core/v2/workspaces/${workspace.id}`)).json().data).toEqual(workspace);
  });
});

describe('type confusion and out-of-range values', () => {
  it('refuses a value of the wrong type in every field', async () => {
    const category = await createCategory(api);
    await writesNothing(async () => {
      const cases: Array<[string, Record<string, unknown>, string]> = [
        ['/core/v2/categories', { ...validCategory(), is_archived: 'true' }, 'is_archived'],
        ['/core/v2/categories', { ...validCategory(), is_archived: 1 }, 'is_archived'],
        ['/core/v2/categories', { ...validCategory(), svg_icon: true }, 'svg_icon'],
        ['/core/v2/categories', { locales: true }, 'locales'],
        ['/core/v2/categories', { locales: { locale: 'en', name: 'x' } }, 'locales'],
        ['/core/v2/categories', { locales: [{ locale: 'en', name: true }] }, 'locales.0.name'],
        ['/core/v2/categories', { locales: [{ locale: true, name: 'x' }] }, 'locales.0.locale'],
        ['/core/v2/categories', { locales: [{ locale: 'en', name: ['x'] }] }, 'locales.0.name'],
        ['/core/v2/categories', { locales: [{ locale: 'en', name: { toString: 'x' } }] }, 'locales.0.name'],
        ['/core/v2/workspaces', { key: true, name: 'x' }, 'key'],
        ['/core/v2/workspaces', { key: 'ok', name: 123 }, 'name'],
        ['/core/v2/statuses', { key: 'typed', name: 'x', is_published: 'true' }, 'is_published'],
        ['/core/v2/api-keys', { name: 'x', role: true }, 'role'],
        ['/core/v2/api-keys', { name: 'x', role: 'superuser' }, 'role'],
        ['/core/v2/api-keys', { name: 'x', role: 'viewer', expires_at: 1_700_000_000 }, 'expires_at'],
        ['/core/v2/api-keys', { name: 'x', role: 'viewer', expires_at: 'tomorrow' }, 'expires_at'],
        ['/core/v2/references', { provider: 'p', urn: true }, 'urn'],
        ['/core/v2/references', { provider: 'p', id: 12, urn: `urn:mps:category:${randomUUID()}` }, 'id'],
        ['/core/v2/references/lookup', { refs: `p:${randomUUID()}` }, 'refs'],
        ['/core/v2/references/lookup', { refs: [true] }, 'refs.0'],
      ];
      for (const [url, body, path] of cases) {
        const error = expectError(await api.post(url, body), 400, 'validation_failed');
        expect(error.details?.map((d) => d.path), `${url} ${JSON.stringify(body)}`).toContain(path);
      }
      for (const patch of [{ is_archived: 'true' }, { is_archived: null }, { svg_icon: 42 }, { locales: 'en' }]) {
        const res = await api.patch(`/core/v2/categories/${category.id}`, patch);
        expect(expectError(res, 400, 'validation_failed').details?.map((d) => d.path)).toContain(Object.keys(patch)[0]);
      }
    });
    expect((await api.get(`/core/v2/categories/${category.id}`)).json().data).toEqual(category);
  });

  it('refuses strings and arrays over their maximum size', async () => {
    await writesNothing(async () => {
      const long = (n: number) => 'x'.repeat(n);
      const cases: Array<[string, Record<string, unknown>]> = [
        ['/core/v2/categories', { locales: [{ locale: 'en', name: long(201) }] }],
        ['/core/v2/categories', { locales: [{ locale: 'en', name: 'x', description: long(2001) }] }],
        ['/core/v2/categories', { ...validCategory(), svg_icon: `<svg>${long(20_000)}</svg>` }],
        ['/core/v2/categories', { locales: Array.from({ length: 51 }, (_, i) => ({ locale: 'en', name: `n${i}` })) }],
        ['/core/v2/categories', { locales: [{ locale: 'en', name: '   ' }] }],
        ['/core/v2/workspaces', { key: long(64), name: 'x' }],
        ['/core/v2/workspaces', { key: 'ok', name: long(201) }],
        ['/core/v2/statuses', { key: long(64), name: 'x' }],
        ['/core/v2/api-keys', { name: long(201), role: 'viewer' }],
        ['/core/v2/references', { provider: long(64), urn: `urn:mps:category:${randomUUID()}` }],
        ['/core/v2/references/lookup', { refs: Array.from({ length: 101 }, () => `p:${randomUUID()}`) }],
        ['/core/v2/references/lookup', { refs: [] }],
      ];
      for (const [url, body] of cases) {
        expectError(await api.post(url, body), 400, 'validation_failed');
      }
    });
  });

  it('refuses text that PostgreSQL cannot store (a NUL character) without a 5xx', async () => {
    await writesNothing(async () => {
      for (const [url, body] of [
        ['/core/v2/categories', { locales: [{ locale: 'en', name: 'a\u0000b' }] }],
        ['/core/v2/categories', { locales: [{ locale: 'en', name: 'x', description: 'a\u0000b' }] }],
        ['/core/v2/workspaces', { key: 'nul-name', name: 'a\u0000b' }],
        ['/core/v2/api-keys', { name: 'a\u0000b', role: 'viewer' }],
      ] as const) {
        expectError(await api.post(url, body), 400, 'invalid_text');
      }
      const category = await createCategory(api);
      const patch = await api.patch(`/core/v2/categories/${category.id}`, { locales: [{ locale: 'en', name: 'a\u0000b' }] });
      expectError(patch, 400, 'invalid_text');
      expect((await api.get(`/core/v2/categories/${category.id}`)).json().data).toEqual(category);
      expect((await api.delete(`/core/v2/categories/${category.id}`)).statusCode).toBe(204);
    });
  });

  it('answers timestamps at the edges of the calendar with a 201 that round-trips or a 400, never a 5xx', async () => {
    const edges = [
      '9999-12-31T23:59:59.999-14:00',
      '9999-12-31T23:59:59.999Z',
      '0000-01-01T00:00:00Z',
      '0001-01-01T00:00:00Z',
      '0049-06-01T00:00:00Z',
      '1000-01-01T00:00:00+01:00',
      '1000-01-01T00:00:00Z',
      '2026-02-30T00:00:00Z',
    ];
    const keysBefore = await countOf('/core/v2/api-keys');
    let keysCreated = 0;
    for (const expires of edges) {
      for (const [url, body] of [
        ['/core/v2/api-keys', { name: 'edge', role: 'viewer', expires_at: expires }],
        ['/core/v2/references', { provider: 'edge', urn: `urn:mps:category:${randomUUID()}`, expires_at: expires }],
      ] as const) {
        const res = await api.post(url, body);
        expect(res.statusCode, `${url} ${expires}: ${res.body}`).toBeLessThan(500);
        if (res.statusCode === 201) {
          expect(Date.parse(res.json().data.expires_at), `${url} ${expires}`).toBe(Date.parse(expires));
          if (url === '/core/v2/api-keys') keysCreated++;
        } else {
          expectError(res, 400);
        }
      }
    }
    // A refused timestamp leaves no key behind whose secret nobody was shown.
    expect(await countOf('/core/v2/api-keys')).toBe(keysBefore + keysCreated);
    expectError(await api.post('/core/v2/api-keys', { name: 'edge', role: 'viewer', expires_at: edges[0] }), 400, 'validation_failed');
  });

  it.each(['0', '101', '-1', '1.5', 'abc', '1e1', '', ' 1', '0x10', '10000000000', '99999999999999999999', 'true'])(
    'refuses limit=%j with 400',
    async (limit) => {
      for (const path of LISTS) {
        expectError(await api.get(`${path}?limit=${encodeURIComponent(limit)}`), 400, 'validation_failed');
      }
    },
  );

  it('refuses a limit given twice, and accepts the bounds 1 and 100', async () => {
    expectError(await api.get('/core/v2/categories?limit=1&limit=2'), 400, 'validation_failed');
    expect((await api.get('/core/v2/categories?limit=1')).json().data).toHaveLength(1);
    expect((await api.get('/core/v2/categories?limit=100')).statusCode).toBe(200);
  });
});

describe('tampered cursors', () => {
  let cursor: string;

  beforeAll(async () => {
    const next = (await api.get('/core/v2/categories?limit=1')).json().meta.next as string;
    cursor = new URL(next, 'http://local').searchParams.get('after')!;
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect((await api.get(`/core/v2/categories?limit=1&after=${cursor}`)).statusCode).toBe(200);
  });

  const flip = (s: string, i: number) => `${s.slice(0, i)}${s[i] === 'A' ? 'B' : 'A'}${s.slice(i + 1)}`;

  const tampered = () => {
    const [payload, mac] = cursor.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify(['2000-01-01T00:00:00.000Z', randomUUID()])).toString('base64url');
    const injected = Buffer.from(JSON.stringify(["'; drop table categories; --", randomUUID()])).toString('base64url');
    return {
      'a flipped character in the payload': `${flip(payload, Math.floor(payload.length / 2))}.${mac}`,
      'a flipped first character in the payload': `${flip(payload, 0)}.${mac}`,
      'a flipped character in the mac': `${payload}.${flip(mac, 0)}`,
      'a flipped middle character in the mac': `${payload}.${flip(mac, Math.floor(mac.length / 2))}`,
      'a forged payload with the old mac': `${forged}.${mac}`,
      'an injected payload with the old mac': `${injected}.${mac}`,
      'a random base64 string': randomBytes(48).toString('base64url'),
      'random base64 with a dot': `${randomBytes(24).toString('base64url')}.${randomBytes(16).toString('base64url')}`,
      'no dot at all': payload + mac,
      'the payload alone': payload,
      'an empty mac': `${payload}.`,
      'an empty payload': `.${mac}`,
      'a third part': `${cursor}.${mac}`,
      'plain JSON': JSON.stringify(['2000-01-01T00:00:00.000Z', randomUUID()]),
      'non-base64 characters': `${payload}!.${mac}`,
      'a dot alone': '.',
    };
  };

  it('answers 400 invalid_cursor to each tampered cursor, as after and as before', async () => {
    for (const [name, value] of Object.entries(tampered())) {
      for (const param of ['after', 'before']) {
        const res = await api.get(`/core/v2/categories?limit=1&${param}=${encodeURIComponent(value)}`);
        expect(res.statusCode, `${name} as ${param}`).toBe(400);
        expectError(res, 400, 'invalid_cursor');
      }
    }
  });

  it('answers 400 to a cursor that is empty or too long', async () => {
    expectError(await api.get('/core/v2/categories?after='), 400);
    expectError(await api.get(`/core/v2/categories?after=${'A'.repeat(600)}.${'B'.repeat(22)}`), 400);
  });

  it('answers 400 invalid_cursor to after and before together, even when both are genuine', async () => {
    expectError(await api.get(`/core/v2/categories?after=${cursor}&before=${cursor}`), 400, 'invalid_cursor');
  });
});

describe('prototype pollution', () => {
  const payloads = [
    '{"__proto__": {"polluted": true}, "locales": [{"locale": "en", "name": "p"}]}',
    '{"locales": [{"locale": "en", "name": "p", "__proto__": {"polluted": true}}]}',
    '{"constructor": {"prototype": {"polluted": true}}, "locales": [{"locale": "en", "name": "p"}]}',
    '{"locales": [{"locale": "en", "name": "p", "constructor": {"prototype": {"polluted": true}}}]}',
    '{"locales": [{"locale": "en", "name": "p"}], "\\u005f_proto__": {"polluted": true}}',
  ];

  it('answers 4xx to __proto__ and constructor.prototype payloads, writes nothing and pollutes nothing', async () => {
    const category = await createCategory(api);
    await writesNothing(async () => {
      for (const payload of payloads) {
        for (const [method, url] of [
          ['POST', '/core/v2/categories'],
          ['PATCH', `/core/v2/categories/${category.id}`],
          ['POST', '/core/v2/workspaces'],
          ['POST', '/core/v2/api-keys'],
          ['PATCH', '/core/v2/media'],
        ] as const) {
          const res = await raw(method, url, payload);
          expect(res.statusCode, `${method} ${url} ${payload}`).toBeGreaterThanOrEqual(400);
          expect(res.statusCode, `${method} ${url} ${payload}`).toBeLessThan(500);
          expectError(res, res.statusCode);
        }
      }
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect((await api.get(`/core/v2/categories/${category.id}`)).json().data).toEqual(category);
  });

  it('ignores or refuses pollution attempts in the query string, never 5xx', async () => {
    for (const query of ['__proto__[polluted]=1', '__proto__.polluted=1', 'constructor[prototype][polluted]=1', '__proto__=1&limit=1']) {
      const res = await api.get(`/core/v2/categories?${query}`);
      expect(res.statusCode, query).toBeLessThan(500);
      if (res.statusCode >= 400) expectError(res, res.statusCode);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
