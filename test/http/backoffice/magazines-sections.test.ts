import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { type ContentWire, type DocsFixture, createContent, docsFixture } from '../../setup/docs.js';
import { ISO_MS, UUID, expectError } from '../../setup/expect.js';
import { type Client, type SeededMedia, client, seedMedia } from '../../setup/factories.js';
import { type IssueWire, addSectionContent, createIssue, createIssueType, createSection } from '../../setup/magazines.js';

let ctx: TestContext;
let media: SeededMedia;
let api: Client;
let fx: DocsFixture;
let issue: IssueWire;
let contents: ContentWire[];

beforeAll(async () => {
  ctx = await createTestApp();
  media = await seedMedia(ctx.app);
  api = client(ctx.app, media.keys.editor);
  fx = await docsFixture(api, media.workspaceId);
  issue = await createIssue(api, media.workspaceId, (await createIssueType(api)).id);
  contents = [];
  for (const title of ['Volcanoes erupt', 'Glaciers retreat', 'Markets rally']) {
    contents.push(await createContent(api, fx, { locales: [{ locale: 'en', title_html: title, lead_html: `<p>About ${title.toLowerCase()}</p>` }] }));
  }
});
afterAll(() => ctx.close());

type Block = { id: string; kind: string; position: number; settings: Record<string, unknown>; slots: Array<{ id: string; content_id: string; position: number }> };
const blocksOf = async (sectionId: string) => (await api.get(`/magazines/v2/sections/${sectionId}/blocks`)).json().data as Block[];

describe('sections', () => {
  it('creates sections after the last one, lists them in order, reads, updates and removes one', async () => {
    const res = await api.post(`/magazines/v2/issues/${issue.id}/sections`, {
      key: 'features',
      locales: [{ locale: 'en', name: 'Features', description_html: '<p>Long <em>reads</em><img src=x onerror=alert(1)></p>' }],
    });
    expect(res.statusCode, res.body).toBe(201);
    const first = res.json().data;
    expect(first).toEqual({
      id: expect.stringMatching(UUID),
      issue_id: issue.id,
      key: 'features',
      position: 0,
      locales: [
        {
          id: expect.stringMatching(UUID),
          locale: 'en',
          name: 'Features',
          description_html: '<p>Long <em>reads</em><img src="x" /></p>',
          description_text: 'Long reads',
          deleted_at: null,
        },
      ],
      inserted_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
      deleted_at: null,
    });
    const second = await createSection(api, issue.id, { key: 'news' });
    expect(second.position).toBe(1);
    expectError(await api.post(`/magazines/v2/issues/${issue.id}/sections`, { key: 'news', locales: [{ locale: 'en', name: 'N' }] }), 409, 'section_key_taken');
    const moved = await api.patch(`/magazines/v2/sections/${second.id}`, { position: -1 });
    expectError(moved, 400);
    const updated = await api.patch(`/magazines/v2/sections/${first.id}`, { position: 5, locales: [{ locale: 'fr', name: 'Dossiers' }] });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().data).toMatchObject({ position: 5, locales: [{ locale: 'fr', name: 'Dossiers' }] });
    const list = await api.get(`/magazines/v2/issues/${issue.id}/sections?limit=1`);
    expect(list.json().data.map((s: { id: string }) => s.id)).toEqual([second.id]);
    const next = await api.get(list.json().meta.next);
    expect(next.json().data.map((s: { id: string }) => s.id)).toEqual([first.id]);
    expect((await api.delete(`/magazines/v2/sections/${first.id}`)).statusCode).toBe(204);
    expectError(await api.get(`/magazines/v2/sections/${first.id}`), 404, 'section_not_found');
    expectError(await api.post(`/magazines/v2/issues/${randomUUID()}/sections`, { key: 'x', locales: [{ locale: 'en', name: 'X' }] }), 404, 'issue_not_found');
    expectError(await api.post(`/magazines/v2/issues/${issue.id}/sections`, { key: 'Bad Key', locales: [{ locale: 'en', name: 'X' }] }), 400);
  });
});

