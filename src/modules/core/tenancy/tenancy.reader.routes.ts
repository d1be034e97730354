import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { one } from '../../../shared/envelopes.js';
import { route } from '../../../shared/http/route.js';
import { dataOf } from '../../../shared/schemas.js';
import { coreTags } from '../core.tags.js';
import { toMedia } from './tenancy.mappers.js';
import { mediaSchema } from './tenancy.schemas.js';
import type { TenancyService } from './tenancy.service.js';

/** Media overview: what a front end needs to know about the media it serves. */
export const tenancyReaderRoutes: FastifyPluginAsyncZod<{ tenancy: TenancyService }> = async (app, { tenancy }) => {
  route(app, {
    method: 'GET',
    url: '/media',
    operationId: 'readerGetMedia',
    serves: 'media',
    summary: 'Media overview',
    description: 'The media named by x-service-media-id: name, languages and website.',
    tag: coreTags.readerMedia,
    access: { scope: 'media:read' },
    response: { 200: dataOf(mediaSchema) },
    handler: async (ctx) => one(toMedia(await tenancy.cachedMedia(ctx))),
  });
};
