import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { communityFixture, createProfile } from '../../setup/community.js';
import { UUID, expectError } from '../../setup/expect.js';
import { type Client, type SeededMedia, client, seedMedia } from '../../setup/factories.js';
import {
  type ContentWire,
  type DocsFixture,
  createBlock,
  createContent,
  createContentType,
  createTemplate,
  docsFixture,
  insertAssetImage,
} from '../../setup/docs.js';

let ctx: TestContext;
let media: SeededMedia;
let api: Client;
let viewer: Client;
let fx: DocsFixture;
let content: ContentWire;

beforeAll(async () => {
  ctx = await createTestApp({ publicBaseUrl: 'https://cdn.example.test' });
  media = await seedMedia(ctx.app);
  api = client(ctx.app, media.keys.editor);
  viewer = client(ctx.app, media.keys.viewer);
  fx = await docsFixture(api, media.workspaceId);
  content = await createContent(api, fx, {
    locales: [
      { locale: 'en', title_html: 'English' },
      { locale: 'fr', title_html: 'Français' },
    ],
  });
});
afterAll(() => ctx.close());

const blocksOf = async (id: string, locale?: string) =>
  (await viewer.get(`/docs/v2/contents/${id}/blocks${locale ? `?locale=${locale}` : ''}`)).json().data as Array<Record<string, unknown> & { id: string }>;

