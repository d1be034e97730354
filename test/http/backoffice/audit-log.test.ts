import { randomUUID } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../../src/modules/core/audit/audit.table.js';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { ISO_MS, UUID, expectError } from '../../setup/expect.js';
import { type Client, type SeededMedia, client, createCategory, seedMedia } from '../../setup/factories.js';

interface Entry {
  id: string;
  inserted_at: string;
  key_id: string;
  key_name: string;
  operation_id: string;
  action: string;
  record_kind: string;
  record_id: string | null;
  fields: string[];
}
interface Listing {
  data: Entry[];
  meta: { next: string | null; previous: string | null };
}

let ctx: TestContext;
let media: SeededMedia;
let other: SeededMedia;
let admin: Client;
let editor: Client;
let otherAdmin: Client;
let adminKeyId: string;
let editorKeyId: string;

const log = async (api: Client, query = ''): Promise<Listing> => {
  const res = await api.get(`/core/v2/audit-log${query}`);
  expect(res.statusCode).toBe(200);
  return res.json() as Listing;
};
const entriesOf = async (recordId: string) => (await log(admin, `?record_id=${recordId}`)).data;
/** Rows of a raw statement (the tables themselves, beside the API). */
const rowsOf = async <T = Record<string, unknown>>(query: SQL) => ((await ctx.database.db.execute(query)) as unknown as { rows: T[] }).rows;
const countOf = async (table: string, mediaId: string) =>
  Number((await rowsOf<{ n: string }>(sql`select count(*)::text as n from ${sql.identifier(table)} where media_id = ${mediaId}`))[0]!.n);
const countAll = (mediaId: string) => countOf('audit_log', mediaId);

beforeAll(async () => {
  ctx = await createTestApp({ webhookAllowPrivate: true });
  media = await seedMedia(ctx.app);
  other = await seedMedia(ctx.app);
  admin = client(ctx.app, media.keys.admin);
  editor = client(ctx.app, media.keys.editor);
  otherAdmin = client(ctx.app, other.keys.admin);
  const keys = (await admin.get('/core/v2/api-keys?limit=100')).json().data as Array<{ id: string; name: string }>;
  adminKeyId = keys.find((k) => k.name === 'admin key')!.id;
  editorKeyId = keys.find((k) => k.name === 'editor key')!.id;
});
afterAll(() => ctx.close());

