import type { BlockKind } from '../../../shared/blocks.js';
import { iso, stamped } from '../../../shared/time.js';
import type { TemplateRecord } from './templates.repository.js';

export const toTemplate = (row: TemplateRecord) => stamped({
  id: row.id,
  content_type_id: row.contentTypeId,
  key: row.key,
  name: row.name,
  block_kinds: row.blockKinds as BlockKind[],
  metadata_keys: row.metadataKeys,
}, row);

/** Reader view, in assocs.templates: what a front end needs to pick a layout. */
export const toReaderTemplate = (row: TemplateRecord) => ({
  id: row.id,
  content_type_id: row.contentTypeId,
  key: row.key,
  name: row.name,
  updated_at: iso(row.updatedAt),
});
