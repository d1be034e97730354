import { createHash, randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { apiKeySchema, createdApiKeySchema } from '../../../src/modules/core/api-keys/api-keys.schemas.js';
import { apiKeys } from '../../../src/modules/core/api-keys/api-keys.table.js';
import { type TestContext, createTestApp, statementsDuring } from '../../setup/app.js';
import { ISO_MS, UUID, expectError } from '../../setup/expect.js';
import { type Client, type SeededMedia, client, seedMedia } from '../../setup/factories.js';

let ctx: TestContext;
let seeded: SeededMedia;
let admin: Client;
let editor: Client;
let viewer: Client;

beforeAll(async () => {
  ctx = await createTestApp();
  seeded = await seedMedia(ctx.app);
  admin = client(ctx.app, seeded.keys.admin);
  editor = client(ctx.app, seeded.keys.editor);
  viewer = client(ctx.app, seeded.keys.viewer);
});
afterAll(() => ctx.close());

const PUBLIC_FIELDS = ['expires_at', 'id', 'inserted_at', 'last_used_at', 'name', 'prefix', 'revoked_at', 'role', 'updated_at'];

type ApiKeyWire = z.output<typeof apiKeySchema>;
type CreatedApiKeyWire = z.output<typeof createdApiKeySchema>;

// Both drivers answer db.execute with { rows }.
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

async function createKey(api: Client, body: Record<string, unknown> = {}): Promise<CreatedApiKeyWire> {
  const res = await api.post('/core/v2/api-keys', { name: `Key ${randomUUID().slice(0, 8)}`, role: 'editor', ...body });
  if (res.statusCode !== 201) throw new Error(`createKey: ${res.statusCode} ${res.body}`);
  return res.json().data as CreatedApiKeyWire;
}

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 3_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('waitFor: timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('POST /core/v2/api-keys', () => {
  it('creates a key and shows its secret once in data.key, with the first 8 characters as prefix', async () => {
    const res = await admin.post('/core/v2/api-keys', { name: '  CI deploys  ', role: 'editor' });
    expect(res.statusCode).toBe(201);
    const data = res.json().data as CreatedApiKeyWire;
    expect(Object.keys(data).sort()).toEqual([...PUBLIC_FIELDS, 'key'].sort());
    expect(data).toMatchObject({ name: 'CI deploys', role: 'editor', last_used_at: null, expires_at: null, revoked_at: null });
    expect(data.id).toMatch(UUID);
    expect(data.inserted_at).toMatch(ISO_MS);
    expect(data.updated_at).toMatch(ISO_MS);
    // 256 random bits in base64url behind the mps_ marker.
    expect(data.key).toMatch(/^mps_[A-Za-z0-9_-]{43}$/);
    expect(data.prefix).toBe(data.key.slice(0, 8));

    const another = await createKey(admin);
    expect(another.key).not.toBe(data.key);
  });

  it("gives the new key exactly its role's permissions", async () => {
    const created = await createKey(admin, { role: 'editor' });
    const asEditor = client(ctx.app, created.key);
    const media = await asEditor.get('/core/v2/media');
    expect(media.statusCode).toBe(200);
    expect(media.json().data.id).toBe(seeded.mediaId);
    expect((await asEditor.post('/core/v2/workspaces', { key: `ws-${randomUUID().slice(0, 8)}`, name: 'X' })).statusCode).toBe(201);
    expect((await asEditor.patch('/core/v2/media', { name: 'X' })).statusCode).toBe(403);
    expect((await asEditor.get('/core/v2/api-keys')).statusCode).toBe(403);

    const asAdManager = client(ctx.app, (await createKey(admin, { role: 'ad_manager' })).key);
    expect((await asAdManager.get('/core/v2/media')).statusCode).toBe(403);

    const asAdmin = client(ctx.app, (await createKey(admin, { role: 'admin' })).key);
    expect((await asAdmin.post('/core/v2/api-keys', { name: 'Made by a made key', role: 'viewer' })).statusCode).toBe(201);
  });

  it('binds the new key to the media of the key that created it', async () => {
    const other = await seedMedia(ctx.app);
    const created = await createKey(client(ctx.app, other.keys.admin), { role: 'viewer' });
    const media = await client(ctx.app, created.key).get('/core/v2/media');
    expect(media.json().data.id).toBe(other.mediaId);
    const ours = (await admin.get('/core/v2/api-keys?limit=100')).json().data.map((k: ApiKeyWire) => k.id);
    expect(ours).not.toContain(created.id);
  });

  it('accepts an expiry with an offset and answers it in UTC with milliseconds', async () => {
    const created = await createKey(admin, { expires_at: '2999-01-02T03:04:05+02:00' });
    expect(created.expires_at).toBe('2999-01-02T01:04:05.000Z');
    expect((await client(ctx.app, created.key).get('/core/v2/media')).statusCode).toBe(200);
  });

  it('refuses an unknown role, a missing name, a bad expiry and unknown or server-owned fields with 400', async () => {
    for (const body of [
      { name: 'X', role: 'superuser' },
      { name: 'X' },
      { role: 'admin' },
      { name: '', role: 'admin' },
      { name: 'X', role: 'admin', expires_at: 'tomorrow' },
      { name: 'X', role: 'admin', key: `mps_${'a'.repeat(43)}` },
      { name: 'X', role: 'admin', revoked_at: null },
      { name: 'X', role: 'admin', media_id: randomUUID() },
    ]) {
      const res = await admin.post('/core/v2/api-keys', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
  });

  it('is for admin keys only: every other role gets 403, no key gets 401', async () => {
    for (const role of ['editor', 'viewer', 'ad_manager', 'messenger'] as const) {
      const res = await client(ctx.app, seeded.keys[role]).post('/core/v2/api-keys', { name: 'Escalation', role: 'admin' });
      expect(res.statusCode, role).toBe(403);
      expect(res.json().code).toBe('forbidden');
    }
    const anonymous = await client(ctx.app).post('/core/v2/api-keys', { name: 'Escalation', role: 'admin' });
    expect(anonymous.statusCode).toBe(401);
    const names = (await admin.get('/core/v2/api-keys?limit=100')).json().data.map((k: ApiKeyWire) => k.name);
    expect(names).not.toContain('Escalation');
  });
});

describe('stored secrets', () => {
  it('stores only the sha256 hash of a key, never the secret itself', async () => {
    const created = await createKey(admin, { role: 'viewer' });
    const [row] = await ctx.database.db.select().from(apiKeys).where(eq(apiKeys.id, created.id));
    expect(row).toBeDefined();
    expect(row!.keyHash).toBe(sha256(created.key));
    expect(row!.keyPrefix).toBe(created.key.slice(0, 8));
    for (const [column, value] of Object.entries(row!)) {
      if (typeof value === 'string') expect(value, column).not.toContain(created.key);
    }

    // Nowhere in the database, in any table, does the secret appear; the same probe finds its hash.
    const db = ctx.database.db;
    const tables = rowsOf<{ table_name: string }>(
      await db.execute(sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`),
    ).map((t) => t.table_name);
    expect(tables).toContain('api_keys');
    const occurrences = async (table: string, needle: string) =>
      rowsOf<{ n: number }>(
        await db.execute(sql`select count(*)::int as n from ${sql.identifier(table)} t where t::text like ${`%${needle}%`}`),
      )[0]!.n;
    for (const table of tables) expect(await occurrences(table, created.key), table).toBe(0);
    expect(await occurrences('api_keys', sha256(created.key))).toBe(1);
  });
});

describe('authentication under load', () => {
  it('reads a key not yet cached once for 50 requests that arrive together, and each is answered', async () => {
    const created = await createKey(admin, { role: 'viewer' });
    const api = client(ctx.app, created.key);
    let answers: number[] = [];
    const statements = await statementsDuring(ctx.database, async () => {
      answers = (await Promise.all(Array.from({ length: 50 }, () => api.get('/core/v2/categories?limit=1')))).map((r) => r.statusCode);
    });
    expect(answers).toEqual(Array(50).fill(200));
    expect(statements.filter((text) => /^select\b/i.test(text) && /from "api_keys"/i.test(text))).toHaveLength(1);
  });
});

describe('GET /core/v2/api-keys', () => {
  it('lists keys newest first without the secret or its hash', async () => {
    const own = await seedMedia(ctx.app);
    const api = client(ctx.app, own.keys.admin);
    const created = await createKey(api, { name: 'Listed' });

    const res = await api.get('/core/v2/api-keys');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    // seedMedia made one key per role; ours is the newest.
    expect(body.data).toHaveLength(6);
    const { key, ...shown } = created;
    expect(body.data[0]).toEqual(shown);
    for (const item of body.data) expect(Object.keys(item).sort()).toEqual(PUBLIC_FIELDS);
    expect(res.body).not.toContain(key);
    expect(res.body).not.toContain(sha256(key));
    expect(res.body).not.toContain(own.keys.admin);
    expect(body.meta).toEqual({ base: '/core/v2/api-keys', next: null, previous: null });
  });

  it('pages with cursor links', async () => {
    const own = await seedMedia(ctx.app);
    const api = client(ctx.app, own.keys.admin);
    const first = (await api.get('/core/v2/api-keys?limit=4')).json();
    expect(first.data).toHaveLength(4);
    expect(first.meta.next).toMatch(/^\/core\/v2\/api-keys\?limit=4&after=/);
    const second = (await api.get(first.meta.next)).json();
    expect(second.data).toHaveLength(1);
    expect(second.meta.next).toBeNull();
    const back = (await api.get(second.meta.previous)).json();
    expect(back.data).toEqual(first.data);

    expect((await api.get('/core/v2/api-keys?limit=0')).statusCode).toBe(400);
    const forged = await api.get('/core/v2/api-keys?after=eyJ4IjoxfQ.AAAA');
    expect(forged.statusCode).toBe(400);
    expect(forged.json().code).toBe('invalid_cursor');
  });

  it('is readable by roles with admin:read (admin only) and refused to the others with 403', async () => {
    // Credentials metadata needs admin:read, which viewer does not have (issue 7's decision).
    expect((await admin.get('/core/v2/api-keys')).statusCode).toBe(200);
    for (const role of ['editor', 'viewer', 'ad_manager', 'messenger'] as const) {
      const res = await client(ctx.app, seeded.keys[role]).get('/core/v2/api-keys');
      expect(res.statusCode, role).toBe(403);
      expect(res.json().code).toBe('forbidden');
    }
    expect((await client(ctx.app).get('/core/v2/api-keys')).statusCode).toBe(401);
  });
});

describe('GET /core/v2/api-keys/:id', () => {
  it('answers the key without its secret', async () => {
    const created = await createKey(admin, { role: 'messenger' });
    const res = await admin.get(`/core/v2/api-keys/${created.id}`);
    expect(res.statusCode).toBe(200);
    const { key, ...shown } = created;
    expect(res.json().data).toEqual(shown);
    expect(res.body).not.toContain(key);
    expect(res.body).not.toContain(sha256(key));
    expectError(await viewer.get(`/core/v2/api-keys/${created.id}`), 403, 'forbidden');
  });

  it("answers 404 for an unknown id and another media's key, 400 for a malformed uuid", async () => {
    const unknown = await admin.get(`/core/v2/api-keys/${randomUUID()}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'api key not found', code: 'api_key_not_found' });

    const other = await seedMedia(ctx.app);
    const theirs = await createKey(client(ctx.app, other.keys.admin));
    expect((await admin.get(`/core/v2/api-keys/${theirs.id}`)).statusCode).toBe(404);

    const malformed = await admin.get('/core/v2/api-keys/abc');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ code: 'invalid_uuid', error: expect.any(String) });
  });

  it('is refused to an editor with 403 and without a key with 401', async () => {
    const created = await createKey(admin);
    expect((await editor.get(`/core/v2/api-keys/${created.id}`)).statusCode).toBe(403);
    expect((await client(ctx.app).get(`/core/v2/api-keys/${created.id}`)).statusCode).toBe(401);
  });
});

