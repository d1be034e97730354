import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { one } from '../../../shared/envelopes.js';
import { route } from '../../../shared/http/route.js';
import { dataOf } from '../../../shared/schemas.js';
import { coreTags } from '../core.tags.js';
import { toReference } from './references.mappers.js';
import { referenceSchema, refParams } from './references.schemas.js';
import type { ReferencesService } from './references.service.js';

/** Reader: resolve an external system's id to one of our records. */
export const referencesReaderRoutes: FastifyPluginAsyncZod<{ references: ReferencesService }> = async (app, { references }) => {
  route(app, {
    method: 'GET',
    url: '/references/:ref',
    operationId: 'readerGetReference',
    serves: 'reference',
    summary: 'Reference by ref',
    description: 'ref is `<provider>:<uuid>`; an expired reference is not found.',
    tag: coreTags.readerReferences,
    access: { scope: 'media:read' },
    params: refParams,
    response: { 200: dataOf(referenceSchema) },
    handler: async (ctx, { params }) => one(toReference(await references.get(ctx, params.ref))),
  });
};
