import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { referenceSchema } from '../../../src/modules/core/references/references.schemas.js';
import { systemContext } from '../../../src/shared/context.js';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { ISO_MS, UUID } from '../../setup/expect.js';
import { type Client, type SeededMedia, client, seedMedia } from '../../setup/factories.js';

let ctx: TestContext;
let seeded: SeededMedia;
let api: Client;
let viewer: Client;

beforeAll(async () => {
  ctx = await createTestApp();
  seeded = await seedMedia(ctx.app);
  api = client(ctx.app, seeded.keys.editor);
  viewer = client(ctx.app, seeded.keys.viewer);
});
afterAll(() => ctx.close());

type ReferenceWire = z.output<typeof referenceSchema>;

const urnOf = (kind = 'content') => `urn:mps:${kind}:${randomUUID()}`;
const past = () => new Date(Date.now() - 60_000).toISOString();

/** The API refuses a past expiry, so references that have expired since are made by the service. */
async function createExpiredReference(body: { id?: string; provider?: string } = {}) {
  const row = await ctx.app.services.core.references.create(systemContext(ctx.app.db, seeded.mediaId), {
    provider: body.provider ?? 'wordpress',
    id: body.id,
    urn: urnOf(),
    expires_at: new Date(past()),
  });
  return { ref: `${row.provider}:${row.id}`, expires_at: row.expiresAt!.toISOString() };
}

async function createReference(as: Client, body: Record<string, unknown> = {}): Promise<ReferenceWire> {
  const res = await as.post('/core/v2/references', { provider: 'wordpress', urn: urnOf(), ...body });
  if (res.statusCode !== 201) throw new Error(`createReference: ${res.statusCode} ${res.body}`);
  return res.json().data as ReferenceWire;
}

