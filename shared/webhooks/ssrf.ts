import { BlockList, isIP } from 'node:net';

/** What kind of network an address belongs to; only `public` is a valid webhook target in AWS. */
export type AddressKind = 'public' | 'loopback' | 'private' | 'link_local' | 'reserved' | 'invalid';

const ranges = (kind: Exclude<AddressKind, 'public' | 'invalid'>, list: [string, number, 'ipv4' | 'ipv6'][]) => {
  const block = new BlockList();
  for (const [net, prefix, type] of list) block.addSubnet(net, prefix, type);
  return { kind, block };
};

const TABLE = [
  ranges('loopback', [['127.0.0.0', 8, 'ipv4'], ['::1', 128, 'ipv6']]),
  ranges('private', [
    ['10.0.0.0', 8, 'ipv4'], ['172.16.0.0', 12, 'ipv4'], ['192.168.0.0', 16, 'ipv4'], ['100.64.0.0', 10, 'ipv4'],
    ['fc00::', 7, 'ipv6'],
  ]),
  // Link-local covers the cloud metadata endpoints (169.254.169.254, fd00:ec2::254 is in fc00::/7 above).
  ranges('link_local', [['169.254.0.0', 16, 'ipv4'], ['fe80::', 10, 'ipv6']]),
  ranges('reserved', [
    ['0.0.0.0', 8, 'ipv4'], ['192.0.0.0', 24, 'ipv4'], ['192.0.2.0', 24, 'ipv4'], ['198.18.0.0', 15, 'ipv4'],
    ['198.51.100.0', 24, 'ipv4'], ['203.0.113.0', 24, 'ipv4'], ['224.0.0.0', 4, 'ipv4'], ['240.0.0.0', 4, 'ipv4'],
    ['::', 128, 'ipv6'], ['100::', 64, 'ipv6'], ['2001:db8::', 32, 'ipv6'], ['ff00::', 8, 'ipv6'],
  ]),
];

/** The eight 16-bit groups of an IPv6 address (with any embedded dotted IPv4 tail expanded). */
const hextets = (ip: string): number[] => {
  let text = ip.toLowerCase().split('%')[0]!;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = text.slice(0, -dotted[1]!.length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (s: string) => (s ? s.split(':').map((h) => parseInt(h, 16)) : []);
  const left = parse(head);
  const right = parse(tail ?? '');
  return tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill(0), ...right];
};

/** IPv4 carried inside IPv6 (mapped ::ffff:0:0/96, compatible ::/96, NAT64 64:ff9b::/96), if any. */
const embeddedIpv4 = (ip: string): string | undefined => {
  const h = hextets(ip);
  const low = `${h[6]! >> 8}.${h[6]! & 255}.${h[7]! >> 8}.${h[7]! & 255}`;
  const zeros = (n: number) => h.slice(0, n).every((x) => x === 0);
  if (zeros(5) && h[5] === 0xffff) return low;
  if (h[0] === 0x64 && h[1] === 0xff9b && h.slice(2, 6).every((x) => x === 0)) return low;
  if (zeros(6) && (h[6] !== 0 || h[7]! > 1)) return low;
  return undefined;
};

export const classifyAddress = (ip: string): AddressKind => {
  const family = isIP(ip);
  if (family === 0) return 'invalid';
  if (family === 6) {
    const v4 = embeddedIpv4(ip);
    if (v4) return classifyAddress(v4);
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  return TABLE.find((r) => r.block.check(ip, type))?.kind ?? 'public';
};

/** Public addresses always; loopback only behind the explicit local-only setting. */
export const isAllowedTarget = (kind: AddressKind, allowLoopback: boolean): boolean =>
  kind === 'public' || (allowLoopback && kind === 'loopback');
