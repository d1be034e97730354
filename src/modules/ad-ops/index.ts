import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Paginator } from '../../shared/paging.js';
import { adCategoriesBackofficeRoutes } from './ad-categories/ad-categories.backoffice.routes.js';
import { createAdCategoriesRepository } from './ad-categories/ad-categories.repository.js';
import { createAdCategoriesService } from './ad-categories/ad-categories.service.js';
import { advertisersBackofficeRoutes } from './advertisers/advertisers.backoffice.routes.js';
import { createAdvertisersRepository } from './advertisers/advertisers.repository.js';
import { createAdvertisersService } from './advertisers/advertisers.service.js';
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

/** Ad-ops' services: every statement runs on the executor of the context each method is given (`ctx.db`). */
export function createAdOpsServices(deps: {
  pager: Paginator;
  /** Core's assets: the upload path of creative images, their delivery URL and the upload cap. */
  assets: CreativeAssets & { uploadLimit: number; urlOf: (fileKey: string) => string };
  /** Magazines: whether an issue of the media exists (placements in an issue). */
  issueExists: IssueCheck;
}) {
  const { pager } = deps;
  const advertisersRepo = createAdvertisersRepository(pager);
  const adCategoriesRepo = createAdCategoriesRepository(pager);
  const adsRepo = createAdsRepository(pager);
  const advertisers = createAdvertisersService({ repo: advertisersRepo });
  const ads = createAdsService({
    repo: adsRepo,
    advertiserExists: async (executor, mediaId, id) => (await advertisersRepo.find(executor, mediaId, id)) !== undefined,
    categoryExists: async (executor, mediaId, id) => (await adCategoriesRepo.find(executor, mediaId, id)) !== undefined,
  });
  return {
    advertisers,
    adCategories: createAdCategoriesService({ repo: adCategoriesRepo, inUse: ads.categoryInUse }),
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
  await app.register(advertisersBackofficeRoutes, { advertisers: adOps.advertisers });
  await app.register(adsBackofficeRoutes, { ads: adOps.ads });
  await app.register(placementsBackofficeRoutes, { placements: adOps.placements });
  await app.register(creativesBackofficeRoutes, { creatives: adOps.creatives, toCreative: adOps.toCreative, uploadLimit: adOps.uploadLimit });
  await app.register(adCategoriesBackofficeRoutes, { adCategories: adOps.adCategories });
};

/** Ad-ops' deprecated Public routes under /api/public. */
export const adOpsPublicRoutes: FastifyPluginAsyncZod<{ adOps: AdOpsServices }> = async (app, { adOps }) => {
  await app.register(publicRoutes, { advertisers: adOps.advertisers });
};

/** Ad-ops' Reader routes under /api/media/v1. */
export const adOpsReaderRoutes: FastifyPluginAsyncZod<{ adOps: AdOpsServices }> = async (app, { adOps }) => {
  await app.register(adsReaderRoutes, { ads: adOps.ads, urlOf: adOps.urlOf });
};