describe('POST /core/v2/references', () => {
  it('creates a reference with the given id and answers 201 with ref = <provider>:<id>', async () => {
    const id = randomUUID();
    const urn = urnOf('article');
    const res = await api.post('/core/v2/references', { provider: 'wordpress', id, urn });
    expect(res.statusCode).toBe(201);
    const data = res.json().data as ReferenceWire;
    expect(Object.keys(data).sort()).toEqual(['expires_at', 'id', 'inserted_at', 'provider', 'ref', 'updated_at', 'urn']);
    expect(data).toMatchObject({ id, provider: 'wordpress', ref: `wordpress:${id}`, urn, expires_at: null });
    expect(data.inserted_at).toMatch(ISO_MS);
    expect(data.updated_at).toMatch(ISO_MS);

    const fetched = await viewer.get(`/core/v2/references/${data.ref}`);
    expect(fetched.statusCode).toBe(200);
    expect(fetched.json().data).toEqual(data);
  });

  it('generates the id when none is given', async () => {
    const a = await createReference(api, { provider: 'crm' });
    const b = await createReference(api, { provider: 'crm' });
    expect(a.id).toMatch(UUID);
    expect(a.id).not.toBe(b.id);
    expect(a.ref).toBe(`crm:${a.id}`);
    expect((await viewer.get(`/core/v2/references/crm:${a.id}`)).statusCode).toBe(200);
  });

  it('keeps an upper-case id in its canonical lower-case form, and an expiry in UTC', async () => {
    const id = randomUUID();
    const created = await createReference(api, { id: id.toUpperCase(), expires_at: '2999-06-01T12:00:00+02:00' });
    expect(created.id).toBe(id);
    expect(created.ref).toBe(`wordpress:${id}`);
    expect(created.expires_at).toBe('2999-06-01T10:00:00.000Z');
    expect((await viewer.get(`/core/v2/references/wordpress:${id.toUpperCase()}`)).json().data).toEqual(created);
  });

  it('refuses a urn that is not urn:<namespace>:<kind>:<uuid> with 400', async () => {
    for (const urn of [
      'content:123',
      'urn:mps:content',
      `urn:mps:${randomUUID()}`,
      'urn:mps:content:not-a-uuid',
      `urn::content:${randomUUID()}`,
      `urn:mps:content:${randomUUID()}:extra`,
      `mps:content:${randomUUID()}`,
      `urn:mps:con tent:${randomUUID()}`,
      '',
    ]) {
      const res = await api.post('/core/v2/references', { provider: 'wordpress', urn });
      expect(res.statusCode, urn).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed', details: [{ path: 'urn' }] });
    }
  });

  it('refuses a malformed provider, a malformed id and unknown or server-owned fields with 400', async () => {
    for (const provider of ['', 'WordPress', 'word press', 'wp:1', '-wp', 'p'.repeat(64)]) {
      const res = await api.post('/core/v2/references', { provider, urn: urnOf() });
      expect(res.statusCode, provider).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed', details: [{ path: 'provider' }] });
    }
    for (const body of [
      { provider: 'wordpress', urn: urnOf(), id: '42' },
      { provider: 'wordpress', urn: urnOf(), expires_at: 'next week' },
      { provider: 'wordpress', urn: urnOf(), ref: `wordpress:${randomUUID()}` },
      { provider: 'wordpress', urn: urnOf(), inserted_at: new Date().toISOString() },
      { provider: 'wordpress', urn: urnOf(), media_id: randomUUID() },
      { urn: urnOf() },
      { provider: 'wordpress' },
    ]) {
      const res = await api.post('/core/v2/references', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
  });

  it('answers 409 reference_exists for a live reference with the same ref, and keeps the first', async () => {
    const first = await createReference(api);
    const res = await api.post('/core/v2/references', { provider: first.provider, id: first.id, urn: urnOf() });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      error: 'a reference with this provider and id already exists',
      code: 'reference_exists',
    });
    expect((await viewer.get(`/core/v2/references/${first.ref}`)).json().data).toEqual(first);
  });

  it('lets the same id be used by another provider and by another media', async () => {
    const first = await createReference(api);
    const otherProvider = await createReference(api, { provider: 'crm', id: first.id });
    expect(otherProvider.ref).toBe(`crm:${first.id}`);

    const other = await seedMedia(ctx.app);
    const theirs = await createReference(client(ctx.app, other.keys.editor), { id: first.id });
    expect(theirs.ref).toBe(first.ref);
    expect((await viewer.get(`/core/v2/references/${first.ref}`)).json().data.urn).toBe(first.urn);
  });

  it('treats an expired reference as gone: GET answers 404 and a new create takes its place', async () => {
    const id = randomUUID();
    const refused = await api.post('/core/v2/references', { provider: 'wordpress', id, urn: urnOf(), expires_at: past() });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().details[0].path).toBe('expires_at');
    const expired = await createExpiredReference({ id });
    expect(expired.expires_at).toMatch(ISO_MS);
    const gone = await viewer.get(`/core/v2/references/${expired.ref}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().code).toBe('reference_not_found');

    const urn = urnOf('issue');
    const res = await api.post('/core/v2/references', { provider: 'wordpress', id, urn });
    expect(res.statusCode).toBe(201);
    const replaced = res.json().data as ReferenceWire;
    expect(replaced).toMatchObject({ id, ref: expired.ref, urn, expires_at: null });
    expect((await viewer.get(`/core/v2/references/${expired.ref}`)).json().data).toEqual(replaced);

    // The replacement is live, so a third create conflicts again.
    expect((await api.post('/core/v2/references', { provider: 'wordpress', id, urn: urnOf() })).statusCode).toBe(409);
  });

  it('is refused to a viewer with 403 and without a key with 401, and writes nothing', async () => {
    const id = randomUUID();
    const body = { provider: 'wordpress', id, urn: urnOf() };
    const res = await viewer.post('/core/v2/references', body);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('forbidden');
    expect((await client(ctx.app, seeded.keys.ad_manager).post('/core/v2/references', body)).statusCode).toBe(403);
    expect((await client(ctx.app).post('/core/v2/references', body)).statusCode).toBe(401);
    expect((await viewer.get(`/core/v2/references/wordpress:${id}`)).statusCode).toBe(404);
  });
});

describe('GET /core/v2/references/:ref', () => {
  it('answers 404 for an unknown ref and for malformed ref strings', async () => {
    const unknown = await viewer.get(`/core/v2/references/wordpress:${randomUUID()}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'reference not found', code: 'reference_not_found' });

    const created = await createReference(api);
    for (const ref of [
      'wordpress',
      created.id,
      `wordpress:${created.id.slice(0, -1)}`,
      `WordPress:${created.id}`,
      `wordpress:${created.id}:x`,
      `:${created.id}`,
      'not%20a%20ref',
    ]) {
      const res = await viewer.get(`/core/v2/references/${ref}`);
      expect(res.statusCode, ref).toBe(404);
      expect(res.json().code).toBe('reference_not_found');
    }
  });

  it("answers 404 for another media's reference", async () => {
    const other = await seedMedia(ctx.app);
    const theirs = await createReference(client(ctx.app, other.keys.editor));
    expect((await viewer.get(`/core/v2/references/${theirs.ref}`)).statusCode).toBe(404);
    expect((await client(ctx.app, other.keys.viewer).get(`/core/v2/references/${theirs.ref}`)).statusCode).toBe(200);
  });

  it('answers 401 without a key and 403 to a role without core:read', async () => {
    const created = await createReference(api);
    expect((await client(ctx.app).get(`/core/v2/references/${created.ref}`)).statusCode).toBe(401);
    const res = await client(ctx.app, seeded.keys.ad_manager).get(`/core/v2/references/${created.ref}`);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('forbidden');
  });
});

