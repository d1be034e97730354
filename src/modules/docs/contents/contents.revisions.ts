import { z } from 'zod';
import { aggregateRows, type RevisionSource } from '../../../shared/revisions.js';
import { docsErrors } from '../docs.errors.js';
import type { ContentMappers } from './contents.mappers.js';
import { contentAggregate } from './contents.repository.js';
import { contentBlockSchema, contentSchema, metadataEntrySchema } from './contents.schemas.js';
import type { ContentsService } from './contents.service.js';

/** A content's revision: its Backoffice shape with its blocks and metadata, as their own routes serve them. */
export const contentRevisionRecord = contentSchema
  .extend({ blocks: z.array(contentBlockSchema), metadata: z.array(metadataEntrySchema) })
  .meta({ id: 'ContentRevisionRecord' });

const rows = aggregateRows(contentAggregate);

/** The revisions of contents: the whole aggregate (entries, authors, blocks, categories, metadata). */
export function contentRevisions(contents: ContentsService, mappers: ContentMappers): RevisionSource {
  return {
    kind: 'content',
    schema: contentRevisionRecord,
    keys: { locales: 'locale', 'locales.authors': 'profile_id', content_categories: 'category_id', blocks: 'id', metadata: 'key' },
    rows,
    notFound: docsErrors.contentNotFound,
    load: async (ctx, id) => ({
      ...mappers.toBackofficeContent(await contents.get(ctx, id)),
      blocks: (await contents.blocks(ctx, id)).map(mappers.toContentBlock),
      metadata: (await contents.metadata(ctx, id)).map((m) => ({ key: m.key, value: m.value })),
    }),
  };
}
