import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { backofficeResource } from '../../../shared/http/resource.js';
import { adOpsTags } from '../ad-ops.tags.js';
import { toAd } from './ads.mappers.js';
import { adBody, adSchema } from './ads.schemas.js';
import type { AdsService } from './ads.service.js';
import { adAggregate } from './ads.repository.js';

const WINDOW_RULE =
  '`starts_at` and `ends_at` without an offset are wall-clock times in `timezone` (a time skipped by a DST change moves ' +
  'forward by the gap; one that occurs twice is its first occurrence); with one they are instants. Both are answered in UTC. ' +
  '400 `validation_failed` when `ends_at` is not after `starts_at` or the zone is not an IANA name.';

export const adsBackofficeRoutes: FastifyPluginAsyncZod<{ ads: AdsService }> = async (app, { ads }) => {
  const resource = backofficeResource(app, {
    path: '/ads',
    kind: 'ad',
    lock: adAggregate,
    names: { one: 'Ad', many: 'Ads' },
    tag: adOpsTags.ads,
    item: adSchema,
    map: toAd,
    read: 'ad-ops:read',
    write: 'ad-ops:write',
  });
  resource.listUnder(
    {
      url: '/advertisers/:advertiser_id/ads',
      operationId: 'listAdvertiserAds',
      summary: "List an advertiser's ads",
      description: 'Newest first; 404 `advertiser_not_found` for an advertiser that is not of the media.',
    },
    ads.listInAdvertiser,
  );
  resource.createUnder(
    {
      url: '/advertisers/:advertiser_id/ads',
      operationId: 'createAd',
      summary: 'Create an ad',
      description:
        "Spec 4.2. The body's `advertiser_id` must equal the path's (400 `advertiser_mismatch`); `category` names an ad " +
        `category by \`{id}\` (404 \`ad_category_not_found\`); 404 \`advertiser_not_found\` for an unknown advertiser. ${WINDOW_RULE}`,
      body: adBody,
      errors: [404],
    },
    ads.create,
  );
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
