import { isPrivateAddress } from '../../shared/addresses.js';
import { AppError, type ErrorDetail } from '../../shared/errors.js';

/**
 * The service itself calls a provider's endpoints, so they must not point inward. Why `value` is not a safe identity-provider URL, or undefined when it is: it must be https
 * and name a public host. IP literals are checked by address (the URL parser has already
 * turned `http://2130706433/` into 127.0.0.1); names only against localhost, since resolving
 * them here would not stop a name that resolves differently later.
 */
export function unsafeProviderUrl(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be a URL';
  }
  if (url.protocol !== 'https:') return 'must be an https URL';
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return 'must not point at localhost';
  if (isPrivateAddress(host)) return 'must not point at a loopback, private or link-local address';
  return undefined;
}

const URL_FIELDS = ['authorization_endpoint', 'token_endpoint', 'userinfo_endpoint', 'jwks_uri'] as const;

type ProviderUrls = { issuer: string } & { [K in (typeof URL_FIELDS)[number]]?: string | null | undefined };

/** 400 `insecure_provider_url` naming each unsafe field; the issuer is checked when it is an http(s) URL. */
export function checkProviderUrls(input: ProviderUrls): void {
  const details: ErrorDetail[] = [];
  // An issuer is an identifier that need not be a URL; when it is one, the same rule applies.
  if (/^https?:/i.test(input.issuer)) {
    const reason = unsafeProviderUrl(input.issuer);
    if (reason) details.push({ path: 'issuer', message: reason });
  }
  for (const field of URL_FIELDS) {
    const value = input[field];
    if (!value) continue;
    const reason = unsafeProviderUrl(value);
    if (reason) details.push({ path: field, message: reason });
  }
  if (details.length > 0) {
    const first = details[0]!;
    throw new AppError(400, 'insecure_provider_url', `${first.path} ${first.message}`, details);
  }
}
