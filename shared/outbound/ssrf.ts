import { isIP } from 'node:net';

/** What kind of network an address belongs to; only `public` is a valid outbound target in AWS. */
export type AddressKind = 'public' | 'loopback' | 'private' | 'link_local' | 'reserved' | 'invalid';

type Family = 4 | 6;
const BITS: Record<Family, bigint> = { 4: 32n, 6: 128n };

interface Address {
  family: Family;
  value: bigint;
}

const ipv4Value = (text: string): bigint => text.split('.').reduce((acc, octet) => (acc << 8n) | BigInt(octet), 0n);

/** The 128-bit value of a valid IPv6 literal without zone: `::` expanded, a dotted IPv4 tail as its two groups. */
const ipv6Value = (text: string): bigint => {
  const groups = (part: string) =>
    part
      ? part
          .split(':')
          .flatMap((g) => (g.includes('.') ? [Number(ipv4Value(g) >> 16n), Number(ipv4Value(g) & 0xffffn)] : [parseInt(g, 16)]))
      : [];
  const [head, tail] = text.split('::') as [string, string | undefined];
  const left = groups(head);
  const right = groups(tail ?? '');
  const all = tail === undefined ? left : [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  return all.reduce((acc, g) => (acc << 16n) | BigInt(g), 0n);
};

/** Shorthand and numeric IPv4 forms (`0x7f.1`, `2130706433`, `0177.0.0.1`) as the WHATWG URL parser reads them. */
const canonicalIpv4 = (text: string): string | undefined => {
  if (!/^[0-9a-fA-FxX.]+$/.test(text) || !URL.canParse(`http://${text}/`)) return undefined;
  const host = new URL(`http://${text}/`).hostname;
  return isIP(host) === 4 ? host : undefined;
};

/** Any textual form: IPv4 (dotted or odd numeric forms), IPv6 (any compression, embedded dotted quad, zone id). */
const parse = (text: string): Address | undefined => {
  const bare = text.includes(':') ? text.replace(/%.*$/, '') : text;
  const family = isIP(bare);
  if (family === 6) return { family, value: ipv6Value(bare) };
  const v4 = family === 4 ? bare : canonicalIpv4(bare);
  return v4 ? { family: 4, value: ipv4Value(v4) } : undefined;
};

/** IPv4 addresses an IPv6 address carries, each as a 32-bit value. */
type Embeds = (value: bigint) => bigint[];
const low32: Embeds = (v) => [v & 0xffffffffn];

interface Rule {
  family: Family;
  net: bigint;
  prefix: bigint;
  kind: Exclude<AddressKind, 'invalid'>;
  embeds?: Embeds;
}

const rule = (cidr: string, kind: Rule['kind'], embeds?: Embeds): Rule => {
  const [net, prefix] = cidr.split('/') as [string, string];
  const { family, value } = parse(net)!;
  return { family, net: value, prefix: BigInt(prefix), kind, embeds };
};

const contains = (r: Rule, a: Address) =>
  r.family === a.family && a.value >> (BITS[a.family] - r.prefix) === r.net >> (BITS[a.family] - r.prefix);

/**
 * The IANA IPv4 and IPv6 Special-Purpose Address Registries: every entry that is not globally reachable,
 * plus multicast and the reserved blocks. The most specific matching rule decides, so the globally
 * reachable exceptions inside 2001::/23 are listed as `public`. A transition form is judged by the IPv4
 * address it embeds first (any non-public one decides), then by its own rule. Parsed at the first check, not at
 * import: the parse compiles node's IPv6 matcher, several ms of a cold start for routes that check no address then.
 */
const specialPurposeRules = (): Rule[] =>
  [
    rule('0.0.0.0/8', 'reserved'), // "this network"
    rule('10.0.0.0/8', 'private'),
    rule('100.64.0.0/10', 'private'), // shared address space (carrier-grade NAT)
    rule('127.0.0.0/8', 'loopback'),
    rule('169.254.0.0/16', 'link_local'), // also the cloud metadata endpoint 169.254.169.254
    rule('172.16.0.0/12', 'private'),
    rule('192.0.0.0/24', 'reserved'), // IETF protocol assignments (DS-Lite, NAT64 discovery, PCP/TURN anycast…)
    rule('192.0.2.0/24', 'reserved'), // documentation
    rule('192.88.99.0/24', 'reserved'), // 6to4 relay anycast (deprecated)
    rule('192.168.0.0/16', 'private'),
    rule('198.18.0.0/15', 'reserved'), // benchmarking
    rule('198.51.100.0/24', 'reserved'), // documentation
    rule('203.0.113.0/24', 'reserved'), // documentation
    rule('224.0.0.0/4', 'reserved'), // multicast
    rule('240.0.0.0/4', 'reserved'), // reserved, and the limited broadcast 255.255.255.255

    rule('::/128', 'reserved'), // unspecified
    rule('::1/128', 'loopback'),
    rule('::ffff:0:0/96', 'public', low32), // IPv4-mapped: exactly the IPv4 address
    rule('::ffff:0:0:0/96', 'reserved', low32), // IPv4-translated (SIIT)
    rule('::/96', 'reserved', low32), // IPv4-compatible (deprecated)
    rule('::/8', 'reserved'), // reserved by the IETF
    rule('64:ff9b::/96', 'public', low32), // NAT64 well-known prefix: exactly the IPv4 address
    rule('64:ff9b:1::/48', 'private', low32), // local-use IPv4/IPv6 translation
    rule('100::/64', 'reserved'), // discard-only
    rule('100:0:0:1::/64', 'reserved'), // dummy prefix
    rule('2001::/32', 'reserved', (v) => [(v >> 64n) & 0xffffffffn, ~v & 0xffffffffn]), // Teredo: server, obfuscated client
    rule('2001:1::1/128', 'public'), // PCP anycast
    rule('2001:1::2/128', 'public'), // TURN anycast
    rule('2001:1::3/128', 'public'), // DNS-SD service registration anycast
    rule('2001:3::/32', 'public'), // AMT
    rule('2001:4:112::/48', 'public'), // AS112-v6
    rule('2001:20::/28', 'public'), // ORCHIDv2
    rule('2001:30::/28', 'public'), // drone remote ID
    rule('2001:2::/48', 'reserved'), // benchmarking
    rule('2001:db8::/32', 'reserved'), // documentation
    rule('2001::/23', 'reserved'), // IETF protocol assignments
    rule('2002::/16', 'public', (v) => [(v >> 80n) & 0xffffffffn]), // 6to4
    rule('3fff::/20', 'reserved'), // documentation
    rule('5f00::/16', 'reserved'), // segment routing SIDs
    rule('fc00::/7', 'private'), // unique local, e.g. the EC2 metadata endpoint fd00:ec2::254
    rule('fe80::/10', 'link_local'),
    rule('fec0::/10', 'private'), // site-local (deprecated)
    rule('ff00::/8', 'reserved'), // multicast
  ].sort((a, b) => Number(b.prefix - a.prefix));
let rules: Rule[] | undefined;

/** ISATAP interface identifiers (`…:0:5efe:a.b.c.d`, `…:200:5efe:a.b.c.d`, either u/g bit) carry an IPv4 address under any prefix. */
const isatap: Embeds = (v) => (((v >> 32n) & 0xfcffffffn) === 0x5efen ? low32(v) : []);

const classify = (a: Address): Exclude<AddressKind, 'invalid'> => {
  rules ??= specialPurposeRules();
  const match = rules.find((r) => contains(r, a));
  if (a.family === 6) {
    for (const v4 of [...(match?.embeds?.(a.value) ?? []), ...isatap(a.value)]) {
      const kind = classify({ family: 4, value: v4 });
      if (kind !== 'public') return kind;
    }
  }
  return match?.kind ?? 'public';
};

export const classifyAddress = (ip: string): AddressKind => {
  const address = parse(ip);
  return address ? classify(address) : 'invalid';
};

/** Public addresses always; loopback only behind the explicit local-only setting. */
export const isAllowedTarget = (kind: AddressKind, allowLoopback: boolean): boolean =>
  kind === 'public' || (allowLoopback && kind === 'loopback');