describe('entries of Backoffice writes', () => {
  it('records a create, update, delete and restore once each, with who, what and the field names only', async () => {
    const category = await createCategory(editor);
    expect((await editor.patch(`/core/v2/categories/${category.id}`, { is_archived: true, locales: [{ locale: 'en', name: 'Secretive' }] })).statusCode).toBe(200);
    expect((await editor.delete(`/core/v2/categories/${category.id}`)).statusCode).toBe(204);
    expect((await editor.post(`/core/v2/categories/${category.id}/restore`)).statusCode).toBe(200);

    const entries = await entriesOf(category.id);
    expect(entries.map((e) => [e.action, e.operation_id])).toEqual([
      ['restored', 'restoreCategory'],
      ['deleted', 'deleteCategory'],
      ['updated', 'updateCategory'],
      ['created', 'createCategory'],
    ]);
    for (const entry of entries) {
      expect(entry).toMatchObject({ key_id: editorKeyId, key_name: 'editor key', record_kind: 'category', record_id: category.id });
      expect(entry.id).toMatch(UUID);
      expect(entry.inserted_at).toMatch(ISO_MS);
      expect(Object.keys(entry).sort()).toEqual(['action', 'fields', 'id', 'inserted_at', 'key_id', 'key_name', 'operation_id', 'record_id', 'record_kind']);
    }
    expect(entries[3]!.fields).toEqual(['locales']);
    expect(entries[2]!.fields).toEqual(['is_archived', 'locales']);
    expect(entries[1]!.fields).toEqual([]);
    expect(entries[0]!.fields).toEqual([]);
    // Names only: no value the request carried.
    expect(JSON.stringify(entries)).not.toContain('Secretive');
  });

  it('never records a secret: the created API key and webhook secrets appear nowhere', async () => {
    const key = (await admin.post('/core/v2/api-keys', { name: 'CI deploys', role: 'viewer' })).json().data as { id: string; key: string };
    const webhook = await admin.post('/core/v2/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['*'] });
    expect(webhook.statusCode).toBe(201);
    const hook = webhook.json().data as { id: string; secret: string };

    const [keyEntry] = await entriesOf(key.id);
    expect(keyEntry).toMatchObject({ action: 'created', record_kind: 'api_key', operation_id: 'createApiKey', key_id: adminKeyId, key_name: 'admin key', fields: ['name', 'role'] });
    const [hookEntry] = await entriesOf(hook.id);
    expect(hookEntry).toMatchObject({ action: 'created', record_kind: 'webhook', operation_id: 'createWebhook', fields: ['events', 'url'] });
    const raw = (await admin.get('/core/v2/audit-log?limit=100')).body;
    expect(raw).not.toContain(key.key);
    expect(raw).not.toContain(hook.secret);
    const stored = await rowsOf(sql`select * from audit_log where media_id = ${media.mediaId}`);
    expect(JSON.stringify(stored)).not.toContain(key.key);
    expect(JSON.stringify(stored)).not.toContain(hook.secret);
  });

  it("leaves out field names that name a credential (an identity provider's client_secret)", async () => {
    const res = await admin.post('/core/v2/oauth/providers', {
      name: 'Audit IdP',
      issuer: `http://127.0.0.1:9/${randomUUID()}`,
      authorization_endpoint: 'http://127.0.0.1:9/authorize',
      token_endpoint: 'http://127.0.0.1:9/token',
      jwks_uri: 'http://127.0.0.1:9/jwks',
      client_id: 'audit-client',
      client_secret: 'audit-provider-secret-value',
    });
    expect(res.statusCode).toBe(201);
    const [entry] = await entriesOf((res.json().data as { id: string }).id);
    expect(entry).toMatchObject({ action: 'created', record_kind: 'provider', operation_id: 'createOAuthProvider' });
    // The names the validated body holds (defaults included), the credential's left out.
    expect(entry!.fields).toEqual(expect.arrayContaining(['authorization_endpoint', 'client_id', 'issuer', 'jwks_uri', 'name', 'token_endpoint']));
    expect(entry!.fields).not.toContain('client_secret');
    const stored = await rowsOf(sql`select * from audit_log where media_id = ${media.mediaId}`);
    expect(JSON.stringify(stored)).not.toContain('audit-provider-secret-value');
  });

  it('records a replayed idempotent create once', async () => {
    const headers = { 'idempotency-key': `audit-${randomUUID()}` };
    const body = { locales: [{ locale: 'en', name: 'Once' }] };
    const first = await admin.post('/core/v2/categories', body, headers);
    const again = await admin.post('/core/v2/categories', body, headers);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const id = (first.json().data as { id: string }).id;
    expect(await entriesOf(id)).toHaveLength(1);
  });
});

describe('a failed write', () => {
  it('rolls its audit entry back with a write that fails after its first statement', async () => {
    // The second locale row fails once the category row is written: the write answers 500.
    await ctx.database.db.execute(
      sql.raw(`create or replace function audit_test_boom() returns trigger language plpgsql as $$
      begin if new.name = 'boom' then raise exception 'boom'; end if; return new; end $$`),
    );
    await ctx.database.db.execute(sql.raw('create trigger audit_test_boom before insert on category_locales for each row execute function audit_test_boom()'));
    try {
      const before = await countAll(media.mediaId);
      const categoriesBefore = await countOf('categories', media.mediaId);
      const res = await admin.post('/core/v2/categories', { locales: [{ locale: 'en', name: 'Fine' }, { locale: 'fr', name: 'boom' }] });
      expect(res.statusCode).toBe(500);
      expect(await countAll(media.mediaId)).toBe(before);
      const categoriesAfter = await countOf('categories', media.mediaId);
      expect(categoriesAfter).toBe(categoriesBefore);
    } finally {
      await ctx.database.db.execute(sql.raw('drop trigger if exists audit_test_boom on category_locales'));
      await ctx.database.db.execute(sql.raw('drop function if exists audit_test_boom()'));
    }
  });

  it('rolls the write back when its audit entry cannot be written: one transaction', async () => {
    const category = await createCategory(admin);
    await ctx.database.db.execute(
      sql.raw(`create or replace function audit_test_refuse() returns trigger language plpgsql as $$
      begin if new.operation_id = 'updateCategory' then raise exception 'refused'; end if; return new; end $$`),
    );
    await ctx.database.db.execute(sql.raw('create trigger audit_test_refuse before insert on audit_log for each row execute function audit_test_refuse()'));
    try {
      const res = await admin.patch(`/core/v2/categories/${category.id}`, { is_archived: true, locales: [{ locale: 'en', name: 'Never stored' }] });
      expect(res.statusCode).toBe(500);
    } finally {
      await ctx.database.db.execute(sql.raw('drop trigger if exists audit_test_refuse on audit_log'));
      await ctx.database.db.execute(sql.raw('drop function if exists audit_test_refuse()'));
    }
    const after = (await admin.get(`/core/v2/categories/${category.id}`)).json().data as { is_archived: boolean; locales: Array<{ name: string }> };
    expect(after.is_archived).toBe(false);
    expect(after.locales.map((l) => l.name)).not.toContain('Never stored');
    expect((await entriesOf(category.id)).map((e) => e.action)).toEqual(['created']);
  });

  it('records nothing for a unique conflict (409) nor for a refused request', async () => {
    const before = await countAll(media.mediaId);
    expectError(await editor.post('/core/v2/statuses', { key: 'draft', name: 'Second draft' }), 409, 'status_key_taken');
    expectError(await editor.post('/core/v2/categories', { locales: 'none' }), 400);
    expectError(await editor.patch(`/core/v2/categories/${randomUUID()}`, { is_archived: true }), 404);
    expect(await countAll(media.mediaId)).toBe(before);
  });
});

describe('GET /core/v2/audit-log', () => {
  it('filters by record kind, key, operation and time', async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    const category = await createCategory(admin);
    await editor.patch(`/core/v2/categories/${category.id}`, { is_archived: true });

    const byKey = (await log(admin, `?key_id=${editorKeyId}&limit=100`)).data;
    expect(byKey.length).toBeGreaterThan(0);
    expect(byKey.every((e) => e.key_id === editorKeyId)).toBe(true);
    expect(byKey.some((e) => e.record_id === category.id && e.action === 'updated')).toBe(true);

    const byOperation = (await log(admin, '?operation_id=createCategory&limit=100')).data;
    expect(byOperation.every((e) => e.operation_id === 'createCategory')).toBe(true);
    expect(byOperation.some((e) => e.record_id === category.id)).toBe(true);

    const byKind = (await log(admin, '?record_kind=api_key&limit=100')).data;
    expect(byKind.length).toBeGreaterThan(0);
    expect(byKind.every((e) => e.record_kind === 'api_key')).toBe(true);

    const both = (await log(admin, `?record_id=${category.id}&key_id=${adminKeyId}`)).data;
    expect(both.map((e) => e.action)).toEqual(['created']);

    const recent = (await log(admin, `?from=${encodeURIComponent(since)}&limit=100`)).data;
    expect(recent.every((e) => e.inserted_at >= since)).toBe(true);
    expect(recent.some((e) => e.record_id === category.id)).toBe(true);
    expect((await log(admin, `?to=${encodeURIComponent(since)}&record_id=${category.id}`)).data).toEqual([]);

    expectError(await admin.get('/core/v2/audit-log?key_id=nope'), 400);
    expectError(await admin.get('/core/v2/audit-log?from=yesterday'), 400);
  });

  it('pages newest first by cursor, forward and back, neither skipping nor repeating', async () => {
    const all = (await log(admin, '?limit=100')).data;
    expect(all.length).toBeGreaterThanOrEqual(5);
    const sorted = [...all].sort((a, b) => (a.inserted_at === b.inserted_at ? (a.id < b.id ? 1 : -1) : a.inserted_at < b.inserted_at ? 1 : -1));
    expect(all.map((e) => e.id)).toEqual(sorted.map((e) => e.id));

    const seen: string[] = [];
    let page = await log(admin, '?limit=2');
    expect(page.meta.previous).toBeNull();
    seen.push(...page.data.map((e) => e.id));
    const first = page;
    while (page.meta.next) {
      page = await log(admin, page.meta.next.replace('/core/v2/audit-log', ''));
      seen.push(...page.data.map((e) => e.id));
    }
    expect(seen).toEqual(all.map((e) => e.id));
    const second = await log(admin, first.meta.next!.replace('/core/v2/audit-log', ''));
    const back = await log(admin, second.meta.previous!.replace('/core/v2/audit-log', ''));
    expect(back.data.map((e) => e.id)).toEqual(first.data.map((e) => e.id));
    expectError(await admin.get('/core/v2/audit-log?after=tampered'), 400);
  });

  it("never lists another media's entries", async () => {
    const category = await createCategory(admin);
    const theirs = await createCategory(otherAdmin);
    const listed = (await log(otherAdmin, '?limit=100')).data;
    expect(listed.some((e) => e.record_id === category.id)).toBe(false);
    expect(listed.some((e) => e.record_id === theirs.id)).toBe(true);
    expect((await log(otherAdmin, `?record_id=${category.id}`)).data).toEqual([]);
    expect((await log(admin, `?record_id=${theirs.id}`)).data).toEqual([]);
  });

  it('answers 403 to a key without admin permission, 401 without a key', async () => {
    expectError(await editor.get('/core/v2/audit-log'), 403);
    expectError(await client(ctx.app, media.keys.viewer).get('/core/v2/audit-log'), 403);
    expectError(await client(ctx.app).get('/core/v2/audit-log'), 401);
  });
});

