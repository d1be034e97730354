import { z } from 'zod';
import { aggregateRows, type RevisionSource } from '../../../shared/revisions.js';
import { docsErrors } from '../docs.errors.js';
import type { ContentMappers } from './contents.mappers.js';
import { type ContentBlockRow, contentAggregate } from './contents.repository.js';
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
    // One statement: the whole tree, its blocks in the blocks route's order (by locale, then position).
    load: async (ctx, id) => {
      const tree = await contents.tree(ctx, id);
      const byLocale = [...tree.locales].sort((a, b) => (a.locale < b.locale ? -1 : a.locale > b.locale ? 1 : 0));
      return {
        ...mappers.toBackofficeContent(tree),
        blocks: byLocale.flatMap((l) => l.blocks.map((b) => mappers.toContentBlock({ ...b, locale: l.locale } as unknown as ContentBlockRow))),
        metadata: tree.metadata.map((m) => ({ key: m.key, value: m.value })),
      };
    },
  };
}
