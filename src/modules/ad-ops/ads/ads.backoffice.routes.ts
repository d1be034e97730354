import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { list, one } from '../../../shared/envelopes.js';
import { backofficeResource } from '../../../shared/http/resource.js';
import { route } from '../../../shared/http/route.js';
import { dataOf, listOf, pagingQuery } from '../../../shared/schemas.js';
import { adOpsTags } from '../ad-ops.tags.js';
import { toAd } from './ads.mappers.js';
import { adBody, adSchema, advertiserIdParams } from './ads.schemas.js';
import type { AdsService } from './ads.service.js';

const WINDOW_RULE =
  '`starts_at` and `ends_at` without an offset are wall-clock times in `timezone` (a time skipped by a DST change moves ' +
  'forward by the gap; one that occurs twice is its first occurrence); with one they are instants. Both are answered in UTC. ' +
  '400 `validation_failed` when `ends_at` is not after `starts_at` or the zone is not an IANA name.';

export const adsBackofficeRoutes: FastifyPluginAsyncZod<{ ads: AdsService }> = async (app, { ads }) => {
  route(app, {
    method: 'GET',
    url: '/advertisers/:advertiser_id/ads',
    operationId: 'listAdvertiserAds',
    summary: "List an advertiser's ads",
    description: 'Newest first; 404 `advertiser_not_found` for an advertiser that is not of the media.',
    tag: adOpsTags.ads,
    access: { permission: 'ad-ops:read' },
    params: advertiserIdParams,
    querystring: pagingQuery,
    response: { 200: listOf(adSchema) },
    handler: async (ctx, { params, query }, reply) => list(reply.request, await ads.listInAdvertiser(ctx, params.advertiser_id, query), toAd),
  });

  route(app, {
    method: 'POST',
    url: '/advertisers/:advertiser_id/ads',
    operationId: 'createAd',
    summary: 'Create an ad',
    description:
      "Spec 4.2. The body's `advertiser_id` must equal the path's (400 `advertiser_mismatch`); `category` names an ad " +
      `category by \`{id}\` (404 \`ad_category_not_found\`); 404 \`advertiser_not_found\` for an unknown advertiser. ${WINDOW_RULE}`,
    tag: adOpsTags.ads,
    access: { permission: 'ad-ops:write' },
    params: advertiserIdParams,
    body: adBody,
    response: { 201: dataOf(adSchema) },
    handler: async (ctx, { params, body }) => one(toAd(await ads.create(ctx, params.advertiser_id, body))),
  });

  const resource = backofficeResource(app, {
    path: '/ads',
    names: { one: 'Ad', many: 'Ads' },
    tag: adOpsTags.ads,
    item: adSchema,
    map: toAd,
    read: 'ad-ops:read',
    write: 'ad-ops:write',
  });
  resource.get({ summary: 'Ad by id' }, ads.get);
  resource.update(
    {
      summary: 'Update an ad',
      description: `A full replace, validated like a create; the ad stays with its advertiser (400 \`advertiser_mismatch\`). ${WINDOW_RULE}`,
      method: 'PUT',
      body: adBody,
    },
    ads.replace,
  );
};
