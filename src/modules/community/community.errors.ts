import { AppError, type ErrorDetail, errors } from '../../shared/errors.js';

/** Every error the community module answers, with its code written out. */
export const communityErrors = {
  profileTypeNotFound: () => errors.notFound('profile_type_not_found', 'profile type not found'),
  profileTypeInUse: () => errors.conflict('profile_type_in_use', 'live profiles still have this profile type'),
  profileNotFound: () => errors.notFound('profile_not_found', 'profile not found'),
  profileConflict: () => errors.conflict('profile_conflict', 'the write conflicts with an existing record'),
  blockNotFound: () => errors.notFound('block_not_found', 'block not found'),
  eventFull: () => errors.conflict('event_full', 'the event has no place left'),
  registrationClosed: () => errors.conflict('registration_closed', 'registration to this event is closed'),
  invalid: (code: string, message: string, details: ErrorDetail[]) => errors.badRequest(code, message, details),
  referenceNotFound: (code: `${string}_not_found`, message: string, details: ErrorDetail[]) => new AppError(404, code, message, details),
  profileTypeKeyTaken: () => errors.conflict('profile_type_key_taken', 'a profile type with this key already exists'),
};
