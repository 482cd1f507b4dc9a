import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { invalidParams } from './a2a-params.js';

/** Loopback, private, link-local (cloud metadata), CGNAT, multicast and reserved ranges. */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  ['2001:db8::', 32],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = address.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i)?.[1];
  if (mapped) return blocked.check(mapped, 'ipv4');
  return blocked.check(address, 'ipv6');
}

/**
 * Refuses webhook URLs that would make the runner call into its own network (SSRF): the host is
 * resolved and every address must be public, unless the host or address is in `allowedHosts`.
 * Checked when a config is stored and again before every delivery (DNS can change).
 */
export async function assertPublicWebhookUrl(raw: string, allowedHosts: readonly string[]): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidParams(`push notification url ${JSON.stringify(raw)} is not a valid absolute URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw invalidParams('push notification url must use http or https');
  }
  if (url.username || url.password) {
    throw invalidParams('push notification url must not contain credentials; use authentication instead');
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  const allowed = new Set(allowedHosts.map((h) => h.toLowerCase()));
  if (allowed.has(host)) return url;
  let addresses: string[];
  try {
    addresses = isIP(host)
      ? [host]
      : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    throw invalidParams(`push notification url host ${JSON.stringify(host)} does not resolve`);
  }
  const refused = addresses.find((address) => !allowed.has(address) && isPrivateAddress(address));
  if (refused) {
    throw invalidParams(
      `push notification url ${JSON.stringify(url.origin)} resolves to ${refused}, a loopback, private, link-local or metadata address; webhooks must be public (an operator can allow the host with PUSH_ALLOWED_HOSTS)`,
    );
  }
  return url;
}
