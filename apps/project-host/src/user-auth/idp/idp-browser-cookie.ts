import { sha256Hex } from '@suite/project-runtime';

/**
 * The binding cookie of one identity-provider sign-in: a random browser key on the callback's host
 * that ties the sign-in's state to the browser that started it. It proves nothing but "same
 * browser": it is not an auth cookie.
 *
 * Against cookie tossing (project code on a sibling host serves HTML whose script sets a cookie for
 * the parent domain, which the browser then sends to the callback's host too):
 * - the name carries the `__Host-` prefix, so a browser keeps it only when the callback's own host
 *   set it Secure, with Path=/ and without Domain: no sibling host can set or replace one (browsers
 *   treat http://localhost as secure, so development works too);
 * - every sign-in gets a fresh key under a name of its own (derived from its state), and the
 *   callback reads only that name: the server never reuses a value it did not set for this flow,
 *   and parallel sign-ins in one browser do not overwrite each other's key.
 * Where PUBLIC_URL is plain http on a host other than loopback (a development setup), browsers
 * refuse Secure cookies: the name goes without the prefix there.
 */
export const IDP_COOKIE_PREFIX = 'ua_idp_';
/** HttpOnly, SameSite=Lax: the provider's redirect back is a top-level cross-site GET. */
const ATTRIBUTES = 'Path=/; HttpOnly; SameSite=Lax';

export class IdpBrowserCookie {
  private readonly secure: boolean;

  constructor(publicUrl: string) {
    const url = new URL(publicUrl);
    this.secure = url.protocol === 'https:' || isLoopback(url.hostname);
  }

  /** The cookie's name for the sign-in of `state`. */
  nameFor(state: string): string {
    return `${this.secure ? '__Host-' : ''}${IDP_COOKIE_PREFIX}${sha256Hex(state).slice(0, 16)}`;
  }

  /** Set-Cookie for the sign-in of `state`, holding `browserKey` for `maxAgeSeconds`. */
  set(state: string, browserKey: string, maxAgeSeconds: number): string {
    return `${this.nameFor(state)}=${browserKey}; Max-Age=${maxAgeSeconds}; ${ATTRIBUTES}${this.secure ? '; Secure' : ''}`;
  }

  /** Set-Cookie that removes the cookie of `state` (the callback spends it). */
  clear(state: string): string {
    return this.set(state, '', 0);
  }

  /**
   * The value of the cookie of `state` in a Cookie header; undefined when missing, when the name
   * appears more than once (a planted twin: nothing to choose between). The header's length is
   * bounded by the host's request-head limit (MAX_HEADER_KB).
   */
  read(state: unknown, header: unknown): string | undefined {
    if (typeof state !== 'string' || typeof header !== 'string') return undefined;
    const name = this.nameFor(state);
    const values = header
      .split(';')
      .map((part) => part.trim())
      .filter((part) => part.startsWith(`${name}=`))
      .map((part) => part.slice(name.length + 1));
    return values.length === 1 ? values[0] : undefined;
  }
}

function isLoopback(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    hostname === '127.0.0.1' ||
    hostname === '[::1]'
  );
}
