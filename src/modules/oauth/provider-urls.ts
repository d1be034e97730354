import { BlockList, isIPv4, isIPv6 } from 'node:net';
import { AppError, type ErrorDetail } from '../../shared/errors.js';

// The service itself calls a provider's token, userinfo and JWKS endpoints: one registered
// on a loopback or private address would let a Backoffice key reach the internal network.
const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata services
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128],
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv6');
}

/** The IPv4 address an IPv6 literal carries (mapped, compatible, NAT64, 6to4), if any. */
function embeddedIPv4(address: string): string | undefined {
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (dotted) return dotted[1];
  // The URL parser writes mapped addresses in hex: ::ffff:7f00:1.
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  const sixToFour = /^2002:([0-9a-f]{1,4}):([0-9a-f]{1,4}):/i.exec(address);
  const parts = hex ?? sixToFour;
  if (!parts) return undefined;
  const high = parseInt(parts[1]!, 16);
  const low = parseInt(parts[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

function isPrivateAddress(host: string): boolean {
  if (isIPv4(host)) return PRIVATE.check(host, 'ipv4');
  if (!isIPv6(host)) return false;
  const v4 = embeddedIPv4(host);
  return PRIVATE.check(host, 'ipv6') || (v4 !== undefined && PRIVATE.check(v4, 'ipv4'));
}

/**
 * Why `value` is not a safe identity-provider URL, or undefined when it is: it must be https
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
