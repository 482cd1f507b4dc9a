import { isIP } from 'node:net';

/**
 * The address a request came from. X-Forwarded-For is believed only as far as `trustedHops`
 * proxies we run appended to it (counted from the right), so a client cannot pick its own address
 * by sending the header itself: with no trusted proxy it is ignored entirely.
 */
export function clientIp(
  socketAddress: string | undefined,
  forwardedFor: string | string[] | undefined,
  trustedHops: number,
): string {
  const peer = normalize(socketAddress) ?? 'unknown';
  if (trustedHops <= 0 || forwardedFor === undefined) return peer;
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor;
  const chain = header
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  // [client, proxy1, ..., proxyN-1] + peer: the peer is the last trusted proxy; each trusted hop
  // vouches for the address just left of it.
  const hops = [...chain, peer];
  const index = Math.max(0, hops.length - 1 - trustedHops);
  return normalize(hops[index]) ?? peer;
}

function normalize(address: string | undefined): string | undefined {
  if (!address) return undefined;
  const trimmed = address.replace(/^\[|\]$/g, '');
  // IPv4 clients of a dual-stack socket appear as ::ffff:1.2.3.4.
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed)?.[1];
  const candidate = v4 ?? trimmed;
  return isIP(candidate) ? candidate.toLowerCase() : undefined;
}
