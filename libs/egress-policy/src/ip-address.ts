import { isIPv6 } from 'node:net';

/** What an address is, as far as egress is concerned. */
export type AddressClass =
  | 'public'
  | 'loopback'
  | 'private'
  | 'shared'
  | 'link-local'
  | 'metadata'
  | 'multicast'
  | 'unspecified'
  | 'reserved';

export interface ParsedIp {
  /** Canonical text: dotted quad, or RFC 5952 IPv6 as Node prints it. */
  address: string;
  family: 4 | 6;
  bytes: number[];
}

/**
 * Parses an IP literal in every form a URL or a resolver accepts: dotted, decimal (2130706433),
 * octal (0177.0.0.1), hex (0x7f.1) and short (127.1) IPv4, bracketed IPv6 with or without a zone.
 * Returns undefined for anything that is not an IP literal (a host name).
 */
export function parseIp(input: string): ParsedIp | undefined {
  let text = input.trim();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  text = text.replace(/%[^%]*$/, '');
  if (text.includes(':')) {
    if (!isIPv6(text)) return undefined;
    const bytes = ipv6Bytes(text);
    return bytes ? { address: formatIpv6(bytes), family: 6, bytes } : undefined;
  }
  const bytes = ipv4Bytes(text.replace(/\.$/, ''));
  return bytes ? { address: bytes.join('.'), family: 4, bytes } : undefined;
}

/** inet_aton / WHATWG host parsing of IPv4: 1 to 4 parts, each decimal, 0x-hex or 0-octal. */
function ipv4Bytes(text: string): number[] | undefined {
  if (!text) return undefined;
  const parts = text.split('.');
  if (parts.length > 4) return undefined;
  const numbers: number[] = [];
  for (const part of parts) {
    let value: number;
    if (/^0x[0-9a-f]*$/i.test(part)) value = part.length === 2 ? 0 : parseInt(part.slice(2), 16);
    else if (/^0[0-7]+$/.test(part)) value = parseInt(part, 8);
    else if (/^(?:0|[1-9][0-9]*)$/.test(part)) value = Number(part);
    else return undefined;
    if (!Number.isSafeInteger(value)) return undefined;
    numbers.push(value);
  }
  const last = numbers.pop()!;
  if (numbers.some((n) => n > 255)) return undefined;
  const room = 4 - numbers.length;
  if (last >= 256 ** room) return undefined;
  const tail: number[] = [];
  for (let i = room - 1; i >= 0; i--) tail.push(Math.floor(last / 256 ** i) % 256);
  return [...numbers, ...tail];
}

function ipv6Bytes(text: string): number[] | undefined {
  let head = text;
  let v4: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const parsed = dotted[1]!.split('.').map(Number);
    if (parsed.some((n) => n > 255)) return undefined;
    v4 = parsed;
    head = text.slice(0, -dotted[1]!.length);
    if (head.endsWith(':') && !head.endsWith('::')) head = head.slice(0, -1);
  }
  const groupsWanted = 8 - v4.length / 2;
  const [left, right] = head.includes('::') ? head.split('::') : [head, undefined];
  const parse = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const l = parse(left);
  const r = parse(right);
  const fill = right === undefined ? 0 : groupsWanted - l.length - r.length;
  const groups = [...l, ...Array<number>(Math.max(0, fill)).fill(0), ...r];
  if (groups.length !== groupsWanted || groups.some((g) => !(g >= 0 && g <= 0xffff))) return undefined;
  return [...groups.flatMap((g) => [g >> 8, g & 0xff]), ...v4];
}

