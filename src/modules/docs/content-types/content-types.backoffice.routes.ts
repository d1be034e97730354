import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { backofficeResource } from '../../../shared/http/resource.js';
import { docsTags } from '../docs.tags.js';
import { toContentType } from './content-types.mappers.js';
import { contentTypeCreateBody, contentTypeSchema, contentTypeUpdateBody } from './content-types.schemas.js';
import type { ContentTypesService } from './content-types.service.js';
import { contentTypeAggregate } from './content-types.repository.js';

export const contentTypesBackofficeRoutes: FastifyPluginAsyncZod<{ contentTypes: ContentTypesService }> = async (app, { contentTypes }) => {
  const resource = backofficeResource(app, {
    path: '/content-types',
    kind: 'content_type',
    lock: contentTypeAggregate,
    names: { one: 'ContentType', many: 'ContentTypes' },
    tag: docsTags.contentTypes,
    item: contentTypeSchema,
    map: toContentType,
    read: 'docs:read',
    write: 'docs:write',
  });
  resource.list({ summary: 'List content types', description: 'Live content types of the media, newest first.' }, contentTypes.list);
  resource.create({ summary: 'Create a content type', body: contentTypeCreateBody, errors: [409] }, contentTypes.create);
  resource.get({ summary: 'Content type by id' }, contentTypes.get);
  resource.update(
    { summary: 'Update a content type', description: 'Fields left out keep their value.', body: contentTypeUpdateBody, errors: [409] },
    contentTypes.update,
  );
  resource.remove({ summary: 'Remove a content type (soft)' }, contentTypes.remove);
  resource.restore(
    { summary: 'Restore a removed content type', description: 'Idempotent; 409 when a live type has taken its key meanwhile.', errors: [409] },
    contentTypes.restore,
  );
};
