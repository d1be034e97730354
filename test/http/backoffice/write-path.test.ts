import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { type CommunityFixture, communityFixture, createProfile } from '../../setup/community.js';
import { type DocsFixture, createContent, docsFixture } from '../../setup/docs.js';
import { expectError } from '../../setup/expect.js';
import { type Client, type SeededMedia, client, seedMedia } from '../../setup/factories.js';

// A conditional write locks its record's row in the request's transaction before the service
// runs. The services of docs and community write on that transaction (ctx), so the write goes
// through; a service writing on a transaction of its own would wait for that lock until the
// request's transaction ended, which it never does.

let ctx: TestContext;
let media: SeededMedia;
let editor: Client;
let docs: DocsFixture;
let community: CommunityFixture;

beforeAll(async () => {
  ctx = await createTestApp();
  media = await seedMedia(ctx.app);
  editor = client(ctx.app, media.keys.editor);
  docs = await docsFixture(editor, media.workspaceId);
  community = await communityFixture(editor, media.workspaceId);
});
afterAll(async () => {
  await ctx?.close();
});

/** The ETag the GET of `url` sends now. */
const etagOf = async (url: string) => (await editor.get(url)).headers.etag as string;

describe("docs' and community's writes run in the request's transaction, under the row lock If-Match took", () => {
  it('a template: PATCH under its current ETag writes, a stale one is a 412 that changes nothing', async () => {
    const url = `/docs/v2/templates/${docs.templateId}`;
    const v1 = await etagOf(url);
    const ok = await editor.patch(url, { name: 'Renamed template' }, { 'if-match': v1 });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toMatchObject({ id: docs.templateId, name: 'Renamed template' });
    expectError(await editor.patch(url, { name: 'Lost' }, { 'if-match': v1 }), 412, 'precondition_failed');
    expect((await editor.get(url)).json().data.name).toBe('Renamed template');
  });

  it('a content: PATCH, then DELETE under the current ETag', async () => {
    const content = await createContent(editor, docs);
    const url = `/docs/v2/contents/${content.id}`;
    const ok = await editor.patch(url, { is_archived: true }, { 'if-match': await etagOf(url) });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toMatchObject({ id: content.id, is_archived: true });
    expect((await editor.delete(url, { 'if-match': await etagOf(url) })).statusCode).toBe(204);
    expectError(await editor.get(url), 404, 'content_not_found');
  });

  it('a profile: PATCH, its metadata and its blocks (sets) under the current ETag', async () => {
    const person = await createProfile(editor, community, 'people');
    const url = `/community/v2/people/${person.id}`;
    const patched = await editor.patch(url, { first_name: 'Grace' }, { 'if-match': await etagOf(url) });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().data).toMatchObject({ id: person.id, first_name: 'Grace' });

    const metadata = `${url}/metadata`;
    const replaced = await editor.put(metadata, { metadata: [{ key: 'source', value: 'wire' }] }, { 'if-match': await etagOf(metadata) });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json().data).toEqual([{ key: 'source', value: 'wire' }]);

    const blocks = `${url}/blocks`;
    const v1 = await etagOf(blocks);
    const set = await editor.put(blocks, { blocks: [{ key: 'press', locales: [{ locale: 'en', title: 'Press' }] }] }, { 'if-match': v1 });
    expect(set.statusCode, set.body).toBe(200);
    const [block] = set.json().data as Array<{ id: string }>;
    expect(set.json().data).toEqual([{ id: block!.id, key: 'press', position: 0, locales: [{ locale: 'en', title: 'Press' }] }]);
    expectError(await editor.put(blocks, { blocks: [] }, { 'if-match': v1 }), 412, 'precondition_failed');
    expect((await editor.get(blocks)).json().data.map((b: { key: string }) => b.key)).toEqual(['press']);
  });
});
