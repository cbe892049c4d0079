/**
 * Which IP addresses a managed target may have: public unicast addresses only. A target URL is
 * chosen by whoever holds a Read-and-write key, and the service POSTs to it from inside its own
 * network, so loopback, private, link-local (cloud metadata services), multicast, unspecified,
 * shared (carrier-grade NAT), documentation, benchmarking and other reserved addresses would let
 * that key reach what only the server can (server-side request forgery).
 *
 * The ranges are ipaddr.js's tables of the IANA special-purpose registries. IPv4-mapped IPv6
 * addresses (`::ffff:127.0.0.1`) and NAT64 addresses (`64:ff9b::/96`) are judged by the IPv4
 * address they carry; IPv6 outside the global unicast block `2000::/3` (the deprecated
 * IPv4-compatible `::a.b.c.d` among them), 6to4 and Teredo tunnels are refused.
 * @module
 */
import ipaddr from 'ipaddr.js';

/** How each non-public range is named in messages. */
const RANGE_NAMES: Readonly<Record<string, string>> = {
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'shared (carrier-grade NAT)',
  private: 'private',
  reserved: 'reserved',
  uniqueLocal: 'unique local',
  deprecatedSiteLocal: 'site-local',
  discard: 'discard-only',
  rfc6145: 'IPv4-translated',
  rfc6052: 'NAT64 local-use',
  '6to4': '6to4 tunnel',
  teredo: 'Teredo tunnel',
  benchmarking: 'benchmarking',
};

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96') as [ipaddr.IPv6, number];

function ipv4Class(address: ipaddr.IPv4): string | undefined {
  const range = address.range();
  return range === 'unicast' ? undefined : (RANGE_NAMES[range] ?? 'special-purpose');
}

function ipv6Class(address: ipaddr.IPv6): string | undefined {
  if (address.isIPv4MappedAddress()) {
    const inner = ipv4Class(address.toIPv4Address());
    return inner === undefined ? undefined : `IPv4-mapped ${inner}`;
  }
  if (address.match(NAT64_WELL_KNOWN)) {
    const bytes = address.toByteArray().slice(12);
    const inner = ipv4Class(new ipaddr.IPv4(bytes));
    return inner === undefined ? undefined : `NAT64 ${inner}`;
  }
  const range = address.range();
  if (range !== 'unicast') return RANGE_NAMES[range] ?? 'special-purpose';
  return address.match(GLOBAL_UNICAST_V6) ? undefined : 'reserved';
}

/**
 * The class of `address` (an IPv4 or IPv6 address as text, IPv6 without brackets) when it is not
 * a public unicast address, for example `loopback`, `private`, `link-local`, `IPv4-mapped
 * loopback`; `undefined` when it is public. Text that is not an IP address is `not an IP address`.
 */
export function nonPublicAddressClass(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  const parsed = ipaddr.parse(address);
  return parsed.kind() === 'ipv4' ? ipv4Class(parsed as ipaddr.IPv4) : ipv6Class(parsed as ipaddr.IPv6);
}

/** `host` without the brackets of an IPv6 literal (`[::1]` → `::1`). */
export function unbracketed(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}
