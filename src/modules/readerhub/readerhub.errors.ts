import { AppError, errors } from '../../shared/errors.js';

export const readerhubErrors = {
  readerNotFound: () => errors.notFound('reader'),
  profileNotFound: () => errors.notFound('reader_profile'),
  profileExists: () => errors.conflict('reader_profile_exists', 'the reader already has a profile; change it with PATCH'),
  entitlementNotFound: () => errors.notFound('entitlement'),
  invitationNotFound: () => errors.notFound('invitation'),
  // Still a 404 (an expired invitation is served to no one) with its own code, so that a
  // sign-up screen can say "expired" rather than "unknown link".
  invitationExpired: () => new AppError(404, 'invitation_expired', 'the invitation has expired'),
  favoriteNotFound: () => errors.notFound('favorite'),
};
