/**
 * What project code may put in its HTTP answer. The host owns framing and connection handling, the
 * transport security of every host it serves, and anything that reaches beyond the project's own
 * host (a cookie for a parent domain reaches every other project under it); those headers are
 * dropped, and the caller logs their names (never their values).
 */

export type DropReason =
  /** Connection, Keep-Alive, Transfer-Encoding, TE, Trailer, Upgrade, Proxy-*, or named by Connection. */
  | 'hop-by-hop'
  /** Content-Length: the host frames the body it sends. */
  | 'framing'
  /** A header the platform (or the proxy in front of it) owns. */
  | 'platform'
  /** A Set-Cookie with a Domain attribute: it would reach other hosts than the project's. */
  | 'cookie-domain'
  /** A Set-Cookie named like the platform's cookies. */
  | 'cookie-reserved'
  /** A Location or Refresh to anything but an http(s) or relative URL (javascript:, data:...). */
  | 'unsafe-url'
  /** Not a valid header name or value (Node would refuse to send it). */
  | 'invalid';

export interface DroppedHeader {
  name: string;
  reason: DropReason;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'te', 'trailer', 'upgrade']);

/** Owned by the platform: transport security, headers that reach the whole site, the proxy's own. */
const PLATFORM = new Set([
  // Transport security is the platform's for every host it serves (and cannot be undone once cached).
  'strict-transport-security',
  'public-key-pins',
  'public-key-pins-report-only',
  'expect-ct',
  // Moves the origin's traffic to another endpoint.
  'alt-svc',
  // Its "cookies" type clears the whole registrable domain: the platform's and every project's.
  'clear-site-data',
  'set-cookie2',
  // Internal redirects and file serving of the proxy in front of the hosts (ingress-nginx...).
  'x-sendfile',
  'x-lighttpd-send-file',
]);
const PLATFORM_PREFIXES = ['x-accel-', 'x-platform-', 'x-suite-'];

/** Cookie names the platform keeps for itself (after a `__Host-`/`__Secure-` prefix). */
const RESERVED_COOKIE = /^(?:__(?:host|secure)-)?(?:platform|suite)[-_.]/i;

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** What Node sends as a header value: no CR, LF, NUL or characters beyond Latin-1. */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

export interface FilteredHeaders {
  headers: Record<string, string | string[]>;
  dropped: DroppedHeader[];
}

/**
 * The headers of a project's answer that the host will send (names lower-cased), and the ones it
 * dropped with why. Accepts what the sandbox returned as is: values may be strings, numbers or
 * arrays of them (several Set-Cookie lines); anything else is dropped as invalid.
 */
export function filterProjectHeaders(raw: unknown): FilteredHeaders {
  const headers: Record<string, string | string[]> = {};
  const dropped: DroppedHeader[] = [];
  if (raw === null || typeof raw !== 'object') return { headers, dropped };
  const entries = Object.entries(raw as Record<string, unknown>);
  const drop = (name: string, reason: DropReason) => dropped.push({ name, reason });
  // Headers a Connection header names are hop-by-hop too (RFC 9110, 7.6.1).
  const connectionListed = new Set(
    entries
      .filter(([name]) => name.toLowerCase() === 'connection')
      .flatMap(([, value]) => valuesOf(value) ?? [])
      .flatMap((value) => value.split(','))
      .map((token) => token.trim().toLowerCase())
      .filter(Boolean),
  );

  for (const [rawName, rawValue] of entries) {
    const name = rawName.toLowerCase();
    const values = valuesOf(rawValue);
    if (!TOKEN.test(name) || !values || !values.every((v) => FIELD_VALUE.test(v))) {
      drop(name, 'invalid');
      continue;
    }
    const reason = reasonToDrop(name, connectionListed);
    if (reason) {
      drop(name, reason);
      continue;
    }
    if (name === 'set-cookie') {
      const kept = values.filter((cookie) => {
        const why = cookieReason(cookie);
        if (why) drop(name, why);
        return !why;
      });
      if (kept.length > 0) headers[name] = [...toArray(headers[name]), ...kept];
      continue;
    }
    if (
      (name === 'location' || name === 'content-location' || name === 'refresh') &&
      !values.every(safeUrl(name))
    ) {
      drop(name, 'unsafe-url');
      continue;
    }
    headers[name] = values.length === 1 ? values[0]! : values;
  }
  return { headers, dropped };
}

/** A status the host will send: a final status 200...599 (1xx are the connection's, not the project's). */
export function isProjectStatus(status: unknown): status is number {
  return typeof status === 'number' && Number.isInteger(status) && status >= 200 && status <= 599;
}

function reasonToDrop(name: string, connectionListed: Set<string>): DropReason | undefined {
  if (HOP_BY_HOP.has(name) || name.startsWith('proxy-') || connectionListed.has(name)) return 'hop-by-hop';
  if (name === 'content-length') return 'framing';
  if (PLATFORM.has(name) || PLATFORM_PREFIXES.some((prefix) => name.startsWith(prefix))) return 'platform';
  return undefined;
}

/** Host-only cookies only: a Domain attribute (even the project's own host) widens a cookie's reach. */
function cookieReason(cookie: string): DropReason | undefined {
  const [pair = '', ...attributes] = cookie.split(';');
  if (attributes.some((attribute) => /^\s*domain\s*(=|$)/i.test(attribute))) return 'cookie-domain';
  const eq = pair.indexOf('=');
  const cookieName = (eq === -1 ? '' : pair.slice(0, eq)).trim();
  if (RESERVED_COOKIE.test(cookieName)) return 'cookie-reserved';
  return undefined;
}

function safeUrl(name: string) {
  return (value: string): boolean => {
    let target: string | undefined = value;
    if (name === 'refresh') {
      // `5; url=/next` (the url part is optional, and may be quoted).
      target = /(?:^|[;,\s])url\s*=\s*['"]?([^'"]*)/i.exec(value)?.[1];
      if (target === undefined) return true;
    }
    try {
      // Parsed as a browser would (it strips tabs, newlines and leading controls: `java\tscript:`).
      return ['http:', 'https:'].includes(new URL(target, 'http://project.invalid/').protocol);
    } catch {
      return false;
    }
  };
}

function valuesOf(value: unknown): string[] | undefined {
  const one = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);
  const list = Array.isArray(value) ? value.map(one) : [one(value)];
  return list.length > 0 && list.every((v) => v !== undefined) ? (list as string[]) : undefined;
}

function toArray(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}
