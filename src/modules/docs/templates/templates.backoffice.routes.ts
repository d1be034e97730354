import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { backofficeResource } from '../../../shared/http/resource.js';
import { revisionRoutes } from '../../../shared/http/revisions.js';
import { type RevisionSource, aggregateRows } from '../../../shared/revisions.js';
import { docsErrors } from '../docs.errors.js';
import { docsTags } from '../docs.tags.js';
import { toTemplate } from './templates.mappers.js';
import { templateCreateBody, templateSchema, templateUpdateBody } from './templates.schemas.js';
import type { TemplatesService } from './templates.service.js';
import { templateAggregate } from './templates.repository.js';

const rows = aggregateRows(templateAggregate);

export const templatesBackofficeRoutes: FastifyPluginAsyncZod<{ templates: TemplatesService }> = async (app, { templates }) => {
  // A template keeps revisions: its Backoffice shape (block kinds and metadata keys are replaced whole in a diff).
  const source: RevisionSource = {
    kind: 'template',
    schema: templateSchema,
    keys: {},
    rows,
    notFound: docsErrors.templateNotFound,
    load: async (ctx, id) => toTemplate(await templates.get(ctx, id)),
  };
  const resource = backofficeResource(app, {
    revises: { source },
    path: '/templates',
    kind: 'template',
    lock: templateAggregate,
    names: { one: 'Template', many: 'Templates' },
    tag: docsTags.templates,
    item: templateSchema,
    map: toTemplate,
    read: 'docs:read',
    write: 'docs:write',
  });
  resource.list({ summary: 'List templates', description: 'Live templates of the media, newest first.' }, templates.list);
  resource.create(
    {
      summary: 'Create a template',
      description: '`content_type_id` must name a live content type of the media (404 otherwise).',
      body: templateCreateBody,
      errors: [404, 409],
    },
    templates.create,
  );
  resource.get({ summary: 'Template by id' }, templates.get);
  resource.update(
    { summary: 'Update a template', description: 'Fields left out keep their value.', body: templateUpdateBody, errors: [409] },
    templates.update,
  );
  resource.remove({ summary: 'Remove a template (soft)' }, templates.remove);
  resource.restore(
    { summary: 'Restore a removed template', description: 'Idempotent; 409 when a live template has taken its key meanwhile.', errors: [409] },
    templates.restore,
  );
  revisionRoutes(app, { path: '/templates', names: { one: 'Template' }, label: 'template', source, tag: docsTags.templates, read: 'docs:read', write: 'docs:write' });
};
