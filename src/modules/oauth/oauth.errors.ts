import { AppError, type ErrorEnvelope, errors } from '../../shared/errors.js';

/** Every error the OAuth module answers, with its code written out; bearer errors below. */
export const oauthErrors = {
  // Backoffice records.
  clientNotFound: () => errors.notFound('oauth_client_not_found', 'oauth client not found'),
  providerNotFound: () => errors.notFound('oauth_provider_not_found', 'oauth provider not found'),
  providerExists: () => errors.conflict('oauth_provider_exists', 'a provider with this issuer already exists'),

  // RFC 6749 section 5.2 error codes, carried in the envelope's `code`.
  invalidRequest: (message: string) => new AppError(400, 'invalid_request', message),
  // RFC 6749 5.2: the Basic challenge only when the client tried HTTP Basic; a client that sent
  // its credentials as parameters gets none (a client library would read a challenge, not the error).
  invalidClient: (message = 'client authentication failed', viaBasic = false) =>
    new AppError(401, 'invalid_client', message, undefined, viaBasic ? { 'www-authenticate': 'Basic realm="oauth"' } : undefined),
  invalidGrant: (message = 'the grant is invalid, expired, revoked or was issued to another client') =>
    new AppError(400, 'invalid_grant', message),
  unauthorizedClient: (message: string) => new AppError(400, 'unauthorized_client', message),
  unsupportedGrantType: () =>
    new AppError(400, 'unsupported_grant_type', 'grant_type must be authorization_code, client_credentials or refresh_token'),
  invalidScope: (message: string) => new AppError(400, 'invalid_scope', message),
  providerUnavailable: () => new AppError(502, 'provider_unavailable', 'the identity provider could not be reached'),
};

/** The error codes of RFC 6749 section 5.2; the module's codes of the same name are these. */
export const RFC6749_ERROR_CODES = ['invalid_request', 'invalid_client', 'invalid_grant', 'unauthorized_client', 'unsupported_grant_type', 'invalid_scope'] as const;
const TOKEN_ERROR_CODES = new Set<string>(RFC6749_ERROR_CODES);

const tokenErrorCode = (code: string, status: number) => {
  if (TOKEN_ERROR_CODES.has(code)) return code;
  if (status === 429 || status === 502 || status === 503) return 'temporarily_unavailable';
  return status >= 500 ? 'server_error' : 'invalid_request';
};

/** RFC 6749 allows only printable ASCII but `"` and `\` in error_description. */
const descriptionText = (text: string) =>
  text.replace(/"/g, "'").replace(/\\/g, '/').replace(/[^\x20-\x7e]/g, '?');

/**
 * The token endpoint's errors as RFC 6749 section 5.2 has them, `{error, error_description}`,
 * with the house `code` (and `details`) kept. Errors of no RFC 6749 code map to the nearest one:
 * a malformed request to invalid_request, a refusal for now (429, 502, 503) to
 * temporarily_unavailable, a failure to server_error.
 */
export function toTokenError(envelope: ErrorEnvelope, status: number) {
  return {
    error: tokenErrorCode(envelope.code, status),
    error_description: descriptionText(envelope.error),
    code: envelope.code,
    ...(envelope.details && { details: envelope.details }),
  };
}

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
