import {
  ADDRESS_CLASS_LABEL,
  type AddressClass,
  type Cidr,
  classifyIp,
  embeddedIpv4,
  inCidr,
  parseCidr,
  parseIp,
} from './ip-address.js';

export const NETWORK_MODES = ['public-only', 'allow-private'] as const;
export type NetworkMode = (typeof NETWORK_MODES)[number];

/** Address classes `allow-private` lets through; everything else non-public stays refused. */
const PRIVATE_CLASSES: ReadonlySet<AddressClass> = new Set(['loopback', 'private', 'shared']);

/** One parsed allow-list entry: a host name, an IP or a CIDR, with an optional port. */
export type AllowEntry =
  | { kind: 'name'; name: string; port?: number; text: string }
  | { kind: 'cidr'; cidr: Cidr; port?: number; text: string };

/**
 * Parses allow-list entries: `name`, `name:port`, `10.0.0.5`, `10.0.0.5:8080`, `[fd00::1]:443`,
 * `fd00::1`, `10.0.0.0/8`, `fd00::/8`. Returns the entries and a message per entry it cannot read.
 */
export function parseAllowList(raw: readonly string[]): { entries: AllowEntry[]; problems: string[] } {
  const entries: AllowEntry[] = [];
  const problems: string[] = [];
  for (const text of raw.map((s) => s.trim()).filter(Boolean)) {
    const entry = parseAllowEntry(text);
    if (entry) entries.push(entry);
    else problems.push(`"${text}" is not a host, host:port, IP, [IPv6]:port or CIDR`);
  }
  return { entries, problems };
}

function parseAllowEntry(text: string): AllowEntry | undefined {
  if (text.includes('/')) {
    const cidr = parseCidr(text);
    return cidr ? { kind: 'cidr', cidr, text } : undefined;
  }
  let host = text;
  let port: number | undefined;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed) {
    host = bracketed[1]!;
    port = bracketed[2] === undefined ? undefined : Number(bracketed[2]);
  } else if (text.split(':').length === 2) {
    const [name, p] = text.split(':') as [string, string];
    if (!/^\d+$/.test(p)) return undefined;
    host = name;
    port = Number(p);
  }
  if (port !== undefined && !(port > 0 && port <= 65535)) return undefined;
  const ip = parseIp(host);
  if (ip) {
    const cidr = parseCidr(`${ip.address}/${ip.family === 4 ? 32 : 128}`)!;
    return { kind: 'cidr', cidr, ...(port === undefined ? {} : { port }), text };
  }
  const name = normalizeHost(host);
  if (!/^[a-z0-9_*-]+(?:\.[a-z0-9_-]+)*$/.test(name)) return undefined;
  return { kind: 'name', name, ...(port === undefined ? {} : { port }), text };
}

export function normalizeHost(host: string): string {
  return host
    .trim()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
}

export interface EgressPolicyOptions {
  mode: NetworkMode;
  allowedHosts: readonly string[];
  /** Names used in messages, so a blocked user knows which setting to change. */
  modeSetting?: string;
  allowListSetting: string;
  /** What is being checked ("browser", "webhook"): the "every mode" wording names it. */
  subject?: string;
}

export type EgressDecision =
  | { allowed: true; reason: 'public' | 'allow-list' | 'allow-private' }
  | {
      allowed: false;
      /** The rule that refused it: the mode setting, or "always" for classes refused in every mode. */
      rule: string;
      addressClass: AddressClass;
      message: string;
    };

/**
 * One egress policy: a mode (`public-only` or `allow-private`) and an allow-list. Decisions are
 * made on the address actually connected to; a host name matters only for allow-list entries.
 */
export class EgressPolicy {
  readonly entries: readonly AllowEntry[];

  constructor(readonly options: EgressPolicyOptions) {
    const { entries, problems } = parseAllowList(options.allowedHosts);
    if (problems.length) throw new Error(`${options.allowListSetting}: ${problems.join('; ')}`);
    this.entries = entries;
  }

  get mode(): NetworkMode {
    return this.options.mode;
  }

  /** True when an allow-list entry names this host (and port), whatever it resolves to. */
  allowsName(host: string, port: number): boolean {
    const name = normalizeHost(host);
    return this.entries.some(
      (e) => e.kind === 'name' && portMatches(e, port) && (e.name === name || wildcardMatches(e.name, name)),
    );
  }

  /** Decides one connection: `host` as the client named it, `address` as connected (or to connect). */
  check(host: string, port: number, address: string): EgressDecision {
    const ip = parseIp(address);
    if (!ip) {
      return {
        allowed: false,
        rule: 'always',
        addressClass: 'reserved',
        message: `blocked by the ${this.options.subject ?? 'network'} policy: "${address}" is not an IP address`,
      };
    }
    if (this.allowsName(host, port)) return { allowed: true, reason: 'allow-list' };
    if (this.entries.some((e) => e.kind === 'cidr' && portMatches(e, port) && inCidr(ip, e.cidr)))
      return { allowed: true, reason: 'allow-list' };
    const kind = classifyIp(ip);
    if (kind === 'public') return { allowed: true, reason: 'public' };
    if (this.mode === 'allow-private' && PRIVATE_CLASSES.has(kind))
      return { allowed: true, reason: 'allow-private' };
    return { allowed: false, ...this.explain(host, port, ip.address, kind) };
  }

  private explain(
    host: string,
    port: number,
    address: string,
    kind: AddressClass,
  ): { rule: string; addressClass: AddressClass; message: string } {
    const name = normalizeHost(host);
    const literal = parseIp(name)?.address === address;
    // An IPv6 form of an IPv4 address (::ffff:7f00:1) is named with the address it stands for.
    const v4 = embeddedIpv4(parseIp(address)!);
    const shown = v4 ? `${address} (${v4.address})` : address;
    const what = literal
      ? `${shown} is ${ADDRESS_CLASS_LABEL[kind]}`
      : `${name} resolved to ${shown}, ${ADDRESS_CLASS_LABEL[kind]}`;
    const entry = literal ? address : name;
    const list = this.options.allowListSetting;
    const modeSetting = this.options.modeSetting;
    if (modeSetting && PRIVATE_CLASSES.has(kind)) {
      return {
        rule: `${modeSetting}=${this.mode}`,
        addressClass: kind,
        message: `blocked by ${modeSetting}=${this.mode}: ${what}; set ${modeSetting}=allow-private or add ${entry} (or ${entry}:${port}) to ${list}`,
      };
    }
    const every = modeSetting ? ` in every ${modeSetting} mode` : '';
    return {
      rule: modeSetting ? `${modeSetting} (every mode)` : `${this.options.subject ?? 'network'} policy`,
      addressClass: kind,
      message: `blocked by the ${this.options.subject ?? 'network'} policy${every}: ${what}; add ${entry} (or ${entry}:${port}) to ${list} to allow it`,
    };
  }
}

function portMatches(entry: AllowEntry, port: number): boolean {
  return entry.port === undefined || entry.port === port;
}

/** `*.example.test` matches every name below example.test (not example.test itself). */
function wildcardMatches(pattern: string, name: string): boolean {
  return pattern.startsWith('*.') && name.endsWith(pattern.slice(1));
}

/** Parses a mode setting's value. */
export function parseNetworkMode(value: string | undefined): NetworkMode | undefined {
  return (NETWORK_MODES as readonly string[]).includes(value ?? '') ? (value as NetworkMode) : undefined;
}
