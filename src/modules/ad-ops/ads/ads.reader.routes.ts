import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { route } from '../../../shared/http/route.js';
import { queryInt, uuid } from '../../../shared/schemas.js';
import { adOpsTags } from '../ad-ops.tags.js';
import type { DrawnAd } from './ads.repository.js';
import { adCategorySummarySchema, placementPosition } from './ads.schemas.js';
import type { AdsService } from './ads.service.js';

const randomQuery = z.object({
  issue_id: uuid.optional().describe("A magazine issue: its ads beside the whole media's"),
  position: placementPosition.optional().describe('Only ads placed at this position or at none'),
  count: queryInt(1, 10).default(1).describe('How many different ads, 1 to 10 (default 1)'),
});

const readerAdSchema = z
  .object({
    id: uuid,
    name: z.string(),
    advertiser_id: uuid,
    category: adCategorySummarySchema,
    creative: z.object({
      id: uuid,
      kind: z.enum(['image', 'html']),
      url: z.string().nullable().describe('The image (kind image), served by /assets'),
      click_url: z.string(),
      alt_text: z.string().nullable(),
      width: z.int().nullable(),
      height: z.int().nullable(),
      html: z.string().nullable().describe('Sanitized HTML (kind html)'),
    }),
  })
  .meta({ id: 'ReaderAd' });

export type ImageUrlOf = (fileKey: string) => string;

const toReaderAd = (row: DrawnAd, urlOf: ImageUrlOf) => ({
  id: row.id,
  name: row.name,
  advertiser_id: row.advertiser_id,
  category: row.category,
  creative: {
    id: row.creative_id,
    kind: row.kind,
    url: row.file_key ? urlOf(row.file_key) : null,
    click_url: row.click_url,
    alt_text: row.alt_text,
    width: row.width,
    height: row.height,
    html: row.html,
  },
});

/** /api/media/v1/ads/random */
export const adsReaderRoutes: FastifyPluginAsyncZod<{ ads: AdsService; urlOf: ImageUrlOf }> = async (app, { ads, urlOf }) => {
  route(app, {
    method: 'GET',
    url: '/ads/random',
    operationId: 'readerRandomAds',
    serves: 'ad',
    summary: 'Random ads',
    description:
      'Up to `count` different running ads, drawn at random with weight `priority` without repeats, in draw order, each with ' +
      "one of its creatives chosen at random. Running: now lies in the ad's window, its advertiser is active and it has a " +
      "creative to show (HTML, or an image uploaded to it). Placed on the whole media, or on `issue_id` when given. " +
      'Impressions and clicks are not counted. Each answer is a new draw: `Cache-Control: no-store`, never cached.',
    tag: adOpsTags.readerAds,
    access: { scope: 'media:read' },
    config: { cacheControl: 'no-store' },
    querystring: randomQuery,
    response: { 200: z.object({ data: z.array(readerAdSchema) }) },
    handler: async (ctx, { query }) => ({ data: (await ads.random(ctx, query)).map((row) => toReaderAd(row, urlOf)) }),
  });
};
