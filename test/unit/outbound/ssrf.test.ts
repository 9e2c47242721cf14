import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyAddress, isAllowedTarget, type AddressKind } from '../../../shared/outbound/ssrf';

const octet = fc.integer({ min: 0, max: 255 });
const v4 = (a: number, b: number, c: number, d: number) => `${a}.${b}.${c}.${d}`;

describe('SSRF address classification', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fc00::1', 'private'],
    ['fd00:ec2::254', 'private'],
    ['169.254.169.254', 'link_local'],
    ['fe80::1', 'link_local'],
    ['0.0.0.0', 'reserved'],
    ['::', 'reserved'],
    ['224.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['8.8.8.8', 'public'],
    ['172.32.0.1', 'public'],
    ['1.1.1.1', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['not-an-ip', 'invalid'],
  ])('classifies %s as %s', (ip, kind) => {
    expect(classifyAddress(ip)).toBe(kind);
  });

  it('sees through IPv4-mapped and NAT64 forms of any IPv4 address', () => {
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

  // IANA special-purpose registries, each range by its first and last address and the addresses just outside.
  it.each<[string, AddressKind, string[], [string, AddressKind][]]>([
    ['0.0.0.0/8', 'reserved', ['0.0.0.0', '0.255.255.255'], [['1.0.0.0', 'public']]],
    [
      '10.0.0.0/8',
      'private',
      ['10.0.0.0', '10.255.255.255'],
      [
        ['9.255.255.255', 'public'],
        ['11.0.0.0', 'public'],
      ],
    ],
    [
      '100.64.0.0/10',
      'private',
      ['100.64.0.0', '100.127.255.255'],
      [
        ['100.63.255.255', 'public'],
        ['100.128.0.0', 'public'],
      ],
    ],
    [
      '127.0.0.0/8',
      'loopback',
      ['127.0.0.0', '127.255.255.255'],
      [
        ['126.255.255.255', 'public'],
        ['128.0.0.0', 'public'],
      ],
    ],
    [
      '169.254.0.0/16',
      'link_local',
      ['169.254.0.0', '169.254.255.255'],
      [
        ['169.253.255.255', 'public'],
        ['169.255.0.0', 'public'],
      ],
    ],
    [
      '172.16.0.0/12',
      'private',
      ['172.16.0.0', '172.31.255.255'],
      [
        ['172.15.255.255', 'public'],
        ['172.32.0.0', 'public'],
      ],
    ],
    [
      '192.0.0.0/24',
      'reserved',
      ['192.0.0.0', '192.0.0.8', '192.0.0.170', '192.0.0.255'],
      [
        ['191.255.255.255', 'public'],
        ['192.0.1.0', 'public'],
      ],
    ],
    [
      '192.0.2.0/24',
      'reserved',
      ['192.0.2.0', '192.0.2.255'],
      [
        ['192.0.1.255', 'public'],
        ['192.0.3.0', 'public'],
      ],
    ],
    [
      '192.88.99.0/24',
      'reserved',
      ['192.88.99.0', '192.88.99.255'],
      [
        ['192.88.98.255', 'public'],
        ['192.88.100.0', 'public'],
      ],
    ],
    [
      '192.168.0.0/16',
      'private',
      ['192.168.0.0', '192.168.255.255'],
      [
        ['192.167.255.255', 'public'],
        ['192.169.0.0', 'public'],
      ],
    ],
    [
      '198.18.0.0/15',
      'reserved',
      ['198.18.0.0', '198.19.255.255'],
      [
        ['198.17.255.255', 'public'],
        ['198.20.0.0', 'public'],
      ],
    ],
    [
      '198.51.100.0/24',
      'reserved',
      ['198.51.100.0', '198.51.100.255'],
      [
        ['198.51.99.255', 'public'],
        ['198.51.101.0', 'public'],
      ],
    ],
    [
      '203.0.113.0/24',
      'reserved',
      ['203.0.113.0', '203.0.113.255'],
      [
        ['203.0.112.255', 'public'],
        ['203.0.114.0', 'public'],
      ],
    ],
    ['224.0.0.0/4', 'reserved', ['224.0.0.0', '239.255.255.255'], [['223.255.255.255', 'public']]],
    ['240.0.0.0/4', 'reserved', ['240.0.0.0', '255.255.255.255'], [['239.255.255.255', 'reserved']]],
    ['::/128', 'reserved', ['::'], [['::1', 'loopback']]],
    [
      '::1/128',
      'loopback',
      ['::1'],
      [
        ['::', 'reserved'],
        ['::2', 'reserved'],
      ],
    ],
    ['::/8', 'reserved', ['::1:0:0:0', 'ff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'], [['100::', 'reserved']]],
    [
      '100::/64',
      'reserved',
      ['100::', '100::ffff:ffff:ffff:ffff'],
      [
        ['ff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
        ['100:0:0:1::', 'reserved'],
      ],
    ],
    ['100:0:0:1::/64', 'reserved', ['100:0:0:1::', '100:0:0:1:ffff:ffff:ffff:ffff'], [['100:0:0:2::', 'public']]],
    [
      '2001::/23',
      'reserved',
      ['2001::', '2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff'],
      [
        ['2000:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'public'],
        ['2001:200::', 'public'],
      ],
    ],
    [
      '2001:1::1/128',
      'public',
      ['2001:1::1', '2001:1::2', '2001:1::3'],
      [
        ['2001:1::', 'reserved'],
        ['2001:1::4', 'reserved'],
      ],
    ],
    ['2001:2::/48', 'reserved', ['2001:2::', '2001:2:0:ffff:ffff:ffff:ffff:ffff'], [['2001:2:1::', 'reserved']]],
    [
      '2001:3::/32',
      'public',
      ['2001:3::', '2001:3:ffff:ffff:ffff:ffff:ffff:ffff'],
      [
        ['2001:2:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
        ['2001:4::', 'reserved'],
      ],
    ],
    [
      '2001:4:112::/48',
      'public',
      ['2001:4:112::', '2001:4:112:ffff:ffff:ffff:ffff:ffff'],
      [
        ['2001:4:111:ffff:ffff:ffff:ffff:ffff', 'reserved'],
        ['2001:4:113::', 'reserved'],
      ],
    ],
    [
      '2001:20::/28',
      'public',
      ['2001:20::', '2001:2f:ffff:ffff:ffff:ffff:ffff:ffff'],
      [['2001:1f:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved']],
    ],
    ['2001:30::/28', 'public', ['2001:30::', '2001:3f:ffff:ffff:ffff:ffff:ffff:ffff'], [['2001:40::', 'reserved']]],
    [
      '2001:db8::/32',
      'reserved',
      ['2001:db8::', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff'],
      [
        ['2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', 'public'],
        ['2001:db9::', 'public'],
      ],
    ],
    [
      '3fff::/20',
      'reserved',
      ['3fff::', '3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff'],
      [
        ['3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'public'],
        ['3fff:1000::', 'public'],
      ],
    ],
    [
      '5f00::/16',
      'reserved',
      ['5f00::', '5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
      [
        ['5eff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'public'],
        ['5f01::', 'public'],
      ],
    ],
    [
      'fc00::/7',
      'private',
      ['fc00::', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
      [
        ['fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'public'],
        ['fe00::', 'public'],
      ],
    ],
    [
      'fe80::/10',
      'link_local',
      ['fe80::', 'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
      [
        ['fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'public'],
        ['fec0::', 'private'],
      ],
    ],
    ['fec0::/10', 'private', ['fec0::', 'feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'], [['ff00::', 'reserved']]],
    [
      'ff00::/8',
      'reserved',
      ['ff00::', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
      [['feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'private']],
    ],
  ])('classifies %s as %s, up to its boundaries', (_range, kind, inside, outside) => {
    for (const ip of inside) expect(classifyAddress(ip), ip).toBe(kind);
    for (const [ip, neighbour] of outside) expect(classifyAddress(ip), ip).toBe(neighbour);
  });

  const hex32 = (ip: string) => {
    const [a, b, c, d] = ip.split('.').map(Number) as [number, number, number, number];
    return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  };
  const teredoClient = (ip: string) =>
    hex32(
      ip
        .split('.')
        .map((o) => 255 - Number(o))
        .join('.'),
    );

  // A transition form is as forbidden as the IPv4 address it embeds; with a public one it is judged by its own range.
  it.each<[string, (ip: string) => string, AddressKind]>([
    ['IPv4-mapped ::ffff:0:0/96', (ip) => `::ffff:${ip}`, 'public'],
    ['IPv4-mapped, hex groups', (ip) => `::ffff:${hex32(ip)}`, 'public'],
    ['IPv4-mapped, full form', (ip) => `0:0:0:0:0:FFFF:${ip}`, 'public'],
    ['IPv4-translated ::ffff:0:0:0/96', (ip) => `::ffff:0:${ip}`, 'reserved'],
    ['IPv4-compatible ::/96', (ip) => `::${ip}`, 'reserved'],
    ['NAT64 64:ff9b::/96', (ip) => `64:ff9b::${ip}`, 'public'],
    ['local-use NAT64 64:ff9b:1::/48', (ip) => `64:ff9b:1::${hex32(ip)}`, 'private'],
    ['6to4 2002::/16', (ip) => `2002:${hex32(ip)}::1`, 'public'],
    ['Teredo server', (ip) => `2001:0:${hex32(ip)}:0:0:${teredoClient('8.8.8.8')}`, 'reserved'],
    ['Teredo obfuscated client', (ip) => `2001:0:${hex32('8.8.8.8')}:8000:ffff:${teredoClient(ip)}`, 'reserved'],
    ['ISATAP ::0:5efe', (ip) => `2606:4700::5efe:${ip}`, 'public'],
    ['ISATAP ::200:5efe', (ip) => `2606:4700::200:5efe:${ip}`, 'public'],
  ])('judges %s by its embedded IPv4 address', (_form, embed, ownKind) => {
    for (const [ip, kind] of [
      ['127.0.0.1', 'loopback'],
      ['10.1.2.3', 'private'],
      ['100.64.0.1', 'private'],
      ['169.254.169.254', 'link_local'],
      ['192.0.0.170', 'reserved'],
      ['240.0.0.1', 'reserved'],
    ] as const) {
      expect(classifyAddress(embed(ip)), embed(ip)).toBe(kind);
    }
    expect(classifyAddress(embed('8.8.8.8')), embed('8.8.8.8')).toBe(ownKind);
  });

  it.each([
    ['fe80::1%eth0', 'link_local'],
    ['::ffff:127.0.0.1%1', 'loopback'],
    ['0000:0000:0000:0000:0000:0000:0000:0001', 'loopback'],
    ['::FFFF:7F00:1', 'loopback'],
    ['2606:4700:4700:0:0:0:0:1111', 'public'],
    ['0x7f.1', 'loopback'],
    ['2130706433', 'loopback'],
    ['0177.0.0.1', 'loopback'],
    ['10.1', 'private'],
    ['0xa9fea9fe', 'link_local'],
    ['', 'invalid'],
    ['1.2.3.4.5', 'invalid'],
    ['fe80::1::2', 'invalid'],
    ['::ffff:1.2.3', 'invalid'],
    ['localhost', 'invalid'],
    ['a.b', 'invalid'],
  ])('parses %j as %s', (ip, kind) => {
    expect(classifyAddress(ip)).toBe(kind);
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
