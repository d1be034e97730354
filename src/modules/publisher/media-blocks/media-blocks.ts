import { z } from 'zod';
import { aggregate, part } from '../../../shared/aggregate.js';
import { richHtml } from '../../../shared/html.js';
import { recordSchemas } from '../../../shared/record/index.js';
import { type PublisherRecord, keyInput, publisherRecord } from '../publisher.collection.js';
import { publisherErrors } from '../publisher.errors.js';
import { mediaBlockLocales, mediaBlocks } from './media-blocks.table.js';

export const mediaBlockAggregate = aggregate(mediaBlocks, {
  owner: mediaBlocks.mediaId,
  conflict: publisherErrors.mediaBlock.conflict,
  parts: {
    locales: part(mediaBlockLocales, {
      parent: mediaBlockLocales.recordId,
      match: ['locale'],
      columns: ['id', 'locale', 'contentHtml', 'contentText', 'deletedAt'],
    }),
  },
});

/** A media block: a piece of the media's pages in HTML per language (sanitized on write; content_text derived). */
export const mediaBlocksCollection = {
  agg: mediaBlockAggregate,
  schemas: recordSchemas('MediaBlock', {
    fields: { key: z.string() },
    input: { key: keyInput },
    locale: { content_html: z.string(), content_text: z.string() },
    localeInput: { content_html: richHtml() },
  }),
  ...publisherRecord('/media-blocks', 'media block', 'media blocks', publisherErrors.mediaBlock),
  notes: { create: '`key` is unique among the live media blocks (409 media_block_key_taken); content_html is sanitized, content_text derived.' },
  revisions: { keys: { locales: 'locale' } },
  reader: { path: '/blocks' },
} satisfies PublisherRecord;