describe('DELETE /core/v2/api-keys/:id', () => {
  it('revokes a key: 204, the key is refused with 401 from then on, and it stays listed with revoked_at', async () => {
    const created = await createKey(admin, { role: 'viewer' });
    const asKey = client(ctx.app, created.key);
    expect((await asKey.get('/core/v2/media')).statusCode).toBe(200);

    const res = await admin.delete(`/core/v2/api-keys/${created.id}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');

    const refused = await asKey.get('/core/v2/media');
    expect(refused.statusCode).toBe(401);
    expect(refused.json().code).toBe('invalid_api_key');

    const listed = ((await admin.get('/core/v2/api-keys?limit=100')).json().data as ApiKeyWire[]).find((k) => k.id === created.id);
    expect(listed).toBeDefined();
    expect(listed!.revoked_at).toMatch(ISO_MS);
    expect(Date.parse(listed!.revoked_at!)).toBeGreaterThanOrEqual(Date.parse(created.inserted_at));
    expect((await admin.get(`/core/v2/api-keys/${created.id}`)).json().data.revoked_at).toBe(listed!.revoked_at);
  });

  it('refuses a revoked key on the keep-alive connection that used it before, and tells keys on one connection apart', async () => {
    const first = await createKey(admin, { role: 'viewer' });
    const second = await createKey(admin, { role: 'admin' });
    const url = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    // One socket for every request: the connection remembers the last key's hash (api-key-auth.ts).
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    const get = (path: string, key: string) =>
      new Promise<{ status: number; body: { code?: string } }>((resolve, reject) => {
        const req = request(`${url}${path}`, { agent, headers: { 'x-api-key': key } }, (res) => {
          sockets.add(res.socket);
          let text = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
        });
        req.on('error', reject).end();
      });
    try {
      expect((await get('/core/v2/media', first.key)).status).toBe(200);
      // Another key on the same connection is that key (an admin's route), not the last one's.
      expect((await get('/core/v2/api-keys?limit=1', second.key)).status).toBe(200);
      const asViewer = await get('/core/v2/api-keys?limit=1', first.key);
      expect([asViewer.status, asViewer.body.code]).toEqual([403, 'forbidden']);
      expect((await admin.delete(`/core/v2/api-keys/${first.id}`)).statusCode).toBe(204);
      const refused = await get('/core/v2/media', first.key);
      expect([refused.status, refused.body.code]).toEqual([401, 'invalid_api_key']);
      expect((await get('/core/v2/media', second.key)).status).toBe(200);
      expect(sockets.size).toBe(1);
    } finally {
      agent.destroy();
    }
  });

  it('keeps the first revocation time when a key is revoked twice', async () => {
    const created = await createKey(admin);
    expect((await admin.delete(`/core/v2/api-keys/${created.id}`)).statusCode).toBe(204);
    const first = (await admin.get(`/core/v2/api-keys/${created.id}`)).json().data.revoked_at;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await admin.delete(`/core/v2/api-keys/${created.id}`)).statusCode).toBe(204);
    const second = (await admin.get(`/core/v2/api-keys/${created.id}`)).json().data.revoked_at;
    expect(first).toMatch(ISO_MS);
    expect(second).toBe(first);
  });

  it('lets an admin key revoke itself, after which it is refused', async () => {
    const created = await createKey(admin, { role: 'admin' });
    const self = client(ctx.app, created.key);
    expect((await self.delete(`/core/v2/api-keys/${created.id}`)).statusCode).toBe(204);
    expect((await self.get('/core/v2/api-keys')).statusCode).toBe(401);
  });

  it("answers 404 for an unknown id and for another media's key, which keeps working", async () => {
    const unknown = await admin.delete(`/core/v2/api-keys/${randomUUID()}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('api_key_not_found');

    const other = await seedMedia(ctx.app);
    const theirs = await createKey(client(ctx.app, other.keys.admin), { role: 'viewer' });
    expect((await admin.delete(`/core/v2/api-keys/${theirs.id}`)).statusCode).toBe(404);
    expect((await client(ctx.app, theirs.key).get('/core/v2/media')).statusCode).toBe(200);
  });

  it('answers 400 for a malformed uuid', async () => {
    const res = await admin.delete('/core/v2/api-keys/not-a-uuid');
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('invalid_uuid');
  });

  it('is refused to editor and viewer keys with 403, and the key keeps working', async () => {
    const created = await createKey(admin, { role: 'viewer' });
    for (const api of [editor, viewer]) {
      const res = await api.delete(`/core/v2/api-keys/${created.id}`);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('forbidden');
    }
    expect((await client(ctx.app).delete(`/core/v2/api-keys/${created.id}`)).statusCode).toBe(401);
    expect((await client(ctx.app, created.key).get('/core/v2/media')).statusCode).toBe(200);
    expect((await admin.get(`/core/v2/api-keys/${created.id}`)).json().data.revoked_at).toBeNull();
  });
});

describe('key lifetime', () => {
  it('refuses to create a key that has already expired, and a key whose expires_at has passed with 401', async () => {
    const refused = await admin.post('/core/v2/api-keys', {
      name: 'stale',
      role: 'admin',
      expires_at: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().details[0].path).toBe('expires_at');
    const { secret } = await ctx.app.services.core.apiKeys.create(seeded.mediaId, {
      name: 'expired',
      role: 'admin',
      expires_at: new Date(Date.now() - 60_000),
    });
    const res = await client(ctx.app, secret).get('/core/v2/media');
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('invalid_api_key');
  });

  it('refuses a key once its expiry passes, even after it was accepted', async () => {
    const created = await createKey(admin, { role: 'viewer', expires_at: new Date(Date.now() + 1_500).toISOString() });
    const api = client(ctx.app, created.key);
    expect((await api.get('/core/v2/media')).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(created.expires_at!) - Date.now() + 50)));
    expect((await api.get('/core/v2/media')).statusCode).toBe(401);
  });

  it('records last_used_at once the key has been used', async () => {
    const created = await createKey(admin, { role: 'viewer' });
    expect(created.last_used_at).toBeNull();
    const before = Date.now();
    expect((await client(ctx.app, created.key).get('/core/v2/media')).statusCode).toBe(200);

    // Written after the request, without making it wait.
    const lastUsedAt = await waitFor(async () => {
      const data = (await admin.get(`/core/v2/api-keys/${created.id}`)).json().data as ApiKeyWire;
      return data.last_used_at ?? undefined;
    });
    expect(lastUsedAt).toMatch(ISO_MS);
    expect(Date.parse(lastUsedAt)).toBeGreaterThanOrEqual(before - 5);
    expect(Date.parse(lastUsedAt)).toBeLessThanOrEqual(Date.now());
    const data = (await admin.get(`/core/v2/api-keys/${created.id}`)).json().data as ApiKeyWire;
    expect(data.updated_at).toBe(created.updated_at);
  });

  it('answers 401 for a missing, empty, unknown or oversized key', async () => {
    const missing = await client(ctx.app).get('/core/v2/media');
    expect(missing.json().code).toBe('missing_api_key');
    const empty = await ctx.app.inject({ method: 'GET', url: '/core/v2/media', headers: { 'x-api-key': '' } });
    expect(empty.statusCode).toBe(401);
    for (const key of [`mps_${'A'.repeat(43)}`, 'short', 'x'.repeat(300), seeded.keys.admin.slice(0, -1)]) {
      const res = await client(ctx.app, key).get('/core/v2/media');
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('invalid_api_key');
    }
  });
});
