import { AppError, type ErrorDetail, errors } from '../../shared/errors.js';

/** Every error the magazines module answers, with its code written out. */
export const magazinesErrors = {
  issueTypeNotFound: () => errors.notFound('issue_type_not_found', 'issue type not found'),
  issueTypeKeyTaken: () => errors.conflict('issue_type_key_taken', 'an issue type with this key already exists'),
  issueNotFound: () => errors.notFound('issue_not_found', 'issue not found'),
  issueConflict: () => errors.conflict('issue_conflict', 'a live entry with this key already exists in this issue'),
  sectionNotFound: () => errors.notFound('section_not_found', 'section not found'),
  sectionKeyTaken: () => errors.conflict('section_key_taken', 'a live section with this key already exists in this issue'),
  sectionBlockNotFound: () => errors.notFound('section_block_not_found', 'section block not found'),
  sectionContentNotFound: () => errors.notFound('section_content_not_found', 'section content not found'),
  sectionContentTaken: () => errors.conflict('section_content_taken', 'this content is already in this section'),
  /** A referenced record (issue type, workspace, content, asset image) is not in the media: 404 naming where. */
  referenceNotFound: (code: `${string}_not_found`, what: string, details: ErrorDetail[]) =>
    new AppError(404, code, `${what} does not exist in this media`, details),
};
