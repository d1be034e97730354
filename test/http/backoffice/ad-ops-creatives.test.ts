import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SVG, fileForm, gif, png, sha256, tempDir } from '../../assets/fixtures.js';
import { type TestContext, createTestApp } from '../../setup/app.js';
import { ISO_MS, UUID, expectError } from '../../setup/expect.js';
import { type Client, type SeededMedia, client, seedMedia } from '../../setup/factories.js';

const UPLOAD_LIMIT = 50_000;

const storage = await tempDir('ad-ops-creatives');
const ctx: TestContext = await createTestApp({ storageDir: storage.path, uploadLimit: UPLOAD_LIMIT });

let media: SeededMedia;
let api: Client;
let adId: string;

beforeAll(async () => {
  media = await seedMedia(ctx.app);
  api = client(ctx.app, media.keys.ad_manager);
  const advertiserId = (await api.post('/ad-ops/v2/advertisers', { name: 'Acme' })).json().data.id;
  const categoryId = (await api.post('/ad-ops/v2/ad-categories', { name: 'Retail' })).json().data.id;
  const ad = await api.post(`/ad-ops/v2/advertisers/${advertiserId}/ads`, {
    advertiser_id: advertiserId,
    name: 'Winter sale',
    priority: 5,
    category: { id: categoryId },
    starts_at: '2026-01-01T00:00:00',
    ends_at: '2036-01-01T00:00:00',
    timezone: 'Europe/Paris',
  });
  expect(ad.statusCode, ad.body).toBe(201);
  adId = ad.json().data.id;
});
afterAll(async () => {
  await ctx.close();
  await storage.remove();
});

const uploadTo = (creativeId: string, data: Buffer, as: Client = api, filename = 'banner.png', type = 'image/png') => {
  const { payload, headers } = fileForm(data, filename, type);
  return as.put(`/ad-ops/v2/creatives/${creativeId}/image`, payload, headers);
};

