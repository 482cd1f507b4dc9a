import { describe, expect, it } from '@jest/globals';
import { ipBucket } from './auth-rate-limits.js';
import { clientIp } from './client-ip.js';

describe('clientIp', () => {
  it('ignores X-Forwarded-For when no proxy is trusted', () => {
    expect(clientIp('10.0.0.5', '203.0.113.7', 0)).toBe('10.0.0.5');
  });

  it('takes the address the trusted proxies vouch for, counted from the right', () => {
    expect(clientIp('10.0.0.5', '203.0.113.7', 1)).toBe('203.0.113.7');
    // A client that sends its own header cannot choose its address: only the right-most entries count.
    expect(clientIp('10.0.0.5', '1.1.1.1, 203.0.113.7', 1)).toBe('203.0.113.7');
    expect(clientIp('10.0.0.5', '1.1.1.1, 203.0.113.7, 10.0.0.9', 2)).toBe('203.0.113.7');
    expect(clientIp('10.0.0.5', ['1.1.1.1', '203.0.113.7'], 1)).toBe('203.0.113.7');
  });

  it('stops at the left end when there are fewer entries than trusted hops', () => {
    expect(clientIp('10.0.0.5', '203.0.113.7', 5)).toBe('203.0.113.7');
  });

  it('falls back to the peer for a missing or garbled header', () => {
    expect(clientIp('10.0.0.5', undefined, 1)).toBe('10.0.0.5');
    expect(clientIp('10.0.0.5', 'not-an-ip', 1)).toBe('10.0.0.5');
  });

  it('unwraps IPv4-mapped IPv6 peers and lower-cases IPv6', () => {
    expect(clientIp('::ffff:192.0.2.1', undefined, 0)).toBe('192.0.2.1');
    expect(clientIp('2001:DB8::1', undefined, 0)).toBe('2001:db8::1');
    expect(clientIp(undefined, undefined, 0)).toBe('unknown');
  });
});

describe('ipBucket', () => {
  it('counts IPv4 per address and IPv6 per /64', () => {
    expect(ipBucket('192.0.2.1')).toBe('192.0.2.1');
    expect(ipBucket('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(ipBucket('2001:db8:1:2::99')).toBe('2001:db8:1:2::/64');
    expect(ipBucket('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(ipBucket('::1')).toBe('0:0:0:0::/64');
  });
});
