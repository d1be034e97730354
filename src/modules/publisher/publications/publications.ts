import { z } from 'zod';
import { aggregate } from '../../../shared/aggregate.js';
import { recordSchemas } from '../../../shared/record/index.js';
import { isoTimestamp, timestampInput, uuid } from '../../../shared/schemas.js';
import { type PublisherRecord, publisherRecord, reference } from '../publisher.collection.js';
import { publisherErrors } from '../publisher.errors.js';
import { publications } from './publications.table.js';

export const PUBLICATION_CHANNELS = ['web', 'app', 'newsletter', 'social', 'partner'] as const;

export const publicationAggregate = aggregate(publications, {
  owner: publications.mediaId,
  conflict: publisherErrors.publication.conflict,
  parts: {},
});

/** Where a content went out beside the media's own site: a record of fact, created and removed, never updated. */
export const publicationsCollection = {
  agg: publicationAggregate,
  schemas: recordSchemas('Publication', {
    fields: {
      content_id: uuid,
      channel: z.enum(PUBLICATION_CHANNELS),
      external_url: z.string().nullable(),
      published_at: isoTimestamp,
    },
    input: {
      content_id: uuid.describe('A live content of the media'),
      channel: z.enum(PUBLICATION_CHANNELS),
      external_url: z.url({ protocol: /^https?$/ }).max(2000).nullable().optional(),
      published_at: timestampInput,
    },
  }),
  ...publisherRecord('/publications', 'publication', 'publications', publisherErrors.publication),
  only: ['list', 'create', 'get', 'remove', 'restore'],
  notes: { create: 'content_id names a live content of the media (404 content_not_found otherwise).' },
  references: [reference('contents')],
} satisfies PublisherRecord;