describe('content blocks: every kind of the shared union', () => {
  it('creates each kind with its fields, derived texts, ids and resolved images', async () => {
    const image = await insertAssetImage(ctx.database.db, media.mediaId, { gravity: 'east' });
    const second = await insertAssetImage(ctx.database.db, media.mediaId, { locales: [] });
    const related = await createContent(api, fx);
    const profile = (await createProfile(api, await communityFixture(api, media.workspaceId), 'people')).id;
    const c = await createContent(api, fx);
    const bodies: Array<[Record<string, unknown>, Record<string, unknown>]> = [
      [
        { kind: 'richtext', content_html: '<p>Hello <strong>world</strong></p><p>Again</p>' },
        { content_html: '<p>Hello <strong>world</strong></p><p>Again</p>', content_text: 'Hello world\nAgain' },
      ],
      [{ kind: 'html', content_html: '<table><tr><td>1</td></tr></table>' }, { content_html: '<table><tr><td>1</td></tr></table>', content_text: '1' }],
      [{ kind: 'data', data: { score: [1, 2], nested: { ok: true } } }, { data: { score: [1, 2], nested: { ok: true } } }],
      [
        { kind: 'image', image: { asset_image_id: image.id } },
        {
          image: {
            id: image.id,
            asset_image_id: image.id,
            file_key: image.fileKey,
            url: `https://cdn.example.test/assets/${image.fileKey}`,
            credit: 'Photo: Ada',
            caption_html: '<p>A caption</p>',
            caption_text: 'A caption',
            gravity: 'east',
          },
        },
      ],
      [
        { kind: 'video', video: { url: 'https://youtube.example.test/w/1', provider: 'youtube', video_id: profile, credit: 'AP', is_tracking_enabled: true } },
        {
          video: {
            id: expect.stringMatching(UUID),
            video_id: profile,
            url: 'https://youtube.example.test/w/1',
            provider: 'youtube',
            credit: 'AP',
            caption_html: null,
            caption_text: null,
            is_monetized: false,
            is_tracking_enabled: true,
          },
        },
      ],
      [{ kind: 'quote', content_html: '<p>To be</p>', author: 'W.S.' }, { content_html: '<p>To be</p>', content_text: 'To be', author: 'W.S.' }],
      [
        { kind: 'question', title: 'Tea or coffee?', choices: [{ label: 'Tea' }, { label: 'Coffee' }] },
        { title: 'Tea or coffee?', choices: [{ id: expect.stringMatching(UUID), label: 'Tea' }, { id: expect.stringMatching(UUID), label: 'Coffee' }] },
      ],
      [{ kind: 'related_contents', content_ids: [related.id] }, { content_ids: [related.id] }],
      [{ kind: 'profiles', profile_ids: [profile] }, { profile_ids: [profile] }],
    ];
    for (const [i, [body, expected]] of bodies.entries()) {
      const block = await createBlock(api, c.id, { locale: 'en', ...body });
      expect(block, String(body.kind)).toEqual({ id: expect.stringMatching(UUID), kind: body.kind, position: i, locale: 'en', ...expected });
    }
    const slideshow = await createBlock(api, c.id, { locale: 'en', kind: 'slideshow', slideshow: { images: [{ asset_image_id: second.id }, { asset_image_id: image.id }] } });
    expect(slideshow).toMatchObject({ kind: 'slideshow', position: bodies.length, slideshow: { id: slideshow.id } });
    expect((slideshow.slideshow as { images: Array<{ id: string; credit: string | null }> }).images.map((i) => [i.id, i.credit])).toEqual([
      [second.id, null],
      [image.id, 'Photo: Ada'],
    ]);

    const all = await blocksOf(c.id);
    expect(all.map((b) => b.kind)).toEqual([...bodies.map(([b]) => b.kind), 'slideshow']);
    // The list serves what the create answered: images resolved the same way.
    expect(all[3]!.image).toMatchObject({ id: image.id, gravity: 'east', credit: 'Photo: Ada' });
  });

  it('refuses bad bodies: unknown kind or field, a question with 1 or 21 choices, derived texts sent by the client', async () => {
    const post = (body: Record<string, unknown>) => api.post(`/docs/v2/contents/${content.id}/blocks`, { locale: 'en', ...body });
    expectError(await post({ kind: 'marquee', content_html: 'x' }), 400, 'validation_failed');
    expectError(await post({ kind: 'richtext', content_html: 'x', content_text: 'forged' }), 400, 'validation_failed');
    expectError(await post({ kind: 'richtext', content_html: 'x', id: randomUUID() }), 400, 'validation_failed');
    expectError(await post({ kind: 'question', title: 'Q', choices: [{ label: 'only' }] }), 400, 'validation_failed');
    expectError(await post({ kind: 'question', title: 'Q', choices: Array.from({ length: 21 }, (_, i) => ({ label: `c${i}` })) }), 400, 'validation_failed');
    expect((await post({ kind: 'question', title: 'Q', choices: Array.from({ length: 20 }, (_, i) => ({ label: `c${i}` })) })).statusCode).toBe(201);
    expectError(await post({ kind: 'data', data: [1, 2] }), 400, 'validation_failed');
    expectError(await post({ kind: 'video', video: { url: 'javascript:alert(1)', provider: 'x' } }), 400, 'validation_failed');
    expectError(await api.post(`/docs/v2/contents/${content.id}/blocks`, { kind: 'richtext', content_html: 'x' }), 400, 'validation_failed');
  });

  it('refuses records outside the media, a locale the content lacks, and a kind the template does not allow', async () => {
    const other = await seedMedia(ctx.app);
    const foreignImage = await insertAssetImage(ctx.database.db, other.mediaId);
    const foreignContent = await createContent(client(ctx.app, other.keys.editor), await docsFixture(client(ctx.app, other.keys.editor), other.workspaceId));
    const post = (body: Record<string, unknown>) => api.post(`/docs/v2/contents/${content.id}/blocks`, { locale: 'en', ...body });

    const img = await post({ kind: 'image', image: { asset_image_id: foreignImage.id } });
    expectError(img, 404, 'asset_image_not_found');
    expect(img.json().details).toEqual([{ path: 'image.asset_image_id', message: 'is not an asset image of this media' }]);
    const rel = await post({ kind: 'related_contents', content_ids: [content.id, foreignContent.id] });
    expectError(rel, 404, 'content_not_found');
    expect(rel.json().details).toEqual([{ path: 'content_ids.1', message: 'is not a content of this media' }]);
    const foreignProfile = await createProfile(client(ctx.app, other.keys.editor), await communityFixture(client(ctx.app, other.keys.editor), other.workspaceId), 'people');
    const people = await post({ kind: 'profiles', profile_ids: [foreignProfile.id, randomUUID()] });
    expectError(people, 404, 'profile_not_found');
    expect(people.json().details).toEqual([
      { path: 'profile_ids.0', message: 'is not a profile of this media' },
      { path: 'profile_ids.1', message: 'is not a profile of this media' },
    ]);
    expectError(await api.post(`/docs/v2/contents/${content.id}/blocks`, { locale: 'de', kind: 'richtext', content_html: 'x' }), 404, 'locale_not_found');

    const type = await createContentType(api);
    const textOnly = await createTemplate(api, type.id, { block_kinds: ['richtext'] });
    const strict = await createContent(api, { ...fx, templateId: textOnly.id });
    const refused = await api.post(`/docs/v2/contents/${strict.id}/blocks`, { locale: 'en', kind: 'quote', content_html: 'x' });
    expectError(refused, 400, 'block_kind_not_allowed');
    expect(refused.json().details).toEqual([{ path: 'kind', message: "must be one of the template's block_kinds: richtext" }]);
    expectError(await api.post(`/docs/v2/contents/${randomUUID()}/blocks`, { locale: 'en', kind: 'richtext', content_html: 'x' }), 404, 'content_not_found');
    expectError(await viewer.post(`/docs/v2/contents/${content.id}/blocks`, { locale: 'en', kind: 'richtext', content_html: 'x' }), 403, 'forbidden');
  });
});

