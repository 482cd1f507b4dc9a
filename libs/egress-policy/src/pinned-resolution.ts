import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { lookup as systemLookup, Resolver } from 'node:dns/promises';
import type { EgressDecision, EgressPolicy } from './egress-policy.js';
import { normalizeHost } from './egress-policy.js';
import { parseIp } from './ip-address.js';

/** Resolves a host name to every address it has right now. */
export type HostResolver = (hostname: string) => Promise<string[]>;

/**
 * The system resolver (getaddrinfo: /etc/hosts, then DNS) or, with `servers` (`ip`, `ip:port`,
 * `[ipv6]:port`), those DNS servers only. glibc cannot use a port other than 53, so a resolver on
 * another port (a test's DNS server) needs `servers`.
 */
export function createHostResolver(servers: readonly string[] = []): HostResolver {
  if (servers.length === 0) {
    return async (hostname) =>
      (await systemLookup(hostname, { all: true, verbatim: true })).map((a) => a.address);
  }
  const resolver = new Resolver({ timeout: 3_000, tries: 2 });
  resolver.setServers([...servers]);
  return async (hostname) => {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
    const addresses = [
      ...(v4.status === 'fulfilled' ? v4.value : []),
      ...(v6.status === 'fulfilled' ? v6.value : []),
    ];
    if (addresses.length === 0) {
      const reason = v4.status === 'rejected' ? (v4.reason as Error) : undefined;
      throw Object.assign(new Error(`${hostname} does not resolve${reason ? ` (${reason.message})` : ''}`), {
        code: 'ENOTFOUND',
      });
    }
    return addresses;
  };
}

/** Why each of `servers` cannot be used as a DNS server (`ip`, `ip:port`, `[ipv6]:port`). */
export function dnsServerProblems(servers: readonly string[]): string[] {
  return servers.flatMap((server) => {
    const match = /^\[([^\]]+)\](?::(\d+))?$/.exec(server) ?? /^([^:]+)(?::(\d+))?$/.exec(server);
    const host = match?.[1] ?? (isIP(server) === 6 ? server : undefined);
    const port = match?.[2] === undefined ? 53 : Number(match[2]);
    return host && isIP(host) && port > 0 && port <= 65535
      ? []
      : [`"${server}" is not a DNS server address (ip, ip:port or [ipv6]:port)`];
  });
}

/** A connection the policy refused; `message` says which rule and which setting to change. */
export class EgressBlockedError extends Error {
  constructor(
    readonly decision: Extract<EgressDecision, { allowed: false }>,
    readonly host: string,
    readonly port: number,
    readonly address: string,
  ) {
    super(decision.message);
    this.name = 'EgressBlockedError';
  }
}

export interface PinnedAddresses {
  host: string;
  port: number;
  addresses: LookupAddress[];
}

/**
 * Resolves `host` once and checks every address it resolved to. Any refused address refuses the
 * whole host (a rebinding answer mixing public and private addresses gets nothing). What comes
 * back is what the connection must use: pass `pinnedLookup(result)` to it so it is not resolved
 * again. IP literals in any form (decimal, octal, hex, IPv4-mapped) are checked as the address.
 */
export async function resolveChecked(
  policy: EgressPolicy,
  resolve: HostResolver,
  rawHost: string,
  port: number,
): Promise<PinnedAddresses> {
  const host = normalizeHost(rawHost);
  const literal = parseIp(host);
  const addresses = literal ? [literal.address] : await resolve(host);
  const pinned: LookupAddress[] = [];
  for (const address of addresses) {
    const ip = parseIp(address);
    const decision = policy.check(host, port, ip?.address ?? address);
    if (!decision.allowed) throw new EgressBlockedError(decision, host, port, ip?.address ?? address);
    pinned.push({ address: ip!.address, family: ip!.family });
  }
  return { host, port, addresses: pinned };
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `dns.lookup`-shaped function that answers only with the addresses already checked, for
 * `net.connect({lookup})`, `http.request({lookup})` and proxy-chain's `dnsLookup`.
 */
export function pinnedLookup(pinned: PinnedAddresses) {
  return (hostname: string, options: LookupOptions | number | LookupCallback, callback?: LookupCallback) => {
    const done = (typeof options === 'function' ? options : callback)!;
    const opts: LookupOptions =
      typeof options === 'object' ? options : { family: typeof options === 'number' ? options : 0 };
    const family = opts.family === 'IPv4' ? 4 : opts.family === 'IPv6' ? 6 : (opts.family ?? 0);
    const matching = pinned.addresses.filter((a) => !family || a.family === family);
    if (normalizeHost(hostname) !== pinned.host || matching.length === 0) {
      const error: NodeJS.ErrnoException = new Error(`${hostname}: no checked address to connect to`);
      error.code = 'ENOTFOUND';
      process.nextTick(() => done(error, ''));
      return;
    }
    process.nextTick(() =>
      opts.all ? done(null, matching) : done(null, matching[0]!.address, matching[0]!.family),
    );
  };
}

/** True when `remote` (a socket's remoteAddress) is one of the checked addresses. */
export function isPinnedAddress(pinned: PinnedAddresses, remote: string | undefined): boolean {
  const ip = remote ? parseIp(remote) : undefined;
  return Boolean(ip && pinned.addresses.some((a) => a.address === ip.address));
}