describe('creatives', () => {
  it('creates an html creative with its html sanitized, lists it in the ad, reads it, replaces it and deletes it', async () => {
    const res = await api.post(`/ad-ops/v2/ads/${adId}/creatives`, {
      name: 'Leaderboard',
      kind: 'html',
      click_url: 'https://acme.example/sale?utm=1',
      alt_text: 'Winter sale at Acme',
      width: 728,
      height: 90,
      html: '<p onclick="steal()">Sale <strong>-50%</strong></p><script>alert(1)</script>',
    });
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data;
    expect(data).toEqual({
      id: expect.stringMatching(UUID),
      ad_id: adId,
      name: 'Leaderboard',
      kind: 'html',
      click_url: 'https://acme.example/sale?utm=1',
      alt_text: 'Winter sale at Acme',
      width: 728,
      height: 90,
      html: '<p>Sale <strong>-50%</strong></p>',
      image: null,
      inserted_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
    });
    expect((await api.get(`/ad-ops/v2/creatives/${data.id}`)).json()).toEqual({ data });
    const listed = await api.get(`/ad-ops/v2/ads/${adId}/creatives`);
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data).toContainEqual(data);

    const put = await api.put(`/ad-ops/v2/creatives/${data.id}`, {
      name: 'Skyscraper',
      kind: 'html',
      click_url: 'http://acme.example/',
      html: '<a href="https://acme.example">Go</a>',
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data).toEqual({
      ...data,
      name: 'Skyscraper',
      click_url: 'http://acme.example/',
      alt_text: null,
      width: null,
      height: null,
      html: expect.stringContaining('href="https://acme.example"'),
      updated_at: expect.stringMatching(ISO_MS),
    });

    expect((await api.delete(`/ad-ops/v2/creatives/${data.id}`)).statusCode).toBe(204);
    expectError(await api.get(`/ad-ops/v2/creatives/${data.id}`), 404, 'creative_not_found');
    expect((await api.get(`/ad-ops/v2/ads/${adId}/creatives`)).json().data.map((c: { id: string }) => c.id)).not.toContain(data.id);
    expectError(await api.delete(`/ad-ops/v2/creatives/${data.id}`), 404, 'creative_not_found');
  });

  it('refuses a click_url that is not http(s), html on an image creative, an html creative without html, and unknown fields', async () => {
    const url = `/ad-ops/v2/ads/${adId}/creatives`;
    const base = { name: 'x', kind: 'image', click_url: 'https://acme.example' };
    for (const click of ['javascript:alert(1)', 'data:text/html,hi', 'ftp://acme.example', 'acme.example']) {
      const body = expectError(await api.post(url, { ...base, click_url: click }), 400, 'validation_failed');
      expect(body.details?.map((d) => d.path)).toEqual(['click_url']);
    }
    expectError(await api.post(url, { ...base, html: '<p>x</p>' }), 400, 'validation_failed');
    expectError(await api.post(url, { ...base, kind: 'html' }), 400, 'validation_failed');
    expectError(await api.post(url, { ...base, kind: 'html', html: '<script>only</script>' }), 400, 'validation_failed');
    expectError(await api.post(url, { ...base, kind: 'video' }), 400, 'validation_failed');
    expectError(await api.post(url, { ...base, width: 0 }), 400, 'validation_failed');
    expectError(await api.post(url, { ...base, image_id: randomUUID() }), 400, 'validation_failed');
    expectError(await api.post(`/ad-ops/v2/ads/${randomUUID()}/creatives`, base), 404, 'ad_not_found');
    expectError(await api.get(`/ad-ops/v2/ads/${randomUUID()}/creatives`), 404, 'ad_not_found');
    expectError(await api.get(`/ad-ops/v2/creatives/${randomUUID()}`), 404, 'creative_not_found');
    expectError(await api.put(`/ad-ops/v2/creatives/${randomUUID()}`, base), 404, 'creative_not_found');
  });

  it('holds at most 100 live creatives per ad, even when creates race (409 creative_limit_reached)', async () => {
    const advertiserId = (await api.post('/ad-ops/v2/advertisers', { name: 'Many' })).json().data.id;
    const categoryId = (await api.post('/ad-ops/v2/ad-categories', { name: `Many ${randomUUID().slice(0, 6)}` })).json().data.id;
    const ad = (
      await api.post(`/ad-ops/v2/advertisers/${advertiserId}/ads`, {
        advertiser_id: advertiserId,
        name: 'Many creatives',
        priority: 1,
        category: { id: categoryId },
        starts_at: '2026-01-01T00:00:00Z',
        ends_at: '2027-01-01T00:00:00Z',
        timezone: 'UTC',
      })
    ).json().data.id;
    const body = { name: 'C', kind: 'html', click_url: 'https://acme.example', html: '<p>c</p>' };
    for (let i = 0; i < 95; i++) expect((await api.post(`/ad-ops/v2/ads/${ad}/creatives`, body)).statusCode).toBe(201);
    const raced = await Promise.all(Array.from({ length: 10 }, () => api.post(`/ad-ops/v2/ads/${ad}/creatives`, body)));
    expect(raced.filter((r) => r.statusCode === 201)).toHaveLength(5);
    for (const res of raced.filter((r) => r.statusCode !== 201)) expectError(res, 409, 'creative_limit_reached');
    expect((await api.get(`/ad-ops/v2/ads/${ad}/creatives`)).json().data).toHaveLength(100);
  });

  it("uploads an image creative's image through core assets: an asset image of the media, served by /assets", async () => {
    const creative = (
      await api.post(`/ad-ops/v2/ads/${adId}/creatives`, { name: 'Banner', kind: 'image', click_url: 'https://acme.example' })
    ).json().data;
    const bytes = await png(300, 250);
    const res = await uploadTo(creative.id, bytes);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    const fileKey = `${media.mediaId}_${sha256(bytes)}.png`;
    expect(data).toEqual({
      ...creative,
      image: { id: expect.stringMatching(UUID), file_key: fileKey, url: `/assets/${fileKey}`, width: 300, height: 250 },
      updated_at: expect.stringMatching(ISO_MS),
    });
    expect((await api.get(`/ad-ops/v2/creatives/${creative.id}`)).json().data).toEqual(data);

    // The image is an asset image of the media, named after the creative, and delivered.
    const admin = client(ctx.app, media.keys.admin);
    const image = await admin.get(`/core/v2/assets/images/${data.image.id}`);
    expect(image.statusCode).toBe(200);
    expect(image.json().data).toMatchObject({ file_key: fileKey, name: 'Banner' });
    const served = await ctx.app.inject({ method: 'GET', url: `/assets/${fileKey}` });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');

    // A new upload replaces the image; a replace of the creative keeps it.
    const second = await uploadTo(creative.id, await gif(120, 60), api, 'anim.gif', 'image/gif');
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().data.image).toMatchObject({ width: 120, height: 60, file_key: expect.stringMatching(/\.gif$/) });
    const kept = await api.put(`/ad-ops/v2/creatives/${creative.id}`, { name: 'Banner 2', kind: 'image', click_url: 'https://acme.example' });
    expect(kept.json().data.image).toEqual(second.json().data.image);
    const html = await api.put(`/ad-ops/v2/creatives/${creative.id}`, { name: 'Now html', kind: 'html', click_url: 'https://acme.example', html: '<p>hi</p>' });
    expect(html.json().data.image).toBeNull();
  });

  it('reuses the assets checks: type from the bytes (SVG 415 whatever its name), the size cap (413), one file per form', async () => {
    const creative = (
      await api.post(`/ad-ops/v2/ads/${adId}/creatives`, { name: 'Checked', kind: 'image', click_url: 'https://acme.example' })
    ).json().data;
    expectError(await uploadTo(creative.id, SVG, api, 'banner.png', 'image/png'), 415, 'unsupported_image_type');
    expectError(await uploadTo(creative.id, Buffer.from('plain text, not an image'), api, 'x.jpg', 'image/jpeg'), 415, 'unsupported_image_type');
    expectError(await uploadTo(creative.id, Buffer.alloc(UPLOAD_LIMIT + 1, 1)), 413, 'payload_too_large');
    expectError(await api.put(`/ad-ops/v2/creatives/${creative.id}/image`, { file: 'x' }), 415, 'unsupported_media_type');
    expect((await api.get(`/ad-ops/v2/creatives/${creative.id}`)).json().data.image).toBeNull();

    const html = (
      await api.post(`/ad-ops/v2/ads/${adId}/creatives`, { name: 'H', kind: 'html', click_url: 'https://acme.example', html: '<p>h</p>' })
    ).json().data;
    expectError(await uploadTo(html.id, await png()), 409, 'creative_not_image');
    expectError(await uploadTo(randomUUID(), await png()), 404, 'creative_not_found');
    expectError(await uploadTo(creative.id, await png(), client(ctx.app, media.keys.editor)), 403, 'forbidden');
    const other = await seedMedia(ctx.app);
    expectError(await uploadTo(creative.id, await png(), client(ctx.app, other.keys.ad_manager)), 404, 'creative_not_found');
  });
});

