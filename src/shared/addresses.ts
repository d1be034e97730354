import { BlockList, isIPv4, isIPv6 } from 'node:net';

/**
 * Addresses the service must not call on a client's say-so (identity providers, webhook
 * targets): one on a loopback or private address would let a key reach the internal network.
 */
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

/** Whether an IP address (v4 or v6, possibly carrying a v4 one) is loopback, private, link-local, unique-local or otherwise not public. */
export function isPrivateAddress(host: string): boolean {
  if (isIPv4(host)) return PRIVATE.check(host, 'ipv4');
  if (!isIPv6(host)) return false;
  const v4 = embeddedIPv4(host);
  return PRIVATE.check(host, 'ipv6') || (v4 !== undefined && PRIVATE.check(v4, 'ipv4'));
}
