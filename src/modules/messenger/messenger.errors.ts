import { AppError, errors } from '../../shared/errors.js';

/** Every error the messenger module answers, with its code written out. */
export const messengerErrors = {
  mailingListNotFound: () => errors.notFound('mailing_list_not_found', 'mailing list not found'),
  mailingListReferenceNotFound: () =>
    new AppError(404, 'mailing_list_not_found', 'the mailing list does not exist or is not offered to readers', [
      { path: 'mailing_list_id', message: 'is not a public mailing list of this media' },
    ]),
  subscriptionNotFound: () => errors.notFound('subscription_not_found', 'subscription not found'),
  newsletterNotFound: () => errors.notFound('newsletter_not_found', 'newsletter not found'),
  outboxMessageNotFound: () => errors.notFound('outbox_message_not_found', 'outbox message not found'),
  localeTaken: () => errors.conflict('mailing_list_locale_taken', 'a mailing list entry for this locale already exists'),
  invalidToken: () => errors.badRequest('invalid_token', 'the token is invalid, expired or already used'),
  emailRequired: () =>
    errors.validation('an e-mail address is required', [{ path: 'email', message: 'is required unless a signed-in reader with an e-mail subscribes' }]),
  readerRequired: () => new AppError(403, 'reader_required', "this operation needs a signed-in reader's token"),
  addressRateLimited: () =>
    new AppError(429, 'rate_limited', 'too many subscription requests for this address; retry later', undefined, { 'retry-after': '3600' }),
  mailEventInvalid: (message: string) => errors.unprocessable('invalid_message', message),
  tooManyRecipients: () => errors.validation('at most 10 recipients', [{ path: 'to', message: 'at most 10 recipients' }]),
};