describe('placements', () => {
  it('places an ad on the media, at a position, lists the placements and removes one', async () => {
    const whole = await api.post(`/ad-ops/v2/ads/${adId}/placements`, { target: 'media' });
    expect(whole.statusCode, whole.body).toBe(201);
    expect(whole.json().data).toEqual({
      id: expect.stringMatching(UUID),
      ad_id: adId,
      target: 'media',
      issue_id: null,
      position: null,
      inserted_at: expect.stringMatching(ISO_MS),
    });
    const top = await api.post(`/ad-ops/v2/ads/${adId}/placements`, { target: 'media', position: 'top' });
    expect(top.json().data).toMatchObject({ target: 'media', position: 'top', issue_id: null });
    expectError(await api.post(`/ad-ops/v2/ads/${adId}/placements`, { target: 'media' }), 409, 'placement_exists');

    const listed = await api.get(`/ad-ops/v2/ads/${adId}/placements`);
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data).toEqual([top.json().data, whole.json().data]);
    expect(listed.json().meta).toEqual({ base: `/ad-ops/v2/ads/${adId}/placements`, next: null, previous: null });

    expect((await api.delete(`/ad-ops/v2/placements/${top.json().data.id}`)).statusCode).toBe(204);
    expect((await api.get(`/ad-ops/v2/ads/${adId}/placements`)).json().data).toEqual([whole.json().data]);
    expectError(await api.delete(`/ad-ops/v2/placements/${top.json().data.id}`), 404, 'placement_not_found');
    expect((await api.delete(`/ad-ops/v2/placements/${whole.json().data.id}`)).statusCode).toBe(204);
  });

  it('refuses a bad placement body (400), an unknown ad (404) and an unknown issue (404 naming issue_id)', async () => {
    const url = `/ad-ops/v2/ads/${adId}/placements`;
    expectError(await api.post(url, { target: 'page' }), 400, 'validation_failed');
    expectError(await api.post(url, { target: 'issue' }), 400, 'validation_failed');
    expectError(await api.post(url, { target: 'media', issue_id: randomUUID() }), 400, 'validation_failed');
    expectError(await api.post(url, { target: 'issue', issue_id: 'nope' }), 400, 'validation_failed');
    expectError(await api.post(url, { target: 'media', position: 'Top Banner!' }), 400, 'validation_failed');
    expectError(await api.post(`/ad-ops/v2/ads/${randomUUID()}/placements`, { target: 'media' }), 404, 'ad_not_found');
    expectError(await api.get(`/ad-ops/v2/ads/${randomUUID()}/placements`), 404, 'ad_not_found');
    const issue = expectError(await api.post(url, { target: 'issue', issue_id: randomUUID() }), 404, 'issue_not_found');
    expect(issue.details).toEqual([{ path: 'issue_id', message: expect.any(String) }]);
    const other = await seedMedia(ctx.app);
    expectError(await client(ctx.app, other.keys.ad_manager).post(url, { target: 'media' }), 404, 'ad_not_found');
  });

  it("places an ad on a magazine issue of the media, and not on another media's issue", async () => {
    const createIssue = async (seeded: SeededMedia) => {
      const editor = client(ctx.app, seeded.keys.editor);
      const type = await editor.post('/magazines/v2/issue-types', { key: `t-${randomUUID().slice(0, 6)}`, name: 'Weekly' });
      expect(type.statusCode, type.body).toBe(201);
      const issue = await editor.post(`/magazines/v2/workspaces/${seeded.workspaceId}/issues`, {
        issue_type_id: type.json().data.id,
        kind: 'regular',
        color: '#112233',
        locales: [{ locale: 'en', name: 'Issue 1' }],
      });
      expect(issue.statusCode, issue.body).toBe(201);
      return issue.json().data.id as string;
    };
    const issueId = await createIssue(media);
    const res = await api.post(`/ad-ops/v2/ads/${adId}/placements`, { target: 'issue', issue_id: issueId, position: 'inline' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toEqual({
      id: expect.stringMatching(UUID),
      ad_id: adId,
      target: 'issue',
      issue_id: issueId,
      position: 'inline',
      inserted_at: expect.stringMatching(ISO_MS),
    });
    const foreignIssue = await createIssue(await seedMedia(ctx.app));
    expectError(await api.post(`/ad-ops/v2/ads/${adId}/placements`, { target: 'issue', issue_id: foreignIssue }), 404, 'issue_not_found');
  });
});