describe('content blocks: positions', () => {
  it('orders blocks within their locale: insert at a position, move by PATCH, close ranks on delete', async () => {
    const c = await createContent(api, fx, {
      locales: [
        { locale: 'en', title_html: 'E' },
        { locale: 'fr', title_html: 'F' },
      ],
    });
    const text = (label: string) => ({ locale: 'en', kind: 'richtext', content_html: label });
    const a = await createBlock(api, c.id, text('a'));
    const b = await createBlock(api, c.id, text('b'));
    const fr = await createBlock(api, c.id, { locale: 'fr', kind: 'richtext', content_html: 'fr' });
    expect(fr.position).toBe(0);
    const first = await createBlock(api, c.id, { ...text('first'), position: 0 });
    const order = async () => (await blocksOf(c.id, 'en')).map((x) => [x.content_text, x.position]);
    expect(await order()).toEqual([
      ['first', 0],
      ['a', 1],
      ['b', 2],
    ]);
    expectError(await api.post(`/docs/v2/contents/${c.id}/blocks`, { ...text('far'), position: 4 }), 400, 'invalid_position');

    const moved = await api.patch(`/docs/v2/contents/${c.id}/blocks/${first.id}`, { position: 2 });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().data).toMatchObject({ id: first.id, position: 2, content_text: 'first' });
    expect(await order()).toEqual([
      ['a', 0],
      ['b', 1],
      ['first', 2],
    ]);
    expectError(await api.patch(`/docs/v2/contents/${c.id}/blocks/${first.id}`, { position: 3 }), 400, 'invalid_position');

    const rewritten = await api.patch(`/docs/v2/contents/${c.id}/blocks/${a.id}`, { kind: 'quote', content_html: 'said', author: 'Me', position: 1 });
    expect(rewritten.json().data).toEqual({ id: a.id, kind: 'quote', position: 1, locale: 'en', content_html: 'said', content_text: 'said', author: 'Me' });

    expect((await api.delete(`/docs/v2/contents/${c.id}/blocks/${b.id}`)).statusCode).toBe(204);
    expect(await order()).toEqual([
      ['said', 0],
      ['first', 1],
    ]);
    expectError(await api.delete(`/docs/v2/contents/${c.id}/blocks/${b.id}`), 404, 'block_not_found');
    expectError(await api.patch(`/docs/v2/contents/${c.id}/blocks/${b.id}`, { position: 0 }), 404, 'block_not_found');
    // A block is reached through its own content only.
    expectError(await api.patch(`/docs/v2/contents/${content.id}/blocks/${fr.id}`, { position: 0 }), 404, 'block_not_found');
    expect((await blocksOf(c.id, 'fr')).map((x) => x.id)).toEqual([fr.id]);
  });

  it('keeps the ids of the choices a question update sends back, and refuses ids it never had', async () => {
    const q = await createBlock(api, content.id, { locale: 'fr', kind: 'question', title: 'Q?', choices: [{ label: 'Oui' }, { label: 'Non' }] });
    const [yes] = q.choices as Array<{ id: string }>;
    const res = await api.patch(`/docs/v2/contents/${content.id}/blocks/${q.id}`, {
      kind: 'question',
      title: 'Q ?',
      choices: [{ id: yes!.id, label: 'Oui !' }, { label: 'Peut-être' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const choices = res.json().data.choices as Array<{ id: string; label: string }>;
    expect(choices[0]).toEqual({ id: yes!.id, label: 'Oui !' });
    expect(choices[1]!.id).not.toBe(yes!.id);
    const bad = await api.patch(`/docs/v2/contents/${content.id}/blocks/${q.id}`, { kind: 'question', title: 'Q', choices: [{ id: randomUUID(), label: 'x' }, { label: 'y' }] });
    expectError(bad, 400, 'validation_failed');
    expect(bad.json().details[0].path).toBe('choices.0.id');
  });
});