describe('retention', () => {
  // Pruned as of ten days from now, so that entries past the cutoff at that date are still within it
  // today: the runner's own prune (queued when it starts, which this file's webhook deliveries may
  // cause at any moment) leaves them alone, and what this prune removes is exactly what it counts.
  it('prunes the entries older than AUDIT_RETENTION_DAYS and keeps the others', async () => {
    const category = await createCategory(admin);
    const day = 86_400_000;
    const now = new Date(Date.now() + 10 * day);
    const old = [364, 356].map((days) => ({
      id: randomUUID(),
      mediaId: media.mediaId,
      insertedAt: new Date(Date.now() - days * day),
      keyId: adminKeyId,
      keyName: 'admin key',
      operationId: 'updateCategory',
      action: 'updated',
      recordKind: 'category',
      recordId: category.id,
      fields: ['is_archived'],
    }));
    const kept = { ...old[0]!, id: randomUUID(), insertedAt: new Date(Date.now() - 354 * day) };
    await ctx.database.db.insert(auditLog).values([...old, kept]);
    expect(await ctx.app.services.core.audit.hasExpired(now)).toBe(true);
    expect(await ctx.app.services.core.audit.hasExpired()).toBe(false);

    expect(await ctx.app.services.core.audit.prune(now)).toBe(2);
    const ids = (await entriesOf(category.id)).map((e) => e.id);
    expect(ids).toContain(kept.id);
    expect(ids).not.toContain(old[0]!.id);
    expect(ids).not.toContain(old[1]!.id);
    expect(ids).toHaveLength(2);
    expect(await ctx.app.services.core.audit.hasExpired(now)).toBe(false);
  });
});
