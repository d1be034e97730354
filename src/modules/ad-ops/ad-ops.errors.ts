import { AppError, type ErrorDetail, errors } from '../../shared/errors.js';

/** Every error the ad-ops module answers, with its code written out. */
export const adOpsErrors = {
  advertiserNotFound: () => errors.notFound('advertiser_not_found', 'advertiser not found'),
  adNotFound: () => errors.notFound('ad_not_found', 'ad not found'),
  adCategoryNotFound: () => errors.notFound('ad_category_not_found', 'ad category not found'),
  adCategoryNameTaken: () => errors.conflict('ad_category_name_taken', 'a live ad category with this name already exists'),
  adCategoryInUse: () => errors.conflict('ad_category_in_use', 'ads belong to this category: move them to another one first'),
  creativeNotFound: () => errors.notFound('creative_not_found', 'creative not found'),
  creativeNotImage: () =>
    errors.conflict('creative_not_image', 'only a creative of kind image takes an image; this one is html'),
  placementNotFound: () => errors.notFound('placement_not_found', 'placement not found'),
  placementExists: () => errors.conflict('placement_exists', 'the ad is already placed there'),
  /** A record the body names (an ad category, a magazine issue) is not in the media: 404 naming the field. */
  referenceNotFound: (code: `${string}_not_found`, what: string, path: string) =>
    new AppError(404, code, `${what} does not exist in this media`, [{ path, message: 'is not a record of this media' }]),
  advertiserMismatch: () =>
    errors.badRequest('advertiser_mismatch', "the body's advertiser_id differs from the advertiser of the path", [
      { path: 'advertiser_id', message: 'must equal the advertiser of the path' },
    ]),
  invalidWindow: (details: ErrorDetail[]) => errors.validation('ends_at must be after starts_at', details),
};