function formatIpv6(bytes: number[]): string {
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((bytes[i]! << 8) | bytes[i + 1]!);
  // The longest run of zero groups (two or more) becomes "::".
  let best = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      best = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLength).join(':')}`;
}

/** A network: `10.0.0.0/8`, `fd00::/8`, or a single address (`/32`, `/128`). */
export interface Cidr {
  family: 4 | 6;
  bytes: number[];
  prefix: number;
  text: string;
}

export function parseCidr(text: string): Cidr | undefined {
  const [ip, bits, extra] = text.split('/');
  if (extra !== undefined || ip === undefined) return undefined;
  const parsed = parseIp(ip);
  if (!parsed) return undefined;
  const max = parsed.family === 4 ? 32 : 128;
  const prefix = bits === undefined ? max : /^\d{1,3}$/.test(bits) ? Number(bits) : NaN;
  if (!(prefix >= 0 && prefix <= max)) return undefined;
  return { family: parsed.family, bytes: parsed.bytes, prefix, text: `${parsed.address}/${prefix}` };
}

export function inCidr(ip: ParsedIp, cidr: Cidr): boolean {
  if (ip.family !== cidr.family) return false;
  for (let bit = 0; bit < cidr.prefix; bit++) {
    const byte = bit >> 3;
    const mask = 0x80 >> (bit & 7);
    if ((ip.bytes[byte]! & mask) !== (cidr.bytes[byte]! & mask)) return false;
  }
  return true;
}

const net = (text: string): Cidr => parseCidr(text)!;

/** Cloud metadata and instance services: refused in every mode unless allow-listed. */
const METADATA = [
  '169.254.169.254/32', // AWS, GCP, Azure, OpenStack, DigitalOcean
  '169.254.170.2/32', // AWS ECS task metadata
  '169.254.170.23/32', // AWS EKS pod identity
  '100.100.100.200/32', // Alibaba Cloud
  '168.63.129.16/32', // Azure wire server
  '192.0.0.192/32', // Oracle Cloud
  'fd00:ec2::254/128', // AWS over IPv6
  'fd00:ec2::23/128',
].map(net);

const IPV4_RANGES: [Cidr, AddressClass][] = (
  [
    ['0.0.0.0/8', 'unspecified'],
    ['10.0.0.0/8', 'private'],
    ['100.64.0.0/10', 'shared'],
    ['127.0.0.0/8', 'loopback'],
    ['169.254.0.0/16', 'link-local'],
    ['172.16.0.0/12', 'private'],
    ['192.0.0.0/24', 'reserved'],
    ['192.0.2.0/24', 'reserved'],
    ['192.88.99.0/24', 'reserved'],
    ['192.168.0.0/16', 'private'],
    ['198.18.0.0/15', 'reserved'],
    ['198.51.100.0/24', 'reserved'],
    ['203.0.113.0/24', 'reserved'],
    ['224.0.0.0/4', 'multicast'],
    ['240.0.0.0/4', 'reserved'],
  ] as const
).map(([cidr, kind]) => [net(cidr), kind]);

const IPV6_RANGES: [Cidr, AddressClass][] = (
  [
    ['::/128', 'unspecified'],
    ['::1/128', 'loopback'],
    ['64:ff9b:1::/48', 'private'], // local-use NAT64 (RFC 8215)
    ['100::/64', 'reserved'],
    ['2001:10::/28', 'reserved'],
    ['2001:20::/28', 'reserved'],
    ['2001:db8::/32', 'reserved'],
    ['3fff::/20', 'reserved'],
    ['5f00::/16', 'reserved'],
    ['fc00::/7', 'private'],
    ['fe80::/10', 'link-local'],
    ['fec0::/10', 'private'],
    ['ff00::/8', 'multicast'],
  ] as const
).map(([cidr, kind]) => [net(cidr), kind]);

/** IPv6 forms that carry an IPv4 address the packet ends up at, and where it sits. */
const EMBEDDING: [Cidr, (bytes: number[]) => number[]][] = [
  [net('::ffff:0:0/96'), (b) => b.slice(12)], // IPv4-mapped
  [net('::ffff:0:0:0/96'), (b) => b.slice(12)], // IPv4-translated (SIIT)
  [net('64:ff9b::/96'), (b) => b.slice(12)], // NAT64 well-known prefix
  [net('::/96'), (b) => b.slice(12)], // IPv4-compatible (deprecated)
  [net('2002::/16'), (b) => b.slice(2, 6)], // 6to4
  [net('2001::/32'), (b) => b.slice(12).map((x) => x ^ 0xff)], // Teredo client
];

/** The IPv4 address an IPv6 address stands for (mapped, translated, NAT64, 6to4, Teredo), if any. */
export function embeddedIpv4(ip: ParsedIp): ParsedIp | undefined {
  if (ip.family !== 6) return undefined;
  for (const [cidr, extract] of EMBEDDING) {
    if (!inCidr(ip, cidr)) continue;
    const bytes = extract(ip.bytes);
    // :: and ::1 are themselves, not IPv4-compatible addresses.
    if (cidr.text === '::/96' && bytes.slice(0, 3).every((b) => b === 0) && bytes[3]! <= 1) return undefined;
    return { address: bytes.join('.'), family: 4, bytes };
  }
  return undefined;
}

/**
 * Classifies an address the way a connection to it would end up: an IPv6 address that embeds
 * an IPv4 one (::ffff:127.0.0.1, 64:ff9b::a00:1, 2002:7f00:1::) is classified as that IPv4 address.
 */
export function classifyIp(ip: ParsedIp): AddressClass {
  const v4 = embeddedIpv4(ip);
  if (v4) return classifyIp(v4);
  if (METADATA.some((cidr) => inCidr(ip, cidr))) return 'metadata';
  for (const [cidr, kind] of ip.family === 4 ? IPV4_RANGES : IPV6_RANGES) {
    if (inCidr(ip, cidr)) return kind;
  }
  return 'public';
}

/** `classifyIp` of a textual address; anything that is not an IP literal counts as reserved. */
export function classifyAddress(address: string): AddressClass {
  const ip = parseIp(address);
  return ip ? classifyIp(ip) : 'reserved';
}

/** True for every address that is not plainly public (the old webhook guard's question). */
export function isPrivateAddress(address: string): boolean {
  return classifyAddress(address) !== 'public';
}

export const ADDRESS_CLASS_LABEL: Record<AddressClass, string> = {
  public: 'a public address',
  loopback: 'a loopback address',
  private: 'a private address (RFC 1918 or IPv6 unique-local)',
  shared: 'a shared address (carrier-grade NAT, 100.64.0.0/10)',
  'link-local': 'a link-local address',
  metadata: 'a cloud metadata address (link-local service)',
  multicast: 'a multicast address',
  unspecified: 'an unspecified address (0.0.0.0/8 or ::, which reaches this machine)',
  reserved: 'a reserved or documentation address',
};
