import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { expectError } from '../../setup/expect.js';
import { type Client, type SeededMedia, client, createCategory, seedMedia } from '../../setup/factories.js';
import { type DocsFixture, createBlock, createContent, docsFixture } from '../../setup/docs.js';
import { createIssue, createIssueType, createSection } from '../../setup/magazines.js';

let ctx: TestContext;
let media: SeededMedia;
let api: Client;
let fx: DocsFixture;

beforeAll(async () => {
  ctx = await createTestApp({ logLevel: 'error' });
  media = await seedMedia(ctx.app);
  api = client(ctx.app, media.keys.editor);
  fx = await docsFixture(api, media.workspaceId);
});
afterAll(() => ctx.close());

type Revision = { id: string; number: number; action: string; inserted_at: string; key_id: string; key_name: string; operation_id: string; note: string | null };
type Change = { op: string; path: string; from?: unknown; value?: unknown };

const revisionsOf = async (path: string) => {
  const res = await api.get(`${path}/revisions?limit=100`);
  expect(res.statusCode).toBe(200);
  return res.json().data as Revision[];
};
const diffOf = async (path: string, number: number, to?: number | 'current') => {
  const res = await api.get(`${path}/revisions/${number}/diff${to !== undefined ? `?to=${to}` : ''}`);
  expect(res.statusCode).toBe(200);
  return res.json().data as { from: number | null; to: number | 'current'; changes: Change[] };
};
const snapshotOf = async (path: string, number: number) => {
  const res = await api.get(`${path}/revisions/${number}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Revision & { record: Record<string, unknown> };
};
/** The content as its revision holds it: the Backoffice read with its blocks and metadata. */
const currentContent = async (id: string) => ({
  ...((await api.get(`/docs/v2/contents/${id}`)).json().data as Record<string, unknown>),
  blocks: (await api.get(`/docs/v2/contents/${id}/blocks`)).json().data,
  metadata: (await api.get(`/docs/v2/contents/${id}/metadata`)).json().data,
});
/** Everything but updated_at, which a revert moves (it is a write). */
const withoutUpdatedAt = ({ updated_at: _u, ...rest }: Record<string, unknown>) => rest;
const paths = (changes: Change[]) => changes.map((c) => `${c.op} ${c.path}`).sort();

describe('content revisions', () => {
  it('lists one revision per write with its action, names what each changed, and reverts exactly as a new revision', async () => {
    const [news, sport] = [await createCategory(api), await createCategory(api)];
    const content = await createContent(api, fx, {
      locales: [
        { locale: 'en', title_html: 'First' },
        { locale: 'fr', title_html: 'Premier' },
      ],
      content_categories: [{ category_id: news.id }, { category_id: sport.id }],
    });
    const path = `/docs/v2/contents/${content.id}`;
    const b1 = await createBlock(api, content.id, { locale: 'en', kind: 'richtext', content_html: '<p>One</p>' });

    // 1 created, 2 a block added; then five edits.
    const patched = await api.patch(path, {
      locales: [
        { locale: 'en', title_html: 'First, edited' },
        { locale: 'fr', title_html: 'Premier' },
      ],
    }, { 'x-revision-note': 'typo in the title' });
    expect(patched.statusCode).toBe(200);
    const b2 = await createBlock(api, content.id, { locale: 'en', kind: 'quote', content_html: 'Two' });
    expect((await api.patch(`${path}/blocks/${b2.id}`, { position: 0 })).statusCode).toBe(200);
    expect((await api.patch(path, { content_categories: [{ category_id: sport.id }] })).statusCode).toBe(200);
    expect((await api.put(`${path}/metadata`, { metadata: [{ key: 'source', value: 'AFP' }] })).statusCode).toBe(200);

    const listed = await revisionsOf(path);
    expect(listed.map((r) => [r.number, r.action, r.operation_id])).toEqual([
      [7, 'updated', 'replaceContentMetadata'],
      [6, 'updated', 'updateContent'],
      [5, 'updated', 'updateContentBlock'],
      [4, 'updated', 'createContentBlock'],
      [3, 'updated', 'updateContent'],
      [2, 'updated', 'createContentBlock'],
      [1, 'created', 'createContent'],
    ]);
    expect(listed[4]).toMatchObject({ note: 'typo in the title', key_name: 'editor key' });
    expect(listed[0]!.note).toBeNull();
    expect(Object.keys(listed[0]!).sort()).toEqual(['action', 'id', 'inserted_at', 'key_id', 'key_name', 'note', 'number', 'operation_id']);

    // Each diff names exactly what changed, by natural keys.
    const enTitle = await diffOf(path, 3);
    expect(enTitle.from).toBe(2);
    expect(paths(enTitle.changes).filter((p) => !p.endsWith('/updated_at'))).toEqual([
      'replace /locales/en/title_html',
      'replace /locales/en/title_text',
    ]);
    expect(enTitle.changes.find((c) => c.path === '/locales/en/title_html')).toEqual({ op: 'replace', path: '/locales/en/title_html', from: 'First', value: 'First, edited' });
    const added = await diffOf(path, 4);
    expect(paths(added.changes).filter((p) => !p.endsWith('/updated_at'))).toEqual([`add /blocks/${b2.id}`]);
    const moved = await diffOf(path, 5);
    expect(paths(moved.changes).filter((p) => !p.endsWith('/updated_at'))).toEqual([`replace /blocks/${b1.id}/position`, `replace /blocks/${b2.id}/position`]);
    const uncategorized = await diffOf(path, 6);
    expect(paths(uncategorized.changes).filter((p) => !p.endsWith('/updated_at'))).toEqual([`remove /content_categories/${news.id}`]);
    const metadata = await diffOf(path, 7);
    expect(paths(metadata.changes).filter((p) => !p.endsWith('/updated_at'))).toEqual(['add /metadata/source']);
    expect(metadata.changes.find((c) => c.path === '/metadata/source')!.value).toEqual({ key: 'source', value: 'AFP' });
    // A range, and the record as it is now.
    expect(paths((await diffOf(path, 2, 7)).changes).filter((p) => !p.endsWith('/updated_at'))).toEqual(
      [`add /blocks/${b2.id}`, `remove /content_categories/${news.id}`, 'add /metadata/source', `replace /blocks/${b1.id}/position`, 'replace /locales/en/title_html', 'replace /locales/en/title_text'].sort(),
    );
    expect((await diffOf(path, 7, 'current')).changes).toEqual([]);

    // Revert to 2: the answer equals revision 2's snapshot field by field (ids included), as revision 8.
    const two = await snapshotOf(path, 2);
    const reverted = await api.post(`${path}/revisions/2/restore`, undefined, { 'x-revision-note': 'back to the draft' });
    expect(reverted.statusCode).toBe(200);
    expect(withoutUpdatedAt(reverted.json().data)).toEqual(withoutUpdatedAt(two.record));
    expect(withoutUpdatedAt(await currentContent(content.id))).toEqual(withoutUpdatedAt(two.record));
    const after = await revisionsOf(path);
    expect(after[0]).toMatchObject({ number: 8, action: 'reverted', operation_id: 'restoreContentRevision', note: 'back to the draft' });
    expect(withoutUpdatedAt((await snapshotOf(path, 8)).record)).toEqual(withoutUpdatedAt(two.record));
    // The block added since is gone, the category removed since is back with its link id.
    expect((two.record.blocks as Array<{ id: string }>).map((b) => b.id)).toEqual([b1.id]);
    expect((two.record.content_categories as Array<{ category_id: string }>).map((c) => c.category_id)).toEqual([news.id, sport.id]);
  });

  it('adds a revision for a delete and a restore; a delete\'s revision is not one to revert to', async () => {
    const content = await createContent(api, fx);
    const path = `/docs/v2/contents/${content.id}`;
    expect((await api.delete(path)).statusCode).toBe(204);
    expect((await api.post(`${path}/restore`)).statusCode).toBe(200);
    const listed = await revisionsOf(path);
    expect(listed.map((r) => r.action)).toEqual(['restored', 'deleted', 'created']);
    const deleted = await snapshotOf(path, 2);
    expect(deleted.record.deleted_at).toEqual(expect.any(String));
    expect(deleted.record.id).toBe(content.id);
    expectError(await api.post(`${path}/revisions/2/restore`), 409, 'revision_not_revertible');
  });

  it('adds no revision for an idempotent replay or a failed write', async () => {
    const content = await createContent(api, fx);
    const path = `/docs/v2/contents/${content.id}`;
    const key = randomUUID();
    const first = await api.post(`${path}/blocks`, { locale: 'en', kind: 'richtext', content_html: '<p>x</p>' }, { 'idempotency-key': key });
    const replay = await api.post(`${path}/blocks`, { locale: 'en', kind: 'richtext', content_html: '<p>x</p>' }, { 'idempotency-key': key });
    expect(first.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expectError(await api.patch(path, { content_categories: [{ category_id: randomUUID() }] }), 404);
    expect((await revisionsOf(path)).map((r) => r.action)).toEqual(['updated', 'created']);
  });

  it('answers 404 for a revision of another media\'s record, a missing revision, and refuses a long note', async () => {
    const content = await createContent(api, fx);
    const path = `/docs/v2/contents/${content.id}`;
    const other = await seedMedia(ctx.app);
    const stranger = client(ctx.app, other.keys.admin);
    expectError(await stranger.get(`${path}/revisions`), 404, 'content_not_found');
    expectError(await stranger.get(`${path}/revisions/1`), 404, 'content_not_found');
    expectError(await stranger.get(`${path}/revisions/1/diff`), 404, 'content_not_found');
    expectError(await stranger.post(`${path}/revisions/1/restore`), 404, 'content_not_found');
    expectError(await api.get(`${path}/revisions/9`), 404, 'revision_not_found');
    expectError(await api.get(`/docs/v2/contents/${randomUUID()}/revisions`), 404, 'content_not_found');
    expectError(await api.patch(path, { is_archived: true }, { 'x-revision-note': 'x'.repeat(501) }), 400, 'validation_failed');
    expectError(await client(ctx.app, media.keys.viewer).post(`${path}/revisions/1/restore`), 403);
    expect((await client(ctx.app, media.keys.viewer).get(`${path}/revisions`)).statusCode).toBe(200);
  });
});

describe('issue revisions', () => {
  it('keeps the issue tree three levels deep (sections, blocks, slots) and reverts it exactly', async () => {
    const type = await createIssueType(api);
    const issue = await createIssue(api, media.workspaceId, type.id);
    const path = `/magazines/v2/issues/${issue.id}`;
    const [c1, c2] = [await createContent(api, fx), await createContent(api, fx)];
    const section = await createSection(api, issue.id);
    const blocks = await api.put(`/magazines/v2/sections/${section.id}/blocks`, { blocks: [{ kind: 'grid', position: 0 }, { kind: 'list', position: 1 }] });
    expect(blocks.statusCode, blocks.body).toBe(200);
    const [g, l] = blocks.json().data as Array<{ id: string }>;
    const slots = await api.put(`/magazines/v2/section-blocks/${g!.id}/slots`, { slots: [{ content_id: c1.id, position: 0 }, { content_id: c2.id, position: 1 }] });
    expect(slots.statusCode).toBe(200);
    const [s1] = slots.json().data as Array<{ id: string }>;

    // 4: the tree as it should come back. Then a section removed, a block replaced, slots changed.
    const four = await snapshotOf(path, 4);
    const sections = four.record.sections as Array<{ id: string; blocks: Array<{ id: string; slots: Array<{ id: string }> }> }>;
    expect(sections.map((s) => s.id)).toEqual([section.id]);
    expect(sections[0]!.blocks.map((b) => b.id)).toEqual([g!.id, l!.id]);
    expect(sections[0]!.blocks[0]!.slots.map((s) => s.id)).toEqual([s1!.id, expect.any(String)]);

    expect((await api.put(`/magazines/v2/section-blocks/${g!.id}/slots`, { slots: [{ content_id: c2.id, position: 0 }] })).statusCode).toBe(200);
    const slotDiff = (await diffOf(path, 5)).changes.filter((c) => !c.path.endsWith('/updated_at'));
    const under = `/sections/${section.id}/blocks/${g!.id}/slots/`;
    expect(slotDiff.every((c) => c.path.startsWith(under) && c.path.split('/').length === 7)).toBe(true);
    expect(slotDiff.map((c) => c.op).sort()).toEqual(['add', 'remove', 'remove']);
    expect(slotDiff.filter((c) => c.op === 'remove').map((c) => c.path).sort()).toEqual(sections[0]!.blocks[0]!.slots.map((s) => `${under}${s.id}`).sort());
    expect((await api.put(`/magazines/v2/sections/${section.id}/blocks`, { blocks: [{ id: l!.id, kind: 'list', position: 0 }] })).statusCode).toBe(200);
    const extra = await createSection(api, issue.id);
    expect((await api.delete(`/magazines/v2/sections/${section.id}`)).statusCode).toBe(204);
    expect((await revisionsOf(path)).map((r) => r.action)).toEqual(['updated', 'updated', 'updated', 'updated', 'updated', 'updated', 'updated', 'created']);

    const reverted = await api.post(`${path}/revisions/4/restore`);
    expect(reverted.statusCode).toBe(200);
    expect(withoutUpdatedAt(reverted.json().data)).toEqual(withoutUpdatedAt(four.record));
    expect((await api.get(`/magazines/v2/sections/${extra.id}`)).statusCode).toBe(404);
    expect((await api.get(`/magazines/v2/section-blocks/${g!.id}/slots`)).json().data).toEqual(sections[0]!.blocks[0]!.slots);
    expect((await revisionsOf(path))[0]).toMatchObject({ number: 9, action: 'reverted' });
  });
});

describe('the other kinds that keep revisions', () => {
  /** A write, then a revert to revision 1: the record as it was, as revision 3. */
  const roundTrip = async (path: string, patch: () => Promise<{ statusCode: number }>) => {
    expect((await patch()).statusCode).toBe(200);
    const one = await snapshotOf(path, 1);
    const reverted = await api.post(`${path}/revisions/1/restore`);
    expect(reverted.statusCode, reverted.body).toBe(200);
    expect(withoutUpdatedAt(reverted.json().data)).toEqual(withoutUpdatedAt(one.record));
    expect((await revisionsOf(path)).map((r) => r.action)).toEqual(['reverted', 'updated', 'created']);
  };

  it('keeps revisions of a declared record (a webpage) and of a template', async () => {
    const statuses = fx.statuses;
    const page = await api.post('/publisher/v2/webpages', { key: `about-${randomUUID().slice(0, 8)}`, status_id: statuses.draft, locales: [{ locale: 'en', title: 'About', body_html: '<p>Us</p>' }] });
    expect(page.statusCode).toBe(201);
    const webpage = `/publisher/v2/webpages/${page.json().data.id}`;
    await roundTrip(webpage, () => api.patch(webpage, { locales: [{ locale: 'fr', title: 'À propos', body_html: '<p>Nous</p>' }] }));
    const diff = await diffOf(webpage, 2);
    expect(paths(diff.changes).filter((p) => !p.endsWith('/updated_at'))).toEqual(['add /locales/fr', 'remove /locales/en']);

    const template = `/docs/v2/templates/${fx.templateId}`;
    const before = (await revisionsOf(template)).length;
    expect((await api.patch(template, { name: 'Renamed' })).statusCode).toBe(200);
    const after = await revisionsOf(template);
    expect(after).toHaveLength(before + 1);
    expect(after[0]).toMatchObject({ action: 'updated', operation_id: 'updateTemplate' });
    const latest = after[0]!.number;
    expect((await snapshotOf(template, latest)).record).toMatchObject({ id: fx.templateId, name: 'Renamed' });
    expect(paths((await diffOf(template, latest)).changes).filter((p) => !p.endsWith('/updated_at'))).toEqual(['replace /name']);
    const back = await api.post(`${template}/revisions/${latest - 1}/restore`);
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().data.name).toBe((await snapshotOf(template, latest - 1)).record.name);
    expect((await revisionsOf(template))[0]).toMatchObject({ number: latest + 1, action: 'reverted' });
  });

  const key = () => `k-${randomUUID().slice(0, 8)}`;
  it.each([
    ['menus', () => ({ key: key(), name: 'Main', locales: [{ locale: 'en', items: [{ name: 'News', url: '/news' }] }] }), { locales: [{ locale: 'en', items: [{ name: 'Sport', url: '/sport' }] }] }, '/locales/en/items'],
    ['media-blocks', () => ({ key: key(), locales: [{ locale: 'en', content_html: '<p>One</p>' }] }), { locales: [{ locale: 'en', content_html: '<p>Two</p>' }] }, '/locales/en/content_'],
    ['announcements', () => ({ locales: [{ locale: 'en', title: 'Now' }] }), { locales: [{ locale: 'en', title: 'Later' }] }, '/locales/en/title'],
  ] as const)('keeps revisions of %s: listed, read, compared and reverted', async (kind, body, patch, changed) => {
    const created = await api.post(`/publisher/v2/${kind}`, body());
    expect(created.statusCode, created.body).toBe(201);
    const path = `/publisher/v2/${kind}/${created.json().data.id}`;
    await roundTrip(path, () => api.patch(path, patch));
    const diff = await diffOf(path, 2);
    expect(diff.from).toBe(1);
    expect(diff.to).toBe(2);
    const changes = diff.changes.filter((c) => !c.path.endsWith('/updated_at'));
    expect(changes.length).toBeGreaterThan(0);
    for (const c of changes) expect(c.path.startsWith(changed), c.path).toBe(true);
    expectError(await api.get(`${path}/revisions/9`), 404);
  });
});

describe('retention', () => {
  it('prunes revisions older than REVISION_RETENTION_DAYS, never the latest of a record', async () => {
    const content = await createContent(api, fx);
    const path = `/docs/v2/contents/${content.id}`;
    expect((await api.patch(path, { is_archived: true })).statusCode).toBe(200);
    const { createRevisionsService } = await import('../../../src/modules/core/revisions/revisions.service.js');
    const noJobs = { queue: () => ({ send: async () => undefined }) } as never;
    const pager = undefined as never;
    const kept = createRevisionsService({ db: ctx.database.db, pager, jobs: noJobs });
    expect(await kept.prune(new Date(Date.now() + 1000 * 86_400_000))).toBe(0);
    const pruning = createRevisionsService({ db: ctx.database.db, pager, jobs: noJobs, retentionDays: 30 });
    expect(await pruning.hasExpired()).toBe(false);
    const later = new Date(Date.now() + 31 * 86_400_000);
    expect(await pruning.hasExpired(later)).toBe(true);
    expect(await pruning.prune(later)).toBeGreaterThanOrEqual(1);
    const left = await revisionsOf(path);
    expect(left.map((r) => [r.number, r.action])).toEqual([[2, 'updated']]);
    expect((await api.get(`${path}/revisions/2`)).statusCode).toBe(200);
  });
});