describe('section blocks and slots', () => {
  it('replaces the blocks as a set: kept by id, created without, removed when missing, stored in position order', async () => {
    const section = await createSection(api, issue.id);
    const put = await api.put(`/magazines/v2/sections/${section.id}/blocks`, {
      blocks: [
        { kind: 'hero', position: 10, settings: { columns: 1 } },
        { kind: 'grid', position: 2 },
      ],
    });
    expect(put.statusCode, put.body).toBe(200);
    const [grid, hero] = put.json().data as Block[];
    expect(grid).toEqual({
      id: expect.stringMatching(UUID),
      section_id: section.id,
      kind: 'grid',
      position: 0,
      settings: {},
      slots: [],
      inserted_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
    });
    expect(hero).toMatchObject({ kind: 'hero', position: 1, settings: { columns: 1 } });

    const again = await api.put(`/magazines/v2/sections/${section.id}/blocks`, {
      blocks: [
        { id: hero!.id, kind: 'hero', position: 0, settings: { columns: 2 } },
        { kind: 'list', position: 1 },
      ],
    });
    expect(again.statusCode, again.body).toBe(200);
    const after = again.json().data as Block[];
    expect(after.map((b) => [b.id === hero!.id, b.kind, b.position, b.settings])).toEqual([
      [true, 'hero', 0, { columns: 2 }],
      [false, 'list', 1, {}],
    ]);
    expect(await blocksOf(section.id)).toEqual(after);
    expectError(await api.get(`/magazines/v2/section-blocks/${grid!.id}`), 404, 'section_block_not_found');
  });

  it('changes nothing when one element is invalid: a bad field, a settings object over 16 KB, a foreign id, a repeated position', async () => {
    const section = await createSection(api, issue.id);
    const before = (await api.put(`/magazines/v2/sections/${section.id}/blocks`, { blocks: [{ kind: 'hero', position: 0 }] })).json().data as Block[];
    const bad = [
      { blocks: [{ kind: 'grid', position: 0 }, { kind: 'list', position: 1, colour: 'red' }] },
      { blocks: [{ kind: 'grid', position: 0 }, { kind: 'list', position: 1, settings: { blob: 'x'.repeat(17_000) } }] },
      { blocks: [{ kind: 'grid', position: 0 }, { id: randomUUID(), kind: 'list', position: 1 }] },
      { blocks: [{ kind: 'grid', position: 0 }, { kind: 'list', position: 0 }] },
      { blocks: [{ kind: 'grid', position: 0 }, { kind: '', position: 1 }] },
    ];
    for (const body of bad) {
      const res = await api.put(`/magazines/v2/sections/${section.id}/blocks`, body);
      expectError(res, 400);
      expect(await blocksOf(section.id)).toEqual(before);
    }
    expectError(await api.put(`/magazines/v2/sections/${section.id}/blocks`, [{ kind: 'grid', position: 0 }]), 400);
    expectError(await api.put(`/magazines/v2/sections/${randomUUID()}/blocks`, { blocks: [] }), 404, 'section_not_found');
  });

  it('concurrent replacements of one section end in one of the submitted sets, never a mix', async () => {
    const section = await createSection(api, issue.id);
    for (let round = 0; round < 4; round++) {
      const current = await blocksOf(section.id);
      const a = { blocks: [...current.map((b, i) => ({ id: b.id, kind: `a${round}`, position: i })), { kind: `a${round}`, position: 50 }, { kind: `a${round}`, position: 51 }] };
      const b = { blocks: [{ kind: `b${round}`, position: 0 }, { kind: `b${round}`, position: 1 }, { kind: `b${round}`, position: 2 }] };
      const [ra, rb] = await Promise.all([api.put(`/magazines/v2/sections/${section.id}/blocks`, a), api.put(`/magazines/v2/sections/${section.id}/blocks`, b)]);
      expect(rb.statusCode, rb.body).toBe(200);
      const final = await blocksOf(section.id);
      const kinds = new Set(final.map((x) => x.kind));
      expect(kinds.size).toBe(1);
      const winner = [...kinds][0]!;
      if (ra.statusCode !== 200) {
        // B committed first and removed the blocks A keeps by id: A is refused whole, B's set stands.
        const refused = expectError(ra, 400, 'validation_failed');
        expect(refused.details?.[0]).toEqual({ path: 'blocks.0.id', message: expect.stringContaining('is not an entry of this set') });
        expect(winner).toBe(`b${round}`);
      }
      expect(final).toHaveLength(winner.startsWith('a') ? a.blocks.length : 3);
      expect(final.map((x) => x.position)).toEqual(final.map((_, i) => i));
    }
  });

  it('reads and patches a block; replaces its slots with contents of the media only, all or nothing', async () => {
    const section = await createSection(api, issue.id);
    const [block] = (await api.put(`/magazines/v2/sections/${section.id}/blocks`, { blocks: [{ kind: 'grid', position: 0 }] })).json().data as Block[];
    const patched = await api.patch(`/magazines/v2/section-blocks/${block!.id}`, { settings: { columns: 3 } });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().data).toMatchObject({ id: block!.id, kind: 'grid', settings: { columns: 3 }, slots: [] });
    expectError(await api.patch(`/magazines/v2/section-blocks/${block!.id}`, { position: 3 }), 400);

    const slots = await api.put(`/magazines/v2/section-blocks/${block!.id}/slots`, {
      slots: [
        { position: 1, content_id: contents[1]!.id },
        { position: 0, content_id: contents[0]!.id },
      ],
    });
    expect(slots.statusCode, slots.body).toBe(200);
    const set = slots.json().data;
    expect(set).toEqual([
      { id: expect.stringMatching(UUID), block_id: block!.id, position: 0, content_id: contents[0]!.id, inserted_at: expect.stringMatching(ISO_MS), updated_at: expect.stringMatching(ISO_MS) },
      { id: expect.stringMatching(UUID), block_id: block!.id, position: 1, content_id: contents[1]!.id, inserted_at: expect.stringMatching(ISO_MS), updated_at: expect.stringMatching(ISO_MS) },
    ]);
    expect((await api.get(`/magazines/v2/section-blocks/${block!.id}/slots`)).json().data).toEqual(set);

    const other = await seedMedia(ctx.app);
    const foreignContent = await createContent(client(ctx.app, other.keys.editor), await docsFixture(client(ctx.app, other.keys.editor), other.workspaceId));
    for (const contentId of [randomUUID(), foreignContent.id]) {
      const res = await api.put(`/magazines/v2/section-blocks/${block!.id}/slots`, {
        slots: [{ position: 0, content_id: contents[2]!.id }, { position: 1, content_id: contentId }],
      });
      const error = expectError(res, 404, 'content_not_found');
      expect(error.details).toEqual([{ path: 'slots.1.content_id', message: expect.any(String) }]);
      expect((await api.get(`/magazines/v2/section-blocks/${block!.id}/slots`)).json().data).toEqual(set);
    }
    expectError(await api.put(`/magazines/v2/section-blocks/${block!.id}/slots`, { slots: [{ position: 0, content_id: 'nope' }] }), 400);
    const kept = await api.put(`/magazines/v2/section-blocks/${block!.id}/slots`, { slots: [{ id: set[1].id, position: 0, content_id: contents[2]!.id }] });
    expect(kept.json().data).toMatchObject([{ id: set[1].id, position: 0, content_id: contents[2]!.id }]);
    expectError(await client(ctx.app, other.keys.editor).get(`/magazines/v2/section-blocks/${block!.id}`), 404, 'section_block_not_found');
  });
});

