import { z } from 'zod';
import { aggregate, part } from '../../../shared/aggregate.js';
import { recordSchemas } from '../../../shared/record/index.js';
import { uuid } from '../../../shared/schemas.js';
import { type PublisherRecord, publisherRecord, reference } from '../publisher.collection.js';
import { publisherErrors } from '../publisher.errors.js';
import { distributionEntries, distributionLocales, distributions } from './distributions.table.js';

export const distributionAggregate = aggregate(distributions, {
  owner: distributions.mediaId,
  conflict: publisherErrors.distribution.conflict,
  parts: {
    entries: part(distributionEntries, {
      parent: distributionEntries.distributionId,
      match: 'id',
      position: 'position',
      columns: ['id', 'position', 'role', 'profileId'],
    }),
    locales: part(distributionLocales, {
      parent: distributionLocales.recordId,
      match: ['locale'],
      columns: ['id', 'locale', 'title', 'roleNames', 'deletedAt'],
    }),
  },
});

const roleName = z.object({ role: z.string(), name: z.string() });

export const distributionsCollection = {
  agg: distributionAggregate,
  schemas: recordSchemas('Distribution', {
    fields: {
      organization_id: uuid,
      event_id: uuid.nullable(),
      project_id: uuid.nullable(),
      entries: z.array(z.object({ id: uuid, position: z.int(), role: z.string(), profile_id: uuid })),
    },
    input: {
      organization_id: uuid.describe('The live organization that owns the credits'),
      event_id: uuid.nullable().optional().describe('The live event credited (or project_id)'),
      project_id: uuid.nullable().optional().describe('The live project credited (or event_id)'),
      entries: z
        .array(
          z.strictObject({
            id: uuid.optional().describe('An entry sent back keeps its id; without one it is created'),
            role: z.string().trim().min(1).max(100).describe('The role\'s key; its name per language is in locales[].role_names'),
            profile_id: uuid.describe('A live person of the media'),
          }),
        )
        .max(500)
        .optional()
        .describe('The credits in order: the complete set'),
    },
    locale: { title: z.string().nullable(), role_names: z.array(roleName) },
    localeInput: {
      title: z.string().trim().min(1).max(300).nullable().optional(),
      role_names: z
        .array(z.strictObject({ role: z.string().trim().min(1).max(100), name: z.string().trim().min(1).max(200) }))
        .max(100)
        .refine((names) => new Set(names.map((n) => n.role)).size === names.length, { message: 'each role may be named once' })
        .optional(),
    },
    createRule: { check: (b) => Boolean(b.event_id) !== Boolean(b.project_id), message: 'name exactly one of event_id and project_id', path: 'event_id' },
    examples: {
      create: {
        organization_id: '0193a5c4-2b6e-7d1f-9a3c-5e8f0b1d2c4a',
        event_id: '0193a5c4-2b6e-7d1f-9a3c-5e8f0b1d2c4b',
        entries: [{ role: 'director', profile_id: '0193a5c4-2b6e-7d1f-9a3c-5e8f0b1d2c4c' }],
        locales: [{ locale: 'en', title: 'Credits', role_names: [{ role: 'director', name: 'Director' }] }],
      },
    },
  }),
  ...publisherRecord('/distributions', 'distribution', 'distributions', publisherErrors.distribution),
  notes: { create: 'The credits of one event or one project (exactly one), owned by an organization; every id names a live record of the media (404 naming the field).' },
  references: [reference('organizations'), reference('events'), reference('projects'), reference('people', 'entries[].profile_id')],
  reader: { path: '/distributions', list: 'Distributions (credits), newest first.' },
} satisfies PublisherRecord;