describe('DELETE /core/v2/references/:ref', () => {
  it('removes a reference: 204, then 404 on read and on a second delete, and the ref is free again', async () => {
    const created = await createReference(api);
    const res = await api.delete(`/core/v2/references/${created.ref}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');

    expect((await viewer.get(`/core/v2/references/${created.ref}`)).statusCode).toBe(404);
    const again = await api.delete(`/core/v2/references/${created.ref}`);
    expect(again.statusCode).toBe(404);
    expect(again.json().code).toBe('reference_not_found');

    const recreated = await api.post('/core/v2/references', { provider: created.provider, id: created.id, urn: urnOf() });
    expect(recreated.statusCode).toBe(201);
  });

  it("answers 404 for an unknown ref, a malformed ref and another media's reference", async () => {
    expect((await api.delete(`/core/v2/references/wordpress:${randomUUID()}`)).statusCode).toBe(404);
    const malformed = await api.delete('/core/v2/references/not-a-ref');
    expect(malformed.statusCode).toBe(404);
    expect(malformed.json().code).toBe('reference_not_found');

    const other = await seedMedia(ctx.app);
    const theirApi = client(ctx.app, other.keys.editor);
    const theirs = await createReference(theirApi);
    expect((await api.delete(`/core/v2/references/${theirs.ref}`)).statusCode).toBe(404);
    expect((await theirApi.get(`/core/v2/references/${theirs.ref}`)).statusCode).toBe(200);
  });

  it('is refused to a viewer with 403 and without a key with 401, and the reference stays', async () => {
    const created = await createReference(api);
    const res = await viewer.delete(`/core/v2/references/${created.ref}`);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('forbidden');
    expect((await client(ctx.app).delete(`/core/v2/references/${created.ref}`)).statusCode).toBe(401);
    expect((await viewer.get(`/core/v2/references/${created.ref}`)).statusCode).toBe(200);
  });
});

describe('POST /core/v2/references/lookup', () => {
  it('answers only the existing live references, in the order asked, each once', async () => {
    const a = await createReference(api, { provider: 'crm' });
    const b = await createReference(api);
    const c = await createReference(api, { provider: 'crm' });
    const expired = await createExpiredReference();
    const other = await seedMedia(ctx.app);
    const foreign = await createReference(client(ctx.app, other.keys.editor));

    const res = await viewer.post('/core/v2/references/lookup', {
      refs: [
        c.ref,
        `wordpress:${randomUUID()}`,
        a.ref,
        expired.ref,
        c.ref,
        foreign.ref,
        `crm:${b.id}`,
        `${b.provider}:${b.id.toUpperCase()}`,
        a.ref,
      ],
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body)).toEqual(['data']);
    expect(body.data).toEqual([c, a, b]);
  });

  it('answers an empty list when none of the refs exists', async () => {
    const res = await viewer.post('/core/v2/references/lookup', { refs: [`wordpress:${randomUUID()}`] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: [] });
  });

  it('takes up to 100 refs and refuses 101 with 400', async () => {
    const created = await createReference(api);
    const ninetyNine = Array.from({ length: 99 }, () => `wordpress:${randomUUID()}`);
    const hundred = await viewer.post('/core/v2/references/lookup', { refs: [...ninetyNine, created.ref] });
    expect(hundred.statusCode).toBe(200);
    expect(hundred.json().data).toEqual([created]);

    const tooMany = await viewer.post('/core/v2/references/lookup', { refs: [...ninetyNine, created.ref, `crm:${randomUUID()}`] });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toMatchObject({ code: 'validation_failed', details: [{ path: 'refs' }] });
  });

  it('refuses an empty list, a malformed ref, a missing list and unknown fields with 400', async () => {
    const empty = await viewer.post('/core/v2/references/lookup', { refs: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().code).toBe('validation_failed');

    const created = await createReference(api);
    const malformed = await viewer.post('/core/v2/references/lookup', { refs: [created.ref, 'wordpress:42'] });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ code: 'validation_failed', details: [{ path: 'refs.1' }] });

    for (const body of [{}, { refs: created.ref }, { refs: [42] }, { refs: [created.ref], limit: 5 }]) {
      const res = await viewer.post('/core/v2/references/lookup', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
    const noBody = await viewer.post('/core/v2/references/lookup');
    expect(noBody.statusCode).toBe(400);
  });

  it('answers 401 without a key and 403 to a role without core:read', async () => {
    const body = { refs: [`wordpress:${randomUUID()}`] };
    expect((await client(ctx.app).post('/core/v2/references/lookup', body)).statusCode).toBe(401);
    const res = await client(ctx.app, seeded.keys.messenger).post('/core/v2/references/lookup', body);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('forbidden');
  });
});
