import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { one } from '../../../shared/envelopes.js';
import { successorOf } from '../../../shared/http/public.js';
import { localeQuery, readerView } from '../../../shared/http/reader.js';
import { route } from '../../../shared/http/route.js';
import { readerRecordOf, wirePlan } from '../../../shared/record/index.js';
import { dataOf, uuid } from '../../../shared/schemas.js';
import type { DeclaredService } from '../../../shared/record/index.js';
import { publisherTags } from '../publisher.tags.js';
import { menusCollection } from './menus.js';

/** Public (deprecated): a menu by key in one language (spec 2.15), the media taken from the path. */
export const menusPublicRoutes: FastifyPluginAsyncZod<{ menus: DeclaredService }> = async (app, { menus }) => {
  const plan = wirePlan(menusCollection.schemas.reader)!;
  route(app, {
    method: 'GET',
    url: '/publisher/v2/medias/:media_id/menus/:key',
    operationId: 'publicGetMenu',
    serves: 'menu',
    summary: 'Menu by key',
    description: 'Deprecated: use the Reader operation GET /api/media/v1/menus/{key}.',
    tag: publisherTags.public,
    access: { anonymous: true },
    config: { successor: successorOf(app, 'readerGetMenuByKey'), publicMedia: 'path' },
    params: z.object({ media_id: uuid, key: z.string().min(1).max(200) }),
    querystring: localeQuery,
    response: { 200: dataOf(menusCollection.schemas.reader) },
    handler: async (ctx, { params, query }, reply) =>
      one(readerRecordOf(await menus.getByKey(ctx, params.key), readerView(reply.request, query.locale), plan) as never),
  });
};
