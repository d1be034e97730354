import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { type DocsFixture, createContent, docsFixture, insertAssetImage } from '../../setup/docs.js';
import { ISO_MS, UUID, expectError } from '../../setup/expect.js';
import { type Client, type SeededMedia, client, seedMedia } from '../../setup/factories.js';
import { addSectionContent, createIssue, createIssueType, createSection } from '../../setup/magazines.js';
import { rowsOf } from '../../../src/db/rows.js';

let ctx: TestContext;
let media: SeededMedia;
let api: Client;
let fx: DocsFixture;
let issueTypeId: string;

beforeAll(async () => {
  ctx = await createTestApp({ publicBaseUrl: 'https://api.example.test' });
  media = await seedMedia(ctx.app);
  api = client(ctx.app, media.keys.editor);
  fx = await docsFixture(api, media.workspaceId);
  issueTypeId = (await createIssueType(api)).id;
});
afterAll(() => ctx.close());

describe('issue types', () => {
  it('creates, lists, reads and updates an issue type; a taken key is a 409', async () => {
    const created = await api.post('/magazines/v2/issue-types', { key: 'special', name: 'Special' });
    expect(created.statusCode, created.body).toBe(201);
    const type = created.json().data;
    expect(type).toEqual({ id: expect.stringMatching(UUID), key: 'special', name: 'Special', inserted_at: expect.stringMatching(ISO_MS), updated_at: expect.stringMatching(ISO_MS) });
    expectError(await api.post('/magazines/v2/issue-types', { key: 'special', name: 'Again' }), 409, 'issue_type_key_taken');
    expect((await api.get(`/magazines/v2/issue-types/${type.id}`)).json().data).toEqual(type);
    const list = await api.get('/magazines/v2/issue-types?limit=100');
    expect(list.json().data.map((t: { id: string }) => t.id)).toContain(type.id);
    const updated = await api.patch(`/magazines/v2/issue-types/${type.id}`, { name: 'Special edition' });
    expect(updated.json().data).toMatchObject({ key: 'special', name: 'Special edition' });
    expectError(await api.post('/magazines/v2/issue-types', { key: 'x', name: 'X', extra: 1 }), 400);
    expectError(await api.get(`/magazines/v2/issue-types/${randomUUID()}`), 404, 'issue_type_not_found');
  });
});

