import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { rowsOf } from '../../../db/rows.js';
import type { ImageUrl, ResolvedImage } from '../../../shared/blocks.js';

// What other modules' records need of asset images (visuals, image blocks, covers), exported by
// core's index so that no other module reads the asset tables: the image, and its credit and
// caption in the entry's language (else in any language the image has).

/** SQL: the live asset images among `ids` (uuid[]), in order, captioned in `locale`, as JSON. */
export const resolveAssetImages = (ids: SQL, locale: SQL): SQL<ResolvedImage[]> => sql<ResolvedImage[]>`(
  select coalesce(json_agg(json_build_object(
      'id', ai.id, 'file_key', ai.file_key, 'gravity', ai.gravity,
      'credit', ail.credit, 'caption_html', ail.caption_html, 'caption_text', ail.caption_text) order by s.ord), '[]'::json)
  from unnest(${ids}) with ordinality as s(image_id, ord)
  join asset_images ai on ai.id = s.image_id and ai.deleted_at is null
  left join lateral (
    select l.credit, l.caption_html, l.caption_text from asset_image_locales l
    where l.image_id = ai.id and l.deleted_at is null
    order by (l.locale = ${locale}) desc, l.id limit 1
  ) ail on true)`;

/** The ids among `ids` that are not live asset images of the media. */
export async function missingAssetImages(db: Executor, mediaId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const unique = [...new Set(ids)];
  const result = await db.execute(
    sql`select id from asset_images where media_id = ${mediaId} and deleted_at is null
        and id in (${sql.join(unique.map((id) => sql`${id}::uuid`), sql`, `)})`,
  );
  const rows = rowsOf<{ id: string }>(result);
  const found = new Set(rows.map((r) => r.id));
  return unique.filter((id) => !found.has(id));
}

/** Delivery urls, as the assets module serves them: `GET /assets/{file_key}` under PUBLIC_BASE_URL. */
export const imageUrls =
  (publicBaseUrl: string | undefined): ImageUrl =>
  (fileKey) =>
    `${publicBaseUrl ?? ''}/assets/${fileKey}`;
