import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { one } from '../../../shared/envelopes.js';
import { route } from '../../../shared/http/route.js';
import { dataOf, idParams } from '../../../shared/schemas.js';
import { readerTemplateSchema } from '../contents/contents.schemas.js';
import { docsTags } from '../docs.tags.js';
import { toReaderTemplate } from './templates.mappers.js';
import type { TemplatesService } from './templates.service.js';

/** Public (deprecated): a live template by id, as the Reader's contents name it in their assocs; the media from the template. */
export const templatesPublicRoutes: FastifyPluginAsyncZod<{ templates: Pick<TemplatesService, 'get' | 'mediaOf'> }> = async (app, { templates }) => {
  route(app, {
    method: 'GET',
    url: '/docs/v2/templates/:id',
    operationId: 'publicGetTemplate',
    serves: 'template',
    summary: 'Template by id',
    description:
      "Deprecated. No Reader successor: the Reader serves templates only in the `assocs.templates` of its contents lists; this is a live template in that shape.",
    tag: docsTags.public,
    access: { anonymous: true },
    config: { publicMedia: { param: 'id', of: (id: string) => templates.mediaOf(id) } },
    params: idParams,
    response: { 200: dataOf(readerTemplateSchema) },
    handler: async (ctx, { params }) => one(toReaderTemplate(await templates.get(ctx, params.id))),
  });
};
