import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyAddress, isAllowedTarget } from '../../../shared/webhooks/ssrf';

const octet = fc.integer({ min: 0, max: 255 });
const v4 = (a: number, b: number, c: number, d: number) => `${a}.${b}.${c}.${d}`;

describe('SSRF address classification', () => {
  it.each([
    ['127.0.0.1', 'loopback'], ['127.255.0.9', 'loopback'], ['::1', 'loopback'],
    ['10.0.0.1', 'private'], ['172.16.0.1', 'private'], ['172.31.255.255', 'private'], ['192.168.0.1', 'private'], ['100.64.0.1', 'private'],
    ['fc00::1', 'private'], ['fd00:ec2::254', 'private'],
    ['169.254.169.254', 'link_local'], ['fe80::1', 'link_local'],
    ['0.0.0.0', 'reserved'], ['::', 'reserved'], ['224.0.0.1', 'reserved'], ['255.255.255.255', 'reserved'], ['2001:db8::1', 'reserved'],
    ['8.8.8.8', 'public'], ['172.32.0.1', 'public'], ['1.1.1.1', 'public'], ['2606:4700:4700::1111', 'public'],
    ['not-an-ip', 'invalid'],
  ])('classifies %s as %s', (ip, kind) => {
    expect(classifyAddress(ip)).toBe(kind);
  });

  it('sees through IPv4-mapped, IPv4-compatible and NAT64 IPv6 forms', () => {
    fc.assert(
      fc.property(octet, octet, octet, octet, (a, b, c, d) => {
        const ip = v4(a, b, c, d);
        const hex = `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
        const kind = classifyAddress(ip);
        expect(classifyAddress(`::ffff:${ip}`)).toBe(kind);
        expect(classifyAddress(`::ffff:${hex}`)).toBe(kind);
        expect(classifyAddress(`64:ff9b::${hex}`)).toBe(kind);
      }),
    );
  });

  it('classifies every 10/8, 192.168/16 and 127/8 address as non-public', () => {
    fc.assert(
      fc.property(octet, octet, octet, (b, c, d) => {
        expect(classifyAddress(v4(10, b, c, d))).toBe('private');
        expect(classifyAddress(v4(192, 168, c, d))).toBe('private');
        expect(classifyAddress(v4(127, b, c, d))).toBe('loopback');
        expect(classifyAddress(v4(169, 254, c, d))).toBe('link_local');
      }),
    );
  });

  it('allows public targets always and loopback only behind the local-only setting', () => {
    expect(isAllowedTarget('public', false)).toBe(true);
    expect(isAllowedTarget('loopback', false)).toBe(false);
    expect(isAllowedTarget('loopback', true)).toBe(true);
    for (const kind of ['private', 'link_local', 'reserved', 'invalid'] as const) expect(isAllowedTarget(kind, true)).toBe(false);
  });
});
