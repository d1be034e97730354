import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { one } from '../../../shared/envelopes.js';
import { localeQuery } from '../../../shared/http/reader.js';
import { route } from '../../../shared/http/route.js';
import { readerRecordOf } from '../../../shared/records.js';
import { dataOf, uuid } from '../../../shared/schemas.js';
import type { CollectionService } from '../publisher.collection.js';
import { publisherTags } from '../publisher.tags.js';
import { menusCollection } from './menus.js';

/** Public (deprecated): a menu by key in one language (spec 2.15), the media taken from the path. */
export const menusPublicRoutes: FastifyPluginAsyncZod<{
  menus: CollectionService;
  cachedMedia: (mediaId: string) => Promise<{ id: string; defaultLocale: string }>;
}> = async (app, { menus, cachedMedia }) => {
  route(app, {
    method: 'GET',
    url: '/publisher/v2/medias/:media_id/menus/:key',
    operationId: 'publicGetMenu',
    summary: 'Menu by key',
    description: 'Deprecated: use the Reader operation GET /api/media/v1/menus/{key}.',
    tag: publisherTags.public,
    access: { anonymous: true },
    config: { successor: '/api/media/v1/menus/{key}' },
    params: z.object({ media_id: uuid, key: z.string().min(1).max(200) }),
    querystring: localeQuery,
    response: { 200: dataOf(menusCollection.schemas.reader) },
    handler: async (ctx, { params, query }) => {
      const media = await cachedMedia(params.media_id);
      const row = await menus.getByKey({ ...ctx, mediaId: media.id }, params.key);
      return one(readerRecordOf(row, { locale: query.locale, fallback: media.defaultLocale }) as never);
    },
  });
};
