import { aggregate } from '../../../shared/aggregate.js';
import { type RecordRow, defineRecord, named, usedBy } from '../../../shared/record/index.js';
import { adOpsErrors } from '../ad-ops.errors.js';
import { adOpsArea, adOpsTags } from '../ad-ops.tags.js';
import { adCategoryBody, adCategorySchema } from './ad-categories.schemas.js';
import { adCategories } from './ad-categories.table.js';

export const adCategoryAggregate = aggregate(adCategories, {
  owner: adCategories.mediaId,
  parts: {},
  conflict: adOpsErrors.adCategoryNameTaken,
});

/**
 * The categories ads are sold in: a name, replaced whole by PUT; a category live ads belong to is
 * not deleted (ads answer whether they use it: `uses.ads`).
 */
export const adCategoryRecord = defineRecord({
  ...named('ad category', 'ad categories'),
  area: adOpsArea,
  path: '/ad-categories',
  tags: { backoffice: adOpsTags.adCategories },
  agg: adCategoryAggregate,
  schemas: { item: adCategorySchema, create: adCategoryBody, update: adCategoryBody },
  notFound: adOpsErrors.adCategoryNotFound,
  conflict: adOpsErrors.adCategoryNameTaken,
  replace: true,
  usedBy: [usedBy('ads', adOpsErrors.adCategoryInUse)],
  docs: {
    list: { description: 'Live categories, newest first.' },
    create: { description: undefined },
    update: { description: 'A full replace, validated like a create.' },
    remove: { description: '409 `ad_category_in_use` while ads belong to it.' },
    restore: { description: 'Idempotent; 409 when a live category took its name meanwhile.' },
  },
});

export type AdCategoryRow = RecordRow<typeof adCategoryRecord>;
