import { z } from 'zod';
import { aggregate, part } from '../../../shared/aggregate.js';
import { richHtml } from '../../../shared/html.js';
import { recordSchemas } from '../../../shared/record/index.js';
import { uuid } from '../../../shared/schemas.js';
import { type PublisherRecord, publisherRecord, reference } from '../publisher.collection.js';
import { publisherErrors } from '../publisher.errors.js';
import { releaseLocales, releases } from './releases.table.js';

export const releaseAggregate = aggregate(releases, {
  owner: releases.mediaId,
  conflict: publisherErrors.release.conflict,
  parts: {
    locales: part(releaseLocales, {
      parent: releaseLocales.recordId,
      match: ['locale'],
      columns: ['id', 'locale', 'title', 'descriptionHtml', 'descriptionText', 'deletedAt'],
    }),
  },
});

const link = z.object({ label: z.string(), url: z.string() });

export const releasesCollection = {
  agg: releaseAggregate,
  schemas: recordSchemas('Release', {
    fields: {
      organization_id: uuid.nullable(),
      project_id: uuid.nullable(),
      released_on: z.iso.date(),
      cover_image_key: z.string().nullable(),
      links: z.array(link),
    },
    input: {
      organization_id: uuid.nullable().optional().describe('A live organization of the media'),
      project_id: uuid.nullable().optional().describe('A live project of the media'),
      released_on: z.iso.date().describe('The release date (YYYY-MM-DD)'),
      cover_image_key: z.string().min(1).max(300).nullable().optional().describe('The file_key of an asset image'),
      links: z
        .array(z.strictObject({ label: z.string().trim().min(1).max(200), url: z.url({ protocol: /^https?$/ }).max(2000) }))
        .max(20)
        .optional()
        .describe('Where to get it (shops, streaming, download), in order'),
    },
    locale: { title: z.string(), description_html: z.string().nullable(), description_text: z.string().nullable() },
    localeInput: { title: z.string().trim().min(1).max(300), description_html: richHtml().nullable().optional() },
    createRule: { check: (b) => Boolean(b.organization_id || b.project_id), message: 'a release belongs to an organization or a project', path: 'organization_id' },
  }),
  ...publisherRecord('/releases', 'release', 'releases', publisherErrors.release),
  notes: { create: 'organization_id and project_id (at least one) name live records of the media (404 otherwise).' },
  references: [reference('organizations'), reference('projects')],
  reader: { path: '/releases', list: 'Releases, newest first.' },
} satisfies PublisherRecord;
