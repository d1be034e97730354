import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../setup/app.js';
import { type Client, client, createCategory, seedMedia } from '../setup/factories.js';
import { type DocsFixture, createContent, docsFixture } from '../setup/docs.js';

// Random sequences of edits to a content, each through the Backoffice, then a revert to a random
// earlier revision: the content comes back exactly as that revision holds it (ids, positions,
// parts deleted since), and as the Backoffice answers it, every time.

let ctx: TestContext;
let api: Client;
let fx: DocsFixture;
let categoryIds: string[];

beforeAll(async () => {
  ctx = await createTestApp();
  const media = await seedMedia(ctx.app, { locales: ['en', 'fr', 'de'] });
  api = client(ctx.app, media.keys.editor);
  fx = await docsFixture(api, media.workspaceId);
  categoryIds = [(await createCategory(api)).id, (await createCategory(api)).id, (await createCategory(api)).id];
});
afterAll(() => ctx.close());

type Edit =
  | { op: 'title'; locale: 'en' | 'fr'; text: string }
  | { op: 'addLocale' | 'dropLocale'; locale: 'fr' | 'de' }
  | { op: 'addBlock'; html: string; at: number }
  | { op: 'moveBlock' | 'dropBlock'; pick: number; to: number }
  | { op: 'categories'; picks: number[] }
  | { op: 'metadata'; source: string | null; embargo: string | null }
  | { op: 'flags'; archived: boolean };

const text = fc.string({ minLength: 1, maxLength: 12 }).map((s) => s.replace(/[^a-zA-Z0-9 ]/g, 'x').trim() || 'x');
const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ op: fc.constant('title' as const), locale: fc.constantFrom('en' as const, 'fr' as const), text }),
  fc.record({ op: fc.constantFrom('addLocale' as const, 'dropLocale' as const), locale: fc.constantFrom('fr' as const, 'de' as const) }),
  fc.record({ op: fc.constant('addBlock' as const), html: text, at: fc.nat(5) }),
  fc.record({ op: fc.constantFrom('moveBlock' as const, 'dropBlock' as const), pick: fc.nat(5), to: fc.nat(5) }),
  fc.record({ op: fc.constant('categories' as const), picks: fc.uniqueArray(fc.nat(2), { maxLength: 3 }) }),
  fc.record({ op: fc.constant('metadata' as const), source: fc.option(text), embargo: fc.option(text) }),
  fc.record({ op: fc.constant('flags' as const), archived: fc.boolean() }),
);

type Wire = Record<string, unknown> & { locales: Array<{ locale: string; title_html: string }>; blocks: Array<{ id: string; locale: string }> };

const current = async (id: string): Promise<Wire> => ({
  ...((await api.get(`/docs/v2/contents/${id}`)).json().data as Record<string, unknown>),
  blocks: (await api.get(`/docs/v2/contents/${id}/blocks`)).json().data,
  metadata: (await api.get(`/docs/v2/contents/${id}/metadata`)).json().data,
}) as unknown as Wire;

/** Applies one edit through the API; an edit that does not apply to the content as it is (no block to move) is skipped. */
async function apply(id: string, e: Edit): Promise<boolean> {
  const path = `/docs/v2/contents/${id}`;
  const now = await current(id);
  const entries = now.locales.map((l) => ({ locale: l.locale, title_html: l.title_html }));
  const en = now.blocks.filter((b) => b.locale === 'en');
  let res;
  switch (e.op) {
    case 'title':
      if (!entries.some((l) => l.locale === e.locale)) return false;
      res = await api.patch(path, { locales: entries.map((l) => (l.locale === e.locale ? { ...l, title_html: e.text } : l)) });
      break;
    case 'addLocale':
      if (entries.some((l) => l.locale === e.locale)) return false;
      res = await api.patch(path, { locales: [...entries, { locale: e.locale, title_html: `${e.locale} title` }] });
      break;
    case 'dropLocale':
      if (!entries.some((l) => l.locale === e.locale)) return false;
      res = await api.patch(path, { locales: entries.filter((l) => l.locale !== e.locale) });
      break;
    case 'addBlock':
      res = await api.post(`${path}/blocks`, { locale: 'en', kind: 'richtext', content_html: `<p>${e.html}</p>`, position: Math.min(e.at, en.length) });
      break;
    case 'moveBlock':
      if (en.length < 2) return false;
      res = await api.patch(`${path}/blocks/${en[e.pick % en.length]!.id}`, { position: e.to % en.length });
      break;
    case 'dropBlock':
      if (en.length === 0) return false;
      res = await api.delete(`${path}/blocks/${en[e.pick % en.length]!.id}`);
      break;
    case 'categories':
      res = await api.patch(path, { content_categories: e.picks.map((i) => ({ category_id: categoryIds[i]! })) });
      break;
    case 'metadata': {
      const metadata = [
        ...(e.source !== null ? [{ key: 'source', value: e.source }] : []),
        ...(e.embargo !== null ? [{ key: 'embargo', value: e.embargo }] : []),
      ];
      res = await api.put(`${path}/metadata`, { metadata });
      break;
    }
    case 'flags':
      res = await api.patch(path, { is_archived: e.archived });
      break;
  }
  if (res.statusCode >= 300) throw new Error(`${e.op}: ${res.statusCode} ${res.body}`);
  return true;
}

const withoutUpdatedAt = ({ updated_at: _u, ...rest }: Record<string, unknown>) => rest;

describe('reverting a content to a revision', () => {
  it('reproduces that revision exactly after any sequence of edits', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 6 }), fc.nat(), async (edits, pick) => {
        const content = await createContent(api, fx, { locales: [{ locale: 'en', title_html: 'Start' }] });
        const snapshots: Wire[] = [await current(content.id)];
        for (const e of edits) if (await apply(content.id, e)) snapshots.push(await current(content.id));
        const revisions = (await api.get(`/docs/v2/contents/${content.id}/revisions?limit=100`)).json().data as Array<{ number: number }>;
        expect(revisions).toHaveLength(snapshots.length);
        const target = 1 + (pick % snapshots.length);
        const stored = (await api.get(`/docs/v2/contents/${content.id}/revisions/${target}`)).json().data.record as Record<string, unknown>;
        // A revision holds the record as the Backoffice answered it after that write.
        expect(withoutUpdatedAt(stored)).toEqual(withoutUpdatedAt(snapshots[target - 1]!));
        const reverted = await api.post(`/docs/v2/contents/${content.id}/revisions/${target}/restore`);
        expect(reverted.statusCode, reverted.body).toBe(200);
        expect(withoutUpdatedAt(reverted.json().data)).toEqual(withoutUpdatedAt(stored));
        expect(withoutUpdatedAt(await current(content.id))).toEqual(withoutUpdatedAt(stored));
      }),
      { numRuns: 15, endOnFailure: true },
    );
  }, 300_000);
});
