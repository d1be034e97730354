import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestContext } from '../app.js';
import { type Client, client, seedMedia } from '../factories.js';

/** A 404 with exactly the envelope and the record's code. */
export function expectNotFound(res: LightMyRequestResponse, code: string) {
  expect(res.statusCode, res.body).toBe(404);
  expect(res.json()).toEqual({ error: expect.any(String), code });
}

/** Every row of a listing, following meta.next to the end. */
export async function listAll(api: Client, path: string): Promise<Array<{ id: string }>> {
  const rows: Array<{ id: string }> = [];
  let url: string | null = `${path}?limit=100`;
  while (url) {
    const res = await api.get(url);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    rows.push(...body.data);
    url = body.meta.next;
  }
  return rows;
}

/** A cursor of `owner`'s listing is refused (400 invalid_cursor) to `other`, after and before, and still serves its owner. */
export async function expectCursorBound(other: Client, owner: Client, path: string) {
  const page = await owner.get(`${path}?limit=1`);
  expect(page.statusCode).toBe(200);
  const next = page.json().meta.next as string;
  expect(next).toEqual(expect.any(String));
  const cursor = new URL(next, 'http://local').searchParams.get('after')!;
  for (const param of ['after', 'before']) {
    const res = await other.get(`${path}?limit=1&${param}=${encodeURIComponent(cursor)}`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ error: expect.any(String), code: 'invalid_cursor' });
  }
  expect((await owner.get(next)).statusCode).toBe(200);
}

/** A Backoffice collection of records with soft delete: where it lives, its 404 code, how a record is made and changed. */
export interface TenantCollection {
  collection: string;
  notFound: string;
  create: (api: Client) => Promise<{ id: string }>;
  update: Record<string, unknown>;
}

/**
 * The tenancy of a soft-deletable collection (CONVENTIONS, Tenancy): media A reaches none of media
 * B's records, live or deleted, by id (read, update, delete, restore: 404 exactly as a missing one,
 * whatever A's role), in its list or with B's cursors, and B's records are unchanged after it all.
 */
export function tenancyChecks(context: () => TestContext, target: TenantCollection) {
  const { collection, notFound } = target;
  let a: Client;
  let b: Client;
  let others: Client[];
  let theirs: Array<{ id: string }>;
  let deleted: { id: string };
  let before: unknown[];
  const readAll = () => Promise.all([...theirs, deleted].map(async ({ id }) => (await b.get(`${collection}/${id}`)).json()));

  beforeAll(async () => {
    const { app } = context();
    const [mediaA, mediaB] = [await seedMedia(app, { name: 'Media A' }), await seedMedia(app, { name: 'Media B' })];
    [a, b] = [client(app, mediaA.keys.admin), client(app, mediaB.keys.admin)];
    others = [client(app, mediaA.keys.editor), client(app, mediaA.keys.viewer)];
    await target.create(a);
    theirs = [await target.create(b), await target.create(b)];
    deleted = await target.create(b);
    expect((await b.delete(`${collection}/${deleted.id}`)).statusCode).toBe(204);
    before = await readAll();
  });

  describe(`${collection}: another media's records`, () => {
    it('answer 404 by id to read, update, delete and restore, live or deleted, exactly as missing ones', async () => {
      for (const { id } of [...theirs, deleted]) {
        expectNotFound(await a.get(`${collection}/${id}`), notFound);
        expectNotFound(await a.patch(`${collection}/${id}`, target.update), notFound);
        expectNotFound(await a.delete(`${collection}/${id}`), notFound);
        expectNotFound(await a.post(`${collection}/${id}/restore`), notFound);
        for (const other of others) expectNotFound(await other.get(`${collection}/${id}`), notFound);
      }
      expect((await a.get(`${collection}/${theirs[0]!.id}`)).json()).toEqual((await a.get(`${collection}/${randomUUID()}`)).json());
    });

    it('never show in its list, which holds its own', async () => {
      const rows = await listAll(a, collection);
      expect(rows.length).toBeGreaterThan(0);
      const ids = new Set([...theirs, deleted].map((r) => r.id));
      expect(rows.filter((r) => ids.has(r.id))).toEqual([]);
    });

    it("are not reached with the other media's cursor (400 invalid_cursor)", async () => {
      await expectCursorBound(a, b, collection);
    });

    it('are unchanged after all of the above, and the deleted one is restored by its own media', async () => {
      expect(await readAll()).toEqual(before);
      const restored = await b.post(`${collection}/${deleted.id}/restore`);
      expect(restored.statusCode, restored.body).toBe(200);
      expect(restored.json().data).toMatchObject({ id: deleted.id, deleted_at: null });
    });
  });
}
