import { createHash, randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { Database } from '../../src/db/client.js';
import { assetImageLocales, assetImages, assets } from '../../src/modules/core/assets/assets.table.js';
import type { contentSchema } from '../../src/modules/docs/contents/contents.schemas.js';
import type { Client } from './factories.js';

// HTTP factories of the docs area: content types, templates and contents made through the
// Backoffice, as a client would.

export const short = () => randomUUID().slice(0, 8);

export type ContentWire = z.output<typeof contentSchema>;

const created = async <T>(res: Awaited<ReturnType<Client['post']>>, what: string): Promise<T> => {
  if (res.statusCode !== 201) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
  return res.json().data as T;
};

export async function createContentType(api: Client, body: Record<string, unknown> = {}) {
  return created<{ id: string; key: string }>(
    await api.post('/docs/v2/content-types', { key: `type-${short()}`, name: 'Article', ...body }),
    'createContentType',
  );
}

export const ALL_BLOCK_KINDS = ['richtext', 'html', 'data', 'image', 'slideshow', 'video', 'quote', 'question', 'related_contents', 'profiles'];

/** A template allowing every block kind and the metadata keys `source` and `embargo`, unless told otherwise. */
export async function createTemplate(api: Client, contentTypeId: string, body: Record<string, unknown> = {}) {
  return created<{ id: string; key: string; block_kinds: string[]; metadata_keys: string[] }>(
    await api.post('/docs/v2/templates', {
      content_type_id: contentTypeId,
      key: `tpl-${short()}`,
      name: 'Standard',
      block_kinds: ALL_BLOCK_KINDS,
      metadata_keys: ['source', 'embargo'],
      ...body,
    }),
    'createTemplate',
  );
}

/** The statuses of a media by key (draft, published, unpublished). */
export async function statusesOf(api: Client): Promise<Record<string, string>> {
  const res = await api.get('/core/v2/statuses?limit=100');
  return Object.fromEntries((res.json().data as Array<{ id: string; key: string }>).map((s) => [s.key, s.id]));
}

/** What a content needs: a template, the media's workspace and statuses. */
export interface DocsFixture {
  templateId: string;
  workspaceId: string;
  statuses: Record<string, string>;
}

export async function docsFixture(api: Client, workspaceId: string, template: Record<string, unknown> = {}): Promise<DocsFixture> {
  const type = await createContentType(api);
  const tpl = await createTemplate(api, type.id, template);
  return { templateId: tpl.id, workspaceId, statuses: await statusesOf(api) };
}

/** A published English content (published a minute ago), unless the body says otherwise. */
export async function createContent(api: Client, f: DocsFixture, body: Record<string, unknown> = {}) {
  return created<ContentWire>(
    await api.post('/docs/v2/contents', {
      template_id: f.templateId,
      workspace_id: f.workspaceId,
      status_id: f.statuses.published,
      published_at: new Date(Date.now() - 60_000).toISOString(),
      locales: [{ locale: 'en', title_html: `Title ${short()}` }],
      ...body,
    }),
    'createContent',
  );
}

export async function createBlock(api: Client, contentId: string, body: Record<string, unknown>) {
  return created<Record<string, unknown> & { id: string; position: number }>(
    await api.post(`/docs/v2/contents/${contentId}/blocks`, body),
    'createBlock',
  );
}

/**
 * An asset image of a media, written straight into the asset tables (the upload path has tests
 * of its own): a file record, the image record with its gravity, and credit and caption per locale.
 */
export async function insertAssetImage(
  db: Database['db'],
  mediaId: string,
  options: { gravity?: string; locales?: Array<{ locale: string; credit?: string; captionHtml?: string; captionText?: string }> } = {},
) {
  const fileHash = createHash('sha256').update(randomUUID()).digest('hex');
  const fileKey = `${mediaId}_${fileHash}.jpg`;
  const [asset] = await db
    .insert(assets)
    .values({ mediaId, fileKey, fileHash, contentType: 'image/jpeg', size: 1000, width: 800, height: 600 })
    .returning();
  const [image] = await db
    .insert(assetImages)
    .values({ mediaId, assetId: asset!.id, fileKey, fileHash, name: `Image ${short()}`, gravity: options.gravity ?? 'center' })
    .returning();
  const locales = options.locales ?? [{ locale: 'en', credit: 'Photo: Ada', captionHtml: '<p>A caption</p>', captionText: 'A caption' }];
  if (locales.length > 0) {
    await db.insert(assetImageLocales).values(
      locales.map((l) => ({ imageId: image!.id, locale: l.locale, credit: l.credit ?? null, captionHtml: l.captionHtml ?? null, captionText: l.captionText ?? null })),
    );
  }
  return { id: image!.id, fileKey };
}
