import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectError } from '../expect.js';
import type { Client } from '../factories.js';

type Wire = Record<string, unknown> & { id: string };

/** A Backoffice collection with soft delete and restore, and an update that deletes one part entry on its own. */
export interface RestorableCollection {
  collection: string;
  notFound: string;
  create: (api: Client) => Promise<Wire>;
  /** An update that leaves out one of the record's part entries (a locale), which it deletes on its own. */
  narrow?: Record<string, unknown>;
}

/** The record as it was, but for updated_at, which a delete and a restore move. */
const unstamped = (record: unknown) => ({ ...(record as Wire), updated_at: null });

/**
 * Soft delete and restore (CONVENTIONS): a deleted record is gone from reads and lists until
 * restored; restore answers it as it was with exactly the parts the delete took, is idempotent on
 * a live record, and 404 on an unknown one and on another media's.
 */
export function restoreChecks(clients: () => { api: Client; foreign: Client }, target: RestorableCollection) {
  const { collection, notFound } = target;
  describe(`${collection}: delete and restore`, () => {
    it('soft-deletes: gone from reads and lists, a second delete 404, then restored as it was', async () => {
      const { api, foreign } = clients();
      const record = await target.create(api);
      const del = await api.delete(`${collection}/${record.id}`);
      expect(del.statusCode).toBe(204);
      expect(del.body).toBe('');
      expectError(await api.get(`${collection}/${record.id}`), 404, notFound);
      expect((await api.get(`${collection}?limit=100`)).json().data.map((r: Wire) => r.id)).not.toContain(record.id);
      expectError(await api.delete(`${collection}/${record.id}`), 404, notFound);
      expectError(await foreign.post(`${collection}/${record.id}/restore`), 404, notFound);

      const restored = await api.post(`${collection}/${record.id}/restore`);
      expect(restored.statusCode, restored.body).toBe(200);
      expect(restored.json().data).toMatchObject({ id: record.id, deleted_at: null });
      expect(unstamped(restored.json().data)).toEqual(unstamped(record));
      expect((await api.get(`${collection}/${record.id}`)).json().data).toEqual(restored.json().data);
    });

    if (target.narrow) {
      it('restores exactly the parts the delete took away, not one deleted on its own before', async () => {
        const { api } = clients();
        const record = await target.create(api);
        const narrowed = await api.patch(`${collection}/${record.id}`, target.narrow);
        expect(narrowed.statusCode, narrowed.body).toBe(200);
        expect(unstamped(narrowed.json().data)).not.toEqual(unstamped(record));
        expect(await api.delete(`${collection}/${record.id}`)).toMatchObject({ statusCode: 204 });
        const restored = await api.post(`${collection}/${record.id}/restore`);
        expect(restored.statusCode, restored.body).toBe(200);
        expect(unstamped(restored.json().data)).toEqual(unstamped(narrowed.json().data));
      });
    }

    it('is idempotent on a live record (an empty JSON body too) and 404 on an unknown one', async () => {
      const { api } = clients();
      const record = await target.create(api);
      const again = await api.post(`${collection}/${record.id}/restore`, '', { 'content-type': 'application/json' });
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json().data).toEqual(record);
      expectError(await api.post(`${collection}/${randomUUID()}/restore`), 404, notFound);
    });
  });
}
