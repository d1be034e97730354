import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { backofficeResource } from '../../../shared/http/resource.js';
import { adOpsTags } from '../ad-ops.tags.js';
import { toAdCategory } from './ad-categories.mappers.js';
import { adCategoryBody, adCategorySchema } from './ad-categories.schemas.js';
import type { AdCategoriesService } from './ad-categories.service.js';
import { adCategoryAggregate } from './ad-categories.repository.js';

export const adCategoriesBackofficeRoutes: FastifyPluginAsyncZod<{ adCategories: AdCategoriesService }> = async (
  app,
  { adCategories },
) => {
  const resource = backofficeResource(app, {
    path: '/ad-categories',
    kind: 'ad_category',
    lock: adCategoryAggregate,
    names: { one: 'AdCategory', many: 'AdCategories' },
    tag: adOpsTags.adCategories,
    item: adCategorySchema,
    map: toAdCategory,
    read: 'ad-ops:read',
    write: 'ad-ops:write',
  });
  resource.list({ summary: 'List ad categories', description: 'Live categories, newest first.' }, adCategories.list);
  resource.create({ summary: 'Create an ad category', body: adCategoryBody, errors: [409] }, adCategories.create);
  resource.get({ summary: 'Ad category by id' }, adCategories.get);
  resource.update(
    { summary: 'Update an ad category', description: 'A full replace, validated like a create.', method: 'PUT', body: adCategoryBody, errors: [409] },
    adCategories.replace,
  );
  resource.remove(
    { summary: 'Delete an ad category (soft)', description: '409 `ad_category_in_use` while ads belong to it.', errors: [409] },
    adCategories.remove,
  );
  resource.restore(
    {
      summary: 'Restore a deleted ad category',
      description: 'Idempotent; 409 when a live category took its name meanwhile.',
      errors: [409],
    },
    adCategories.restore,
  );
};
