import { describe, expect, it } from 'vitest';
import { expandV6, isForbiddenAddress } from '../../src/media/address.js';

describe('media address rules', () => {
  it('refuse loopback, private, link-local, CGNAT, unspecified, reserved and multicast IPv4', () => {
    for (const ip of ['127.0.0.1', '127.255.255.254', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '100.127.255.255', '0.0.0.0', '0.1.2.3', '224.0.0.1', '255.255.255.255', '198.18.0.1']) {
      expect(isForbiddenAddress(ip), ip).toBe(true);
    }
  });
  it('allow public IPv4', () => {
    for (const ip of ['1.1.1.1', '8.8.8.8', '172.32.0.1', '100.128.0.1', '93.184.216.34', '23.1.2.3']) expect(isForbiddenAddress(ip), ip).toBe(false);
  });
  it('refuse IPv6 loopback, unspecified, unique-local, link-local, multicast and mapped forms of forbidden IPv4', () => {
    for (const ip of ['::1', '::', 'fc00::1', 'fd12:3456::1', 'fe80::1', 'fe80::1%eth0', 'febf::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:169.254.169.254', '64:ff9b::7f00:1', '::127.0.0.1', '2002:7f00:1::1', '[::1]']) {
      expect(isForbiddenAddress(ip), ip).toBe(true);
    }
  });
  it('allow public IPv6 and mapped public IPv4', () => {
    for (const ip of ['2606:4700:4700::1111', '2a00:1450:4001::200e', '::ffff:8.8.8.8', '64:ff9b::808:808']) expect(isForbiddenAddress(ip), ip).toBe(false);
  });
  it('refuse anything that is not an address', () => {
    for (const ip of ['', 'localhost', '127.1', '2130706433', '0x7f.0.0.1', '1.2.3', 'fe80::zz']) expect(isForbiddenAddress(ip), ip).toBe(true);
  });
  it('expands IPv6 forms', () => {
    expect(expandV6('::1')).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(expandV6('::ffff:1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]);
    expect(expandV6('1:2:3:4:5:6:7:8:9')).toBeUndefined();
  });
});
