import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type RecordDeps, declaredService, recordBackofficeRoutes } from '../../shared/record/index.js';
import { adCategoryRecord } from './ad-categories/ad-categories.record.js';
import { advertiserRecord } from './advertisers/advertisers.record.js';
import { adsBackofficeRoutes } from './ads/ads.backoffice.routes.js';
import { adOpsPublicRoutes as publicRoutes } from './ad-ops.public.routes.js';
import { adsReaderRoutes } from './ads/ads.reader.routes.js';
import { adAggregate, createAdsRepository } from './ads/ads.repository.js';
import { createAdsService } from './ads/ads.service.js';
import { creativesBackofficeRoutes } from './creatives/creatives.backoffice.routes.js';
import { creativeMapper } from './creatives/creatives.mappers.js';
import { creativesRepository } from './creatives/creatives.repository.js';
import { type CreativeAssets, createCreativesService } from './creatives/creatives.service.js';
import { placementsBackofficeRoutes } from './placements/placements.backoffice.routes.js';
import { createPlacementsRepository } from './placements/placements.repository.js';
import { type IssueCheck, createPlacementsService } from './placements/placements.service.js';

export { randomAdsSql } from './ads/ads.repository.js';

/**
 * Ad-ops' services: every statement runs on the executor of the context each method is given
 * (`ctx.db`). Advertisers and ad categories are declared records; ads tell ad categories whether
 * they use one (`uses.ads`), as another area's lookups are injected.
 */
export function createAdOpsServices(deps: Omit<RecordDeps, 'live' | 'uses'> & {
  /** Core's assets: the upload path of creative images, their delivery URL and the upload cap. */
  assets: CreativeAssets & { uploadLimit: number; urlOf: (fileKey: string) => string };
  /** Magazines: whether an issue of the media exists (placements in an issue). */
  issueExists: IssueCheck;
}) {
  const { pager } = deps;
  const records = { db: deps.db, pager, assertLocales: deps.assertLocales, live: {} };
  const adsRepo = createAdsRepository(pager);
  const advertisers = declaredService(records, advertiserRecord);
  const adCategories = declaredService({ ...records, uses: { ads: adsRepo.categoryInUse } }, adCategoryRecord);
  const ads = createAdsService({ repo: adsRepo, advertiserExists: advertisers.exists, categoryExists: adCategories.exists });
  return {
    advertisers,
    adCategories,
    ads,
    creatives: createCreativesService({
      repo: creativesRepository,
      assets: deps.assets,
      adExists: ads.exists,
      lockAd: (tx, id, mediaId) => adAggregate.lock(tx, id, mediaId),
    }),
    placements: createPlacementsService({ repo: createPlacementsRepository(pager), adExists: ads.exists, issueExists: deps.issueExists }),
    toCreative: creativeMapper(deps.assets.urlOf),
    uploadLimit: deps.assets.uploadLimit,
    urlOf: deps.assets.urlOf,
  };
}

export type AdOpsServices = ReturnType<typeof createAdOpsServices>;

/** Every /ad-ops/v2 Backoffice route. */
export const adOpsBackofficeRoutes: FastifyPluginAsyncZod<{ adOps: AdOpsServices }> = async (app, { adOps }) => {
  await app.register(async (scope) => recordBackofficeRoutes(scope, advertiserRecord, adOps.advertisers));
  await app.register(adsBackofficeRoutes, { ads: adOps.ads });
  await app.register(placementsBackofficeRoutes, { placements: adOps.placements });
  await app.register(creativesBackofficeRoutes, { creatives: adOps.creatives, toCreative: adOps.toCreative, uploadLimit: adOps.uploadLimit });
  await app.register(async (scope) => recordBackofficeRoutes(scope, adCategoryRecord, adOps.adCategories));
};

/** Ad-ops' deprecated Public routes under /api/public. */
export const adOpsPublicRoutes: FastifyPluginAsyncZod<{ adOps: AdOpsServices }> = async (app, { adOps }) => {
  await app.register(publicRoutes, { advertisers: adOps.advertisers });
};

/** Ad-ops' Reader routes under /api/media/v1. */
export const adOpsReaderRoutes: FastifyPluginAsyncZod<{ adOps: AdOpsServices }> = async (app, { adOps }) => {
  await app.register(adsReaderRoutes, { ads: adOps.ads, urlOf: adOps.urlOf });
};
