import { AppError } from '../../shared/errors.js';
import { oauthErrors } from './oauth.errors.js';
import type { OAuthProviderRow } from './oauth.table.js';

const TIMEOUT_MS = 5_000;

export interface ProviderTokens {
  access_token: string;
  token_type: string;
  expires_in: number;
  scope: string;
  refresh_token?: string;
  id_token?: string;
}

// What a caller may learn from a provider's refusal: the RFC 6749 code, never its text.
const PASSED_THROUGH = new Set(['invalid_grant', 'invalid_request', 'invalid_scope', 'unsupported_grant_type']);

/** POSTs a token request to the provider's token endpoint, authenticating as this service. */
export async function requestProviderTokens(
  provider: OAuthProviderRow,
  params: Record<string, string>,
): Promise<ProviderTokens> {
  const form = new URLSearchParams(params);
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  if (provider.tokenEndpointAuthMethod === 'client_secret_post') {
    form.set('client_id', provider.clientId);
    form.set('client_secret', provider.clientSecret);
  } else {
    // RFC 6749 2.3.1: each part form-encoded before base64.
    const user = encodeURIComponent(provider.clientId);
    const pass = encodeURIComponent(provider.clientSecret);
    headers.authorization = `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
  }

  let res: Response;
  let body: Record<string, unknown>;
  try {
    res = await fetch(provider.tokenEndpoint, {
      method: 'POST',
      headers,
      body: form,
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const parsed: unknown = await res.json();
    // A provider that answers anything but a JSON object is not speaking OAuth.
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw oauthErrors.providerUnavailable();
    body = parsed as Record<string, unknown>;
  } catch {
    throw oauthErrors.providerUnavailable();
  }
  if (!res.ok) {
    const code = typeof body.error === 'string' ? body.error : '';
    if (PASSED_THROUGH.has(code)) {
      throw new AppError(400, code, `the identity provider refused the request (${code})`);
    }
    if (code === 'invalid_client' || code === 'unauthorized_client') {
      throw oauthErrors.invalidClient('the identity provider refused this client');
    }
    throw oauthErrors.providerUnavailable();
  }
  if (typeof body.access_token !== 'string' || body.access_token === '') throw oauthErrors.providerUnavailable();
  return {
    access_token: body.access_token,
    token_type: 'Bearer',
    expires_in: typeof body.expires_in === 'number' ? Math.trunc(body.expires_in) : 0,
    scope: typeof body.scope === 'string' ? body.scope : '',
    ...(typeof body.refresh_token === 'string' && { refresh_token: body.refresh_token }),
    ...(typeof body.id_token === 'string' && { id_token: body.id_token }),
  };
}

export interface UserInfo {
  sub: string;
  email?: string | undefined;
  emailVerified?: boolean | undefined;
  name?: string | undefined;
}

/** Asks the provider who an opaque token belongs to; undefined when it refuses the token. */
export async function fetchUserInfo(endpoint: string, token: string): Promise<UserInfo | undefined> {
  let res: Response;
  try {
    res = await fetch(endpoint, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    return undefined;
  }
  if (!res.ok) return undefined;
  const body = (await res.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  if (!body || typeof body.sub !== 'string' || body.sub === '') return undefined;
  return {
    sub: body.sub,
    email: typeof body.email === 'string' ? body.email : undefined,
    emailVerified: body.email_verified === true,
    name: typeof body.name === 'string' ? body.name : undefined,
  };
}
