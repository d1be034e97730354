import { AppError, errors } from '../../shared/errors.js';

/** Every error the OAuth module answers, with its code written out; bearer errors below. */
export const oauthErrors = {
  // Backoffice records.
  clientNotFound: () => errors.notFound('oauth_client_not_found', 'oauth client not found'),
  providerNotFound: () => errors.notFound('oauth_provider_not_found', 'oauth provider not found'),
  providerExists: () => errors.conflict('oauth_provider_exists', 'a provider with this issuer already exists'),

  // RFC 6749 section 5.2 error codes, carried in the envelope's `code`.
  invalidRequest: (message: string) => new AppError(400, 'invalid_request', message),
  invalidClient: (message = 'client authentication failed') =>
    new AppError(401, 'invalid_client', message, undefined, { 'www-authenticate': 'Basic realm="oauth"' }),
  invalidGrant: (message = 'the grant is invalid, expired, revoked or was issued to another client') =>
    new AppError(400, 'invalid_grant', message),
  unauthorizedClient: (message: string) => new AppError(400, 'unauthorized_client', message),
  unsupportedGrantType: () =>
    new AppError(400, 'unsupported_grant_type', 'grant_type must be authorization_code, client_credentials or refresh_token'),
  invalidScope: (message: string) => new AppError(400, 'invalid_scope', message),
  providerUnavailable: () => new AppError(502, 'provider_unavailable', 'the identity provider could not be reached'),
};

// RFC 6750 bearer token errors.
export const bearerErrors = {
  missing: () =>
    new AppError(401, 'missing_token', 'an Authorization: Bearer token is required', undefined, {
      'www-authenticate': 'Bearer realm="reader"',
    }),
  invalid: (message = 'the access token is invalid, expired or revoked') =>
    new AppError(401, 'invalid_token', message, undefined, {
      'www-authenticate': 'Bearer realm="reader", error="invalid_token"',
    }),
  insufficientScope: (scope: string) =>
    new AppError(403, 'insufficient_scope', `the access token lacks the scope ${scope}`, undefined, {
      'www-authenticate': `Bearer realm="reader", error="insufficient_scope", scope="${scope}"`,
    }),
  readerRequired: () =>
    new AppError(403, 'reader_required', 'this operation needs a signed-in reader, not an application token'),
};
