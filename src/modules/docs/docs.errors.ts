import { AppError, type ErrorDetail, errors } from '../../shared/errors.js';

/** Every error the docs module answers, with its code written out. */
export const docsErrors = {
  contentTypeNotFound: () => errors.notFound('content_type_not_found', 'content type not found'),
  contentTypeKeyTaken: () => errors.conflict('content_type_key_taken', 'a live content type with this key already exists'),
  templateNotFound: () => errors.notFound('template_not_found', 'template not found'),
  templateKeyTaken: () => errors.conflict('template_key_taken', 'a live template with this key already exists'),
  contentNotFound: () => errors.notFound('content_not_found', 'content not found'),
  contentConflict: () => errors.conflict('content_conflict', 'a live entry with this key already exists in this content'),
  /** A referenced record (category, template, asset image, related content) is not in the media: 404 naming where. */
  referenceNotFound: (code: `${string}_not_found`, what: string, details: ErrorDetail[]) =>
    new AppError(404, code, `${what} does not exist in this media`, details),
  invalidAuthor: (details: ErrorDetail[]) => errors.badRequest('invalid_author', 'an author is not a person of this media', details),
  correctionNotFound: () => errors.notFound('correction_not_found', 'correction not found'),
  localeNotFound: () =>
    new AppError(404, 'locale_not_found', 'the content has no live entry in this locale', [
      { path: 'locale', message: 'add the locale to the content first' },
    ]),
  blockNotFound: () => errors.notFound('block_not_found', 'block not found'),
  questionNotFound: () => errors.notFound('question_not_found', 'question not found'),
  /** A content the reader may not read (shared/access.ts): its code is the decision's reason. */
  accessDenied: (reason: 'login_required' | 'subscription_required' | 'meter_exhausted') =>
    errors.forbidden(
      { login_required: 'sign in to read this content', subscription_required: 'a subscription opens this content', meter_exhausted: 'the free contents of this period are used' }[reason],
      reason,
    ),
  invalidChoice: () =>
    errors.badRequest('invalid_choice', 'choice_id is not a choice of this question', [
      { path: 'choice_id', message: 'is not a choice of this question' },
    ]),
  blockKindNotAllowed: (details: ErrorDetail[]) =>
    errors.badRequest('block_kind_not_allowed', "a block kind is not one of the template's block_kinds", details),
  metadataKeyNotAllowed: (details: ErrorDetail[]) =>
    errors.badRequest('metadata_key_not_allowed', "a metadata key is not one of the template's metadata_keys", details),
  templateIncompatible: (details: ErrorDetail[]) =>
    new AppError(
      409,
      'template_incompatible',
      'the new template does not allow some blocks or metadata keys of this content; send drop_incompatible: true to remove them',
      details,
    ),
  invalidPosition: (max: number) =>
    errors.badRequest('invalid_position', `position must be between 0 and ${max}`, [{ path: 'position', message: `must be between 0 and ${max}` }]),
};
