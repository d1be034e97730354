import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { backofficeResource } from '../../../shared/http/resource.js';
import { coreTags } from '../core.tags.js';
import { toBackofficeCategory } from './categories.mappers.js';
import { categoryCreateBody, categorySchema, categoryUpdateBody } from './categories.schemas.js';
import type { CategoriesService } from './categories.service.js';
import { categoryAggregate } from './categories.repository.js';

export const categoriesBackofficeRoutes: FastifyPluginAsyncZod<{ categories: CategoriesService }> = async (app, { categories }) => {
  const resource = backofficeResource(app, {
    path: '/categories',
    kind: 'category',
    lock: categoryAggregate,
    names: { one: 'Category', many: 'Categories' },
    tag: coreTags.categories,
    item: categorySchema,
    map: toBackofficeCategory,
    read: 'core:read',
    write: 'core:write',
  });

  resource.list(
    {
      summary: 'List categories',
      description: "Live categories of the key's media, newest first, with their live locale entries.",
    },
    categories.list,
  );
  resource.create({ summary: 'Create a category', body: categoryCreateBody }, categories.create);
  resource.get({ summary: 'Category by id' }, categories.get);
  resource.update(
    {
      summary: 'Update a category',
      description: 'Fields left out keep their value. `locales`, when sent, is the complete set of locale entries.',
      body: categoryUpdateBody,
    },
    categories.update,
  );
  resource.remove(
    {
      summary: 'Delete a category (soft)',
      description: 'Sets deleted_at on the category and its live locale entries; restore brings them back.',
    },
    categories.remove,
  );
  resource.restore(
    { summary: 'Restore a deleted category', description: 'Idempotent: restoring a live category answers it as it is.' },
    categories.restore,
  );
};