describe('issues', () => {
  it('creates an issue in a workspace exactly as spec 2.8 shows it, sanitizing and deriving the description', async () => {
    const image = await insertAssetImage(ctx.database.db, media.mediaId, { gravity: 'north' });
    const res = await api.post(`/magazines/v2/workspaces/${media.workspaceId}/issues`, {
      issue_type_id: issueTypeId,
      kind: 'regular',
      color: '#A1B2C3',
      pdf_file_key: 'issues/42.pdf',
      advertising_key: 'ads-42',
      locales: [
        {
          locale: 'en',
          name: 'November',
          description_html: '<p>The <strong>best</strong><script>alert(1)</script></p>',
          visual: { type: 'image', image: { asset_image_id: image.id } },
        },
        { locale: 'fr', name: 'Novembre' },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const issue = res.json().data;
    expect(issue).toEqual({
      id: expect.stringMatching(UUID),
      workspace_id: media.workspaceId,
      issue_type_id: issueTypeId,
      kind: 'regular',
      color: '#a1b2c3',
      pdf_file_key: 'issues/42.pdf',
      advertising_key: 'ads-42',
      locales: [
        {
          id: expect.stringMatching(UUID),
          name: 'November',
          locale: 'en',
          visual: {
            type: 'image',
            image: {
              id: image.id,
              asset_image_id: image.id,
              file_key: image.fileKey,
              url: `https://api.example.test/assets/${image.fileKey}`,
              credit: 'Photo: Ada',
              caption_html: '<p>A caption</p>',
              caption_text: 'A caption',
              gravity: 'north',
            },
          },
          deleted_at: null,
          description_html: '<p>The <strong>best</strong></p>',
          description_text: 'The best',
        },
        {
          id: expect.stringMatching(UUID),
          name: 'Novembre',
          locale: 'fr',
          visual: { type: 'none', image: null },
          deleted_at: null,
          description_html: null,
          description_text: null,
        },
      ],
      inserted_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
      deleted_at: null,
    });
    expect((await api.get(`/magazines/v2/issues/${issue.id}`)).json().data).toEqual(issue);
  });

  it('refuses a bad colour, an unknown field, an unknown issue type, image or workspace, and a locale the media lacks', async () => {
    const path = `/magazines/v2/workspaces/${media.workspaceId}/issues`;
    const base = { issue_type_id: issueTypeId, kind: 'regular', color: '#112233', locales: [{ locale: 'en', name: 'N' }] };
    expect(expectError(await api.post(path, { ...base, color: 'red' }), 400).details?.[0]?.path).toBe('color');
    expectError(await api.post(path, { ...base, workspace_id: media.workspaceId }), 400);
    expectError(await api.post(path, { ...base, issue_type_id: randomUUID() }), 404, 'issue_type_not_found');
    expectError(
      await api.post(path, { ...base, locales: [{ locale: 'en', name: 'N', visual: { type: 'image', image: { asset_image_id: randomUUID() } } }] }),
      404,
      'asset_image_not_found',
    );
    expectError(await api.post(`/magazines/v2/workspaces/${randomUUID()}/issues`, base), 404, 'workspace_not_found');
    expectError(await api.post(path, { ...base, locales: [{ locale: 'de', name: 'N' }] }), 400);
    expectError(await api.post(`/magazines/v2/workspaces/nope/issues`, base), 400, 'invalid_uuid');
  });

  it('lists the workspace issues newest first with cursor paging', async () => {
    const a = await createIssue(api, media.workspaceId, issueTypeId);
    const b = await createIssue(api, media.workspaceId, issueTypeId);
    const first = await api.get(`/magazines/v2/workspaces/${media.workspaceId}/issues?limit=1`);
    expect(first.statusCode).toBe(200);
    expect(first.json().data.map((i: { id: string }) => i.id)).toEqual([b.id]);
    const next = first.json().meta.next as string;
    const second = await api.get(next);
    expect(second.json().data.map((i: { id: string }) => i.id)).toEqual([a.id]);
  });

  it('updates fields and replaces the locale set as a whole', async () => {
    const issue = await createIssue(api, media.workspaceId, issueTypeId, {
      locales: [{ locale: 'en', name: 'One' }, { locale: 'fr', name: 'Un' }],
    });
    const res = await api.patch(`/magazines/v2/issues/${issue.id}`, {
      color: '#000000',
      pdf_file_key: null,
      locales: [{ locale: 'en', name: 'One bis', description_html: '<p>x</p>' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.color).toBe('#000000');
    expect(data.kind).toBe('regular');
    expect(data.locales.map((l: { locale: string; name: string }) => [l.locale, l.name])).toEqual([['en', 'One bis']]);
    expect(data.locales[0].id).toBe(issue.locales[0]!.id);
    expectError(await api.patch(`/magazines/v2/issues/${issue.id}`, { workspace_id: randomUUID() }), 400);
    expectError(await api.patch(`/magazines/v2/issues/${randomUUID()}`, { kind: 'special' }), 404, 'issue_not_found');
  });

  it('delete takes the whole tree under one stamp; restore brings back exactly that, leaving a section deleted before deleted', async () => {
    const content = await createContent(api, fx);
    const issue = await createIssue(api, media.workspaceId, issueTypeId);
    const kept = await createSection(api, issue.id);
    const dropped = await createSection(api, issue.id);
    const blocks = await api.put(`/magazines/v2/sections/${kept.id}/blocks`, { blocks: [{ kind: 'grid', position: 0 }] });
    const blockId = blocks.json().data[0].id as string;
    expect((await api.put(`/magazines/v2/section-blocks/${blockId}/slots`, { slots: [{ position: 0, content_id: content.id }] })).statusCode).toBe(200);
    const entry = await addSectionContent(api, issue.id, kept.id, content.id);
    const droppedEntry = await addSectionContent(api, issue.id, dropped.id, content.id);

    expect((await api.delete(`/magazines/v2/sections/${dropped.id}`)).statusCode).toBe(204);
    expect((await api.delete(`/magazines/v2/issues/${issue.id}`)).statusCode).toBe(204);

    expectError(await api.get(`/magazines/v2/issues/${issue.id}`), 404, 'issue_not_found');
    expectError(await api.get(`/magazines/v2/sections/${kept.id}`), 404, 'section_not_found');
    expectError(await api.get(`/magazines/v2/section-blocks/${blockId}`), 404, 'section_block_not_found');
    expect((await api.delete(`/magazines/v2/issues/${issue.id}`)).statusCode).toBe(404);
    const stamps = await ctx.database.db.execute<{ t: string; deleted_at: string | null }>(
      `select 'issue' as t, deleted_at::text from issues where id = '${issue.id}'
       union all select 'locale', deleted_at::text from issue_locales where issue_id = '${issue.id}'
       union all select 'section', deleted_at::text from sections where id = '${kept.id}'
       union all select 'block', deleted_at::text from section_blocks where id = '${blockId}'
       union all select 'slot', deleted_at::text from block_slots where block_id = '${blockId}'
       union all select 'content', deleted_at::text from section_contents where id = '${entry.id}'` as never,
    );
    const rows = rowsOf<{ deleted_at: string | null }>(stamps);
    expect(rows).toHaveLength(6);
    expect(new Set(rows.map((r) => r.deleted_at)).size).toBe(1);
    expect(rows[0]!.deleted_at).not.toBeNull();

    const restored = await api.post(`/magazines/v2/issues/${issue.id}/restore`);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json().data).toMatchObject({ id: issue.id, deleted_at: null, locales: [{ id: issue.locales[0]!.id, deleted_at: null }] });
    expect((await api.get(`/magazines/v2/sections/${kept.id}`)).statusCode).toBe(200);
    expect((await api.get(`/magazines/v2/section-blocks/${blockId}`)).json().data.slots).toHaveLength(1);
    expectError(await api.get(`/magazines/v2/sections/${dropped.id}`), 404, 'section_not_found');
    const listed = await api.get(`/magazines/v2/issues/${issue.id}/section-contents`);
    expect(listed.json().data.map((e: { id: string }) => e.id)).toEqual([entry.id]);
    expect(listed.json().data.map((e: { id: string }) => e.id)).not.toContain(droppedEntry.id);
    // Idempotent.
    expect((await api.post(`/magazines/v2/issues/${issue.id}/restore`)).statusCode).toBe(200);
    expectError(await api.post(`/magazines/v2/issues/${randomUUID()}/restore`), 404, 'issue_not_found');
  });
});

describe('auth and tenancy', () => {
  it('needs a key (401), magazines:write to write (403), and hides another media’s issue (404)', async () => {
    const issue = await createIssue(api, media.workspaceId, issueTypeId);
    expectError(await client(ctx.app).get(`/magazines/v2/issues/${issue.id}`), 401);
    expect((await client(ctx.app, media.keys.viewer).get(`/magazines/v2/issues/${issue.id}`)).statusCode).toBe(200);
    expectError(await client(ctx.app, media.keys.viewer).patch(`/magazines/v2/issues/${issue.id}`, { kind: 'x' }), 403);
    expectError(await client(ctx.app, media.keys.ad_manager).get(`/magazines/v2/issues/${issue.id}`), 403);
    const other = await seedMedia(ctx.app);
    const foreign = client(ctx.app, other.keys.editor);
    expectError(await foreign.get(`/magazines/v2/issues/${issue.id}`), 404, 'issue_not_found');
    expectError(await foreign.delete(`/magazines/v2/issues/${issue.id}`), 404, 'issue_not_found');
    expectError(await foreign.get(`/magazines/v2/issue-types/${issueTypeId}`), 404);
    expectError(await foreign.get(`/magazines/v2/workspaces/${media.workspaceId}/issues`), 404, 'workspace_not_found');
    const otherType = await createIssueType(foreign);
    expectError(await api.post(`/magazines/v2/workspaces/${media.workspaceId}/issues`, {
      issue_type_id: otherType.id, kind: 'regular', color: '#000000', locales: [{ locale: 'en', name: 'N' }],
    }), 404, 'issue_type_not_found');
  });
});