describe('section contents', () => {
  it('adds contents to a section in order, lists them by section and by issue, searches them, removes one', async () => {
    const section = await createSection(api, issue.id);
    const a = await addSectionContent(api, issue.id, section.id, contents[0]!.id);
    const b = await addSectionContent(api, issue.id, section.id, contents[1]!.id);
    const res = await api.post(`/magazines/v2/issues/${issue.id}/section-contents`, { section_id: section.id, content_id: contents[2]!.id, position: 0 });
    expect(res.statusCode, res.body).toBe(201);
    const c = res.json().data;
    expect(c).toEqual({
      id: expect.stringMatching(UUID),
      issue_id: issue.id,
      section_id: section.id,
      content_id: contents[2]!.id,
      position: 0,
      inserted_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
      deleted_at: null,
    });
    expect([a.position, b.position]).toEqual([0, 1]);
    expectError(
      await api.post(`/magazines/v2/issues/${issue.id}/section-contents`, { section_id: section.id, content_id: contents[0]!.id }),
      409,
      'section_content_taken',
    );
    expectError(await api.post(`/magazines/v2/issues/${issue.id}/section-contents`, { section_id: section.id, content_id: randomUUID() }), 404, 'content_not_found');
    const otherIssue = await createIssue(api, media.workspaceId, issue.issue_type_id);
    expectError(
      await api.post(`/magazines/v2/issues/${otherIssue.id}/section-contents`, { section_id: section.id, content_id: contents[0]!.id }),
      404,
      'section_not_found',
    );

    const bySection = await api.get(`/magazines/v2/sections/${section.id}/contents?limit=2`);
    expect(bySection.statusCode, bySection.body).toBe(200);
    // Position order; content_id breaks the tie between the two at position 0.
    const firstTwo = [
      { id: a.id, contentId: contents[0]!.id },
      { id: c.id as string, contentId: contents[2]!.id },
    ].sort((x, y) => (x.contentId < y.contentId ? -1 : 1));
    expect(bySection.json().data.map((e: { id: string }) => e.id)).toEqual(firstTwo.map((e) => e.id));
    const rest = await api.get(bySection.json().meta.next);
    expect(rest.json().data.map((e: { id: string }) => e.id)).toEqual([b.id]);

    const byIssue = await api.get(`/magazines/v2/issues/${issue.id}/section-contents?limit=100`);
    expect(byIssue.json().data.map((e: { id: string }) => e.id)).toEqual(expect.arrayContaining([a.id, b.id, c.id]));

    const search = await api.get(`/magazines/v2/issues/${issue.id}/section-contents/search?q=glaciers`);
    expect(search.statusCode, search.body).toBe(200);
    expect(search.json().data.map((e: { id: string }) => e.id)).toEqual([b.id]);
    const typo = await api.get(`/magazines/v2/issues/${issue.id}/section-contents/search?q=volcanoe`);
    expect(typo.json().data.map((e: { id: string }) => e.id)).toEqual([a.id]);
    expectError(await api.get(`/magazines/v2/issues/${issue.id}/section-contents/search`), 400);
    expectError(await api.get(`/magazines/v2/issues/${issue.id}/section-contents/search?q=${'x'.repeat(201)}`), 400);

    expect((await api.delete(`/magazines/v2/section-contents/${b.id}`)).statusCode).toBe(204);
    expectError(await api.delete(`/magazines/v2/section-contents/${b.id}`), 404, 'section_content_not_found');
    const after = await api.get(`/magazines/v2/sections/${section.id}/contents`);
    expect(after.json().data.map((e: { id: string }) => e.id)).not.toContain(b.id);
    expect((await api.get(`/magazines/v2/issues/${issue.id}/section-contents/search?q=glaciers`)).json().data).toEqual([]);
    // Removed, the content can be added again, after the last live one.
    expect((await addSectionContent(api, issue.id, section.id, contents[1]!.id)).position).toBe(1);
  });
});
