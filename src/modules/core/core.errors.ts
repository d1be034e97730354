import { AppError, type ErrorDetail, errors } from '../../shared/errors.js';

/** Every error the core module answers, with its code written out. */
export const coreErrors = {
  mediaNotFound: () => errors.notFound('media_not_found', 'media not found'),
  invalidDefaultLocale: (details: ErrorDetail[]) =>
    errors.badRequest('invalid_default_locale', 'default_locale must be one of locales', details),
  unsupportedLocale: (details: ErrorDetail[]) =>
    errors.badRequest('unsupported_locale', "a locale is not one of the media's languages", details),
  workspaceNotFound: () => errors.notFound('workspace_not_found', 'workspace not found'),
  workspaceKeyTaken: () => errors.conflict('workspace_key_taken', 'a workspace with this key already exists'),
  statusKeyTaken: () => errors.conflict('status_key_taken', 'a status with this key already exists'),
  apiKeyNotFound: () => errors.notFound('api_key_not_found', 'api key not found'),
  // Unknown, expired, revoked, of another media or used on another record: one answer, so none is told apart.
  previewTokenInvalid: () =>
    new AppError(401, 'preview_token_invalid', 'the preview token is unknown, expired, revoked or does not open this record'),
  previewLinkNotFound: () => errors.notFound('preview_link_not_found', 'preview link not found'),
  categoryNotFound: () => errors.notFound('category_not_found', 'category not found'),
  categoryConflict: () => errors.conflict('category_conflict', 'a live locale entry of this category already exists'),
  referenceNotFound: () => errors.notFound('reference_not_found', 'reference not found'),
  referenceExists: () => errors.conflict('reference_exists', 'a reference with this provider and id already exists'),
  assetNotFound: () => errors.notFound('asset_not_found', 'asset not found'),
  assetImageNotFound: () => errors.notFound('asset_image_not_found', 'asset image not found'),
  assetImageConflict: () => errors.conflict('asset_image_conflict', 'a live locale entry of this image already exists'),
  unsupportedImage: (reason: string) =>
    new AppError(415, 'unsupported_image_type', `${reason}: upload a JPEG, PNG, WebP, AVIF or GIF image`),
  imageTooLarge: (width: number, height: number, max: number) =>
    new AppError(413, 'image_too_large', `the image is ${width} x ${height} pixels; at most ${max / 1_000_000} megapixels are accepted`),
  invalidImage: () => errors.unprocessable('invalid_image', 'the image could not be decoded: it is truncated or corrupt'),
  webhookNotFound: () => errors.notFound('webhook_not_found', 'webhook not found'),
  webhookDeliveryNotFound: () => errors.notFound('webhook_delivery_not_found', 'webhook delivery not found'),
  webhookConflict: () => errors.conflict('webhook_conflict', 'the webhook changed at the same time; retry'),
  unsafeWebhookUrl: (reason: string) => errors.badRequest('unsafe_webhook_url', `url ${reason}`, [{ path: 'url', message: reason }]),
  transformsBusy: () =>
    new AppError(503, 'transforms_busy', 'too many images are being resized right now; retry shortly', undefined, { 'retry-after': '1' }),
};
