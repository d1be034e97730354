import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { one } from '../../../shared/envelopes.js';
import { dataOf, errorResponses } from '../../../shared/schemas.js';
import { toReference } from './references.mappers.js';
import { referenceSchema, refParams } from './references.schemas.js';
import type { ReferencesService } from './references.service.js';

/** Reader: resolve an external system's id to one of our records. */
export const referencesReaderRoutes: FastifyPluginAsyncZod<{ references: ReferencesService }> = async (app, { references }) => {
  app.get('/references/:ref', {
    config: { scope: 'media:read' },
    schema: {
      tags: ['Reader: References'],
      summary: 'Reference by ref',
      description: 'ref is `<provider>:<uuid>`; an expired reference is not found.',
      params: refParams,
      response: { 200: dataOf(referenceSchema), ...errorResponses(400, 401, 403, 404, 429) },
    },
    handler: async (req) => one(toReference(await references.get(req.mediaId, req.params.ref))),
  });
};
