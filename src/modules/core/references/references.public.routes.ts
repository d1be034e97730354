import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { one } from '../../../shared/envelopes.js';
import { dataOf, errorResponses, uuid } from '../../../shared/schemas.js';
import type { TenancyService } from '../tenancy/tenancy.service.js';
import { toReference } from './references.mappers.js';
import { referenceSchema } from './references.schemas.js';
import type { ReferencesService } from './references.service.js';

const params = z.object({ media_id: uuid, ref: z.string().max(200).describe('<provider>:<uuid>') });

/** Public (deprecated): reference by ref, the media taken from the path. */
export const referencesPublicRoutes: FastifyPluginAsyncZod<{ references: ReferencesService; tenancy: TenancyService }> = async (
  app,
  { references, tenancy },
) => {
  app.get('/core/v2/medias/:media_id/references/:ref', {
    config: { successor: '/api/media/v1/references/{ref}' },
    schema: {
      tags: ['Public (deprecated)'],
      summary: 'Reference by ref',
      description: 'Deprecated: use the Reader operation GET /api/media/v1/references/{ref}.',
      params,
      response: { 200: dataOf(referenceSchema), ...errorResponses(400, 404, 429) },
    },
    handler: async (req) => {
      await tenancy.cachedMedia(req.params.media_id);
      return one(toReference(await references.get(req.params.media_id, req.params.ref)));
    },
  });
};
