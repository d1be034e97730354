import { errors } from '../../shared/errors.js';

/** Every error the community module answers, with its code written out. */
export const communityErrors = {
  profileTypeNotFound: () => errors.notFound('profile_type_not_found', 'profile type not found'),
  profileTypeKeyTaken: () => errors.conflict('profile_type_key_taken', 'a profile type with this key already exists'),
};
