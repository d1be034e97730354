import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { aggregate, part } from '../../../shared/aggregate.js';
import { richHtml } from '../../../shared/html.js';
import { liveIdsIn, recordSchemas } from '../../../shared/record/index.js';
import { uuid } from '../../../shared/schemas.js';
import { statuses } from '../../core/tenancy/tenancy.table.js';
import { type PublisherRecord, keyInput, publisherRecord, reference } from '../publisher.collection.js';
import { publisherErrors } from '../publisher.errors.js';
import { webpageLocales, webpages } from './webpages.table.js';

export const webpageAggregate = aggregate(webpages, {
  owner: webpages.mediaId,
  conflict: publisherErrors.webpage.conflict,
  // Readers see a webpage in a published status only.
  views: { published: sql`exists (select 1 from ${statuses} where ${statuses.id} = ${webpages.statusId} and ${statuses.isPublished})` },
  parts: {
    locales: part(webpageLocales, {
      parent: webpageLocales.recordId,
      match: ['locale'],
      columns: ['id', 'locale', 'title', 'bodyHtml', 'bodyText', 'seo', 'deletedAt'],
    }),
  },
});

const seo = z.object({ title: z.string().nullable(), description: z.string().nullable() });

export const webpagesCollection = {
  agg: webpageAggregate,
  schemas: recordSchemas('Webpage', {
    fields: { key: z.string(), organization_id: uuid.nullable(), status_id: uuid },
    input: {
      key: keyInput,
      organization_id: uuid.nullable().optional().describe('A live organization of the media, or null'),
      status_id: uuid.describe('A status of the media: readers see the page when it is a published one'),
    },
    locale: { title: z.string(), body_html: z.string(), body_text: z.string(), seo: seo.nullable() },
    localeInput: {
      title: z.string().trim().min(1).max(300),
      body_html: richHtml(),
      seo: z
        .strictObject({ title: z.string().max(300).nullable().optional(), description: z.string().max(1000).nullable().optional() })
        .transform((s) => ({ title: s.title ?? null, description: s.description ?? null }))
        .nullable()
        .optional(),
    },
  }),
  ...publisherRecord('/webpages', 'webpage', 'webpages', publisherErrors.webpage),
  notes: { create: '`key` is unique among the live webpages (409 webpage_key_taken); organization_id and status_id name live records of the media (404).' },
  references: [reference('organizations'), () => ({ field: 'status_id', code: 'status_not_found', what: 'the status', live: liveIdsIn(statuses) })],
  revisions: { keys: { locales: 'locale' } },
  reader: { path: '/webpages', view: 'published', list: 'Webpages in a published status, newest first.', by: 'key_or_id' },
} satisfies PublisherRecord;
