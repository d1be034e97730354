import { sql } from 'drizzle-orm';
import { aggregate } from '../../../shared/aggregate.js';
import { type RecordRow, defineRecord, named } from '../../../shared/record/index.js';
import { adOpsErrors } from '../ad-ops.errors.js';
import { adOpsArea, adOpsTags } from '../ad-ops.tags.js';
import { advertiserBody, advertiserSchema } from './advertisers.schemas.js';
import { advertisers } from './advertisers.table.js';

export const advertiserAggregate = aggregate(advertisers, {
  owner: advertisers.mediaId,
  /** Advertisers whose ads may run: what the Public interface lists. */
  views: { active: sql`${advertisers.isActive}` },
  parts: {},
  conflict: adOpsErrors.advertiserNotFound,
});

/** Who buys ads from the media: listed, created, read and replaced whole by PUT, never deleted (ads belong to it). */
export const advertiserRecord = defineRecord({
  ...named('advertiser', 'advertisers'),
  area: adOpsArea,
  path: '/advertisers',
  tags: { backoffice: adOpsTags.advertisers },
  agg: advertiserAggregate,
  schemas: { item: advertiserSchema, create: advertiserBody, update: advertiserBody },
  notFound: adOpsErrors.advertiserNotFound,
  conflict: adOpsErrors.advertiserNotFound,
  only: ['list', 'create', 'get', 'update'],
  replace: true,
  errors: [],
  docs: {
    list: { description: 'Newest first.' },
    create: { description: undefined },
    update: { description: 'A full replace, validated like a create: a field left out takes its default (null; `is_active` true).' },
  },
});

export type AdvertiserRow = RecordRow<typeof advertiserRecord>;
