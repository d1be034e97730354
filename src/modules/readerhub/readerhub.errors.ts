import { AppError, errors } from '../../shared/errors.js';

/** Every error the readerhub module answers, with its code written out. */
export const readerhubErrors = {
  readerNotFound: () => errors.notFound('reader_not_found', 'reader not found'),
  profileNotFound: () => errors.notFound('reader_profile_not_found', 'reader profile not found'),
  profileExists: () => errors.conflict('reader_profile_exists', 'the reader already has a profile; change it with PATCH'),
  // Unreachable while the profile row is locked around every metadata write; named so that
  // the aggregate has its 409 should that ever change.
  metadataConflict: () => errors.conflict('reader_profile_metadata_conflict', 'a metadata key of this profile was written concurrently'),
  entitlementNotFound: () => errors.notFound('entitlement_not_found', 'entitlement not found'),
  invitationNotFound: () => errors.notFound('invitation_not_found', 'invitation not found'),
  // Still a 404 (an expired invitation is served to no one) with its own code, so that a
  // sign-up screen can say "expired" rather than "unknown link".
  invitationExpired: () => new AppError(404, 'invitation_expired', 'the invitation has expired'),
  favoriteNotFound: () => errors.notFound('favorite_not_found', 'favorite not found'),
  // The aggregates' 409s: adds are idempotent (insertOrFind) and nothing is restored, so
  // neither reaches the wire today.
  favoriteConflict: () => errors.conflict('favorite_exists', 'this record is a favorite already'),
  topicSubscriptionConflict: () => errors.conflict('topic_subscription_exists', 'the reader follows this topic already'),
};
