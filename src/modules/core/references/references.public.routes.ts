import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { one } from '../../../shared/envelopes.js';
import { route } from '../../../shared/http/route.js';
import { dataOf, uuid } from '../../../shared/schemas.js';
import { coreTags } from '../core.tags.js';
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
  route(app, {
    method: 'GET',
    url: '/core/v2/medias/:media_id/references/:ref',
    operationId: 'publicGetReference',
    summary: 'Reference by ref',
    description: 'Deprecated: use the Reader operation GET /api/media/v1/references/{ref}.',
    tag: coreTags.public,
    access: { anonymous: true },
    config: { successor: '/api/media/v1/references/{ref}' },
    params,
    response: { 200: dataOf(referenceSchema) },
    handler: async (ctx, { params }) => {
      const media = await tenancy.cachedMedia(params.media_id);
      return one(toReference(await references.get({ ...ctx, mediaId: media.id }, params.ref)));
    },
  });
};
