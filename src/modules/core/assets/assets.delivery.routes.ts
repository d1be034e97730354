import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notModified } from '../../../shared/http/conditional.js';
import { route } from '../../../shared/http/route.js';
import { coreTags } from '../core.tags.js';
import type { AssetDelivery, DeliveryPlan } from './assets.delivery.js';
import type { Transform } from './assets.images.js';
import { CONTENT_TYPES } from './assets.images.js';
import { deliveryQuery, fileKeyParams } from './assets.schemas.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';

const binary = z.string().meta({ format: 'binary' });
const imageBytes = {
  description: 'The image',
  content: Object.fromEntries([...new Set(Object.values(CONTENT_TYPES))].map((type) => [type, { schema: binary }])),
};

/** The headers of a served image: its type and tag, cached for good (the key names immutable bytes). */
const cacheable = (reply: FastifyReply, plan: DeliveryPlan) =>
  reply
    .header('etag', plan.etag)
    .header('cache-control', IMMUTABLE)
    // Pages of other sites embed these images; the API's same-site default would block them.
    .header('cross-origin-resource-policy', 'cross-origin');

export interface DeliveryRoutesOptions {
  delivery: AssetDelivery;
  /** Counts a request that makes a new rendition against its client's budget (429 past it). */
  limitTransforms: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
}

/** GET /assets/{file_key}: a live image's bytes, for everyone, resized and converted on request. */
export const assetsDeliveryRoutes: FastifyPluginAsyncZod<DeliveryRoutesOptions> = async (app, { delivery, limitTransforms }) => {
  route(app, {
    method: 'GET',
    url: '/assets/:file_key',
    operationId: 'deliverAsset',
    summary: 'Image by file key',
    description:
      'The bytes of a file that a live image record uses (404 once every record over it is deleted). With `w`, `h` (1 to 4096, never ' +
      "enlarged), `fit`, `format` and `q`, a rendition made once (cropped at the image's gravity for fit=cover, EXIF orientation " +
      'applied, metadata dropped, first frame of an animation), kept in storage and served from there. Answers carry `ETag` and ' +
      '`Cache-Control: public, max-age=31536000, immutable`; a matching `If-None-Match` is a 304. Only requests that make a new ' +
      'rendition count against the per-IP limit (RATE_LIMIT_ANONYMOUS a minute); 503 `transforms_busy` when too many wait.',
    tag: coreTags.delivery,
    access: { anonymous: true },
    params: fileKeyParams,
    querystring: deliveryQuery,
    response: { 200: imageBytes },
    errors: [404, 503],
    // Cached answers are not counted (a page shows many images); renditions are, in the handler.
    config: { rateLimit: false, responseHeaders: ['ETag', 'Cache-Control'] },
    handler: async (_ctx, { params, query }, reply) => {
      const file = await delivery.resolve(params.file_key);
      const plan = delivery.plan(file, query);
      if (notModified(reply.request.headers['if-none-match'], plan.etag)) return cacheable(reply, plan).status(304).send();
      if (!plan.transform) {
        const { stream, size } = await delivery.original(file);
        return cacheable(reply, plan).type(plan.contentType).header('content-length', size).send(stream);
      }
      const bytes = await delivery.variant(file, plan as DeliveryPlan & { transform: Transform }, () => limitTransforms(reply.request, reply));
      return cacheable(reply, plan).type(plan.contentType).send(bytes);
    },
  });
};
