import { iso, stamped } from '../../../shared/time.js';
import type { Gravity, ImageType } from './assets.images.js';
import type { AssetImageWithLocales } from './assets.repository.js';
import type { AssetRow } from './assets.table.js';

export const toAsset = (row: AssetRow) => ({
  id: row.id,
  file_key: row.fileKey,
  file_hash: row.fileHash,
  content_type: row.contentType as ImageType,
  size: row.size,
  width: row.width,
  height: row.height,
  inserted_at: iso(row.insertedAt),
});

/** Spec 2.9, exactly. */
export const toAssetImage = (row: AssetImageWithLocales) => stamped({
  id: row.id,
  file_key: row.fileKey,
  file_hash: row.fileHash,
  name: row.name,
  gravity: row.gravity as Gravity,
  locales: row.locales.map((l) => ({ id: l.id, locale: l.locale, credit: l.credit, caption_html: l.captionHtml })),
}, row);
