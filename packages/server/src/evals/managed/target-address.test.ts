import { describe, expect, it } from 'vitest';
import { nonPublicAddressClass } from './target-address.js';

// Issue 13 item 2: managed targets must have public addresses. Each class of the IANA
// special-purpose registries, IPv4 and IPv6, IPv4-mapped included.
describe('nonPublicAddressClass', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'], // cloud metadata services
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['100.64.0.1', 'shared (carrier-grade NAT)'],
    ['192.0.0.8', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['198.51.100.7', 'reserved'],
    ['203.0.113.9', 'reserved'],
    ['240.0.0.1', 'reserved'],
  ])('IPv4 %s is %s', (address, name) => {
    expect(nonPublicAddressClass(address)).toBe(name);
  });

  it.each([
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fc00::1', 'unique local'],
    ['fd12:3456::1', 'unique local'],
    ['ff02::1', 'multicast'],
    ['fec0::1', 'site-local'],
    ['100::1', 'discard-only'],
    ['2001:db8::1', 'reserved'],
    ['2001::1', 'Teredo tunnel'],
    ['2002:7f00:1::1', '6to4 tunnel'],
    ['64:ff9b:1::1', 'NAT64 local-use'],
    ['::7f00:1', 'reserved'], // IPv4-compatible ::127.0.0.1 (deprecated), outside 2000::/3
    ['4000::1', 'reserved'], // outside the global unicast block
  ])('IPv6 %s is %s', (address, name) => {
    expect(nonPublicAddressClass(address)).toBe(name);
  });

  it.each([
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback'],
    ['::ffff:10.1.2.3', 'IPv4-mapped private'],
    ['::ffff:169.254.169.254', 'IPv4-mapped link-local'],
    ['::ffff:0.0.0.0', 'IPv4-mapped unspecified'],
    ['64:ff9b::127.0.0.1', 'NAT64 loopback'],
    ['64:ff9b::a00:1', 'NAT64 private'],
  ])('an IPv6 address carrying an IPv4 one, %s, is judged by it: %s', (address, name) => {
    expect(nonPublicAddressClass(address)).toBe(name);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    '172.32.0.1', // just past 172.16.0.0/12
    '100.128.0.1', // just past 100.64.0.0/10
    '2606:4700:4700::1111',
    '2a00:1450:4001::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808', // NAT64 of 8.8.8.8
  ])('%s is public', (address) => {
    expect(nonPublicAddressClass(address)).toBeUndefined();
  });

  it('treats text that is not an IP address as not public', () => {
    expect(nonPublicAddressClass('localhost')).toBe('not an IP address');
    expect(nonPublicAddressClass('')).toBe('not an IP address');
  });
});
