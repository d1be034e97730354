import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { list } from '../../shared/envelopes.js';
import { publicTwin, successorOf } from '../../shared/http/public.js';
import { route } from '../../shared/http/route.js';
import { listOf, pagingQuery, uuid } from '../../shared/schemas.js';
import { adOpsTags } from './ad-ops.tags.js';
import type { DeclaredService } from '../../shared/record/index.js';
import type { AdvertiserRow } from './advertisers/advertisers.record.js';

/** What a legacy site shows of an advertiser: who it is, never how to reach its buyer. */
const publicAdvertiserSchema = z
  .object({ id: uuid, name: z.string(), website: z.string().nullable() })
  .meta({ id: 'PublicAdvertiser' });

const toPublicAdvertiser = (row: AdvertiserRow) => ({ id: row.id, name: row.name, website: row.website });

/** Ad-ops' deprecated Public routes: the active advertisers, and random ads under the AdOps V1 and V2 paths (spec 9). */
export const adOpsPublicRoutes: FastifyPluginAsyncZod<{ advertisers: DeclaredService<AdvertiserRow, 'active'> }> = async (app, { advertisers }) => {
  const tag = adOpsTags.public;
  route(app, {
    method: 'GET',
    url: '/ad-ops/v2/medias/:media_id/advertisers',
    operationId: 'publicListAdvertisers',
    serves: 'advertiser',
    summary: 'Active advertisers',
    description:
      'Deprecated: use the Reader operation GET /api/media/v1/ads/random, whose ads name their advertiser. ' +
      'The advertisers whose ads may run, newest first: name and website only.',
    tag,
    access: { anonymous: true },
    params: z.object({ media_id: uuid.describe('The media') }),
    querystring: pagingQuery,
    config: { successor: successorOf(app, 'readerRandomAds'), publicMedia: 'path' },
    response: { 200: listOf(publicAdvertiserSchema) },
    handler: async (ctx, { query }, reply) => list(reply.request, await advertisers.listIn(ctx, query, 'active'), toPublicAdvertiser),
  });

  for (const version of ['v1', 'v2'] as const) {
    publicTwin(app, {
      reader: 'readerRandomAds',
      url: `/ad-ops/${version}/medias/:media_id/ads`,
      operationId: version === 'v1' ? 'publicRandomAdsV1' : 'publicRandomAds',
      summary: `Random ads (AdOps ${version.toUpperCase()})`,
      media: 'path',
      tag,
    });
  }
};
