import { appSchemeProblem, REFUSED_SCHEMES } from '@suite/contracts';
import { AuthError, AuthErrorCode } from '@suite/errors';

// Tokens and sign-in codes travel on the redirect URI, so it is checked strictly (spec rule 3):
// https on one of the project's own hosts, http on loopback, or a native app's own scheme. Anything
// that could make a browser or a URL parser land somewhere else is refused outright.

export type RedirectUriCheck = { ok: true; uri: string } | { ok: false; reason: string };

const MAX_LENGTH = 2048;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;

/**
 * Whether `raw` may receive tokens for a project served at `projectHosts` (the id host, the slug
 * host and verified custom domains). http is accepted on loopback, and on the project's own hosts
 * only when they are `.localhost` names (RFC 6761: those resolve to loopback; local development).
 */
export function checkRedirectUri(
  raw: string,
  projectHosts: readonly string[],
  appSchemes?: readonly string[] | null,
): RedirectUriCheck {
  if (typeof raw !== 'string' || raw.length === 0) return refuse('is empty');
  if (raw.length > MAX_LENGTH) return refuse(`is longer than ${MAX_LENGTH} characters`);
  // Whitespace and control characters are stripped or reinterpreted differently by parsers;
  // backslashes become slashes in browsers (https:\\evil.com); both are classic bypasses.
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff]/.test(raw))
    return refuse('contains whitespace or control characters');
  if (raw.includes('\\')) return refuse('contains a backslash');
  if (raw.includes('#')) return refuse('has a fragment');
  if (/%(?:[01][0-9a-f]|7f|5c)/i.test(raw))
    return refuse('contains an encoded control character or backslash');

  const match = SCHEME.exec(raw);
  if (!match) return refuse('must have the form <scheme>://...');
  const scheme = match[1]!.toLowerCase();
  const rest = raw.slice(match[0].length);
  const authority = rest.split(/[/?]/, 1)[0]!;
  if (authority.includes('@')) return refuse('must not contain user information');
  if (authority.includes('%')) return refuse('must not percent-encode the host');
  // Unicode dots (U+3002, U+FF0E, U+FF61) and look-alike letters are mapped by URL parsers to
  // something other than what a reader sees; hosts must be written in ASCII (punycode).
  if (/[^\x21-\x7e]/.test(authority)) return refuse('must write the host in ASCII');

  if (scheme === 'http' || scheme === 'https') {
    // https:///host is read as https://host by browsers: refused rather than guessed at.
    if (authority === '') return refuse('has no host');
    return checkWeb(raw, scheme, projectHosts);
  }
  if (REFUSED_SCHEMES.has(scheme)) return refuse(`uses the refused scheme ${scheme}:`);
  const problem = appSchemeProblem(scheme);
  if (problem) return refuse(`uses the scheme ${scheme}:, which ${problem}`);
  if (appSchemes && !appSchemes.includes(scheme))
    return refuse(`uses the scheme ${scheme}:, which is not one of this project's app schemes`);
  // A native application's own scheme: <app_scheme>://<path>.
  if (rest.startsWith('//')) return refuse('must not start its path with //');
  return { ok: true, uri: raw };
}

function checkWeb(raw: string, scheme: 'http' | 'https', projectHosts: readonly string[]): RedirectUriCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse('is not a valid URL');
  }
  if (url.username || url.password) return refuse('must not contain user information');
  const host = url.hostname.toLowerCase();
  const own = projectHosts.some((candidate) => candidate.toLowerCase() === host);
  if (scheme === 'https' && own) return { ok: true, uri: url.href };
  if (scheme === 'http' && LOOPBACK_HOSTS.has(host)) return { ok: true, uri: url.href };
  if (scheme === 'http' && own && host.endsWith('.localhost')) return { ok: true, uri: url.href };
  if (scheme === 'http') return refuse('may use http only on localhost, 127.0.0.1 or [::1]');
  return refuse(`is not on one of this project's hosts`);
}

function refuse(reason: string): RedirectUriCheck {
  return { ok: false, reason };
}

/** The accepted URI (normalised for http and https), or 400 invalid_redirect_uri saying why. */
export function assertRedirectUri(
  raw: string,
  projectHosts: readonly string[],
  appSchemes?: readonly string[] | null,
): string {
  const result = checkRedirectUri(raw, projectHosts, appSchemes);
  if (!result.ok) {
    throw new AuthError(AuthErrorCode.InvalidRedirectUri, `redirect_uri ${result.reason}`, { status: 400 });
  }
  return result.uri;
}

/**
 * `uri` with `params` added to its query. Works for app schemes too (URL parses them as opaque
 * hosts, and keeps what it does not understand as written).
 */
export function withQuery(uri: string, params: Record<string, string>): string {
  const query = new URLSearchParams(params).toString();
  return `${uri}${uri.includes('?') ? (uri.endsWith('?') || uri.endsWith('&') ? '' : '&') : '?'}${query}`;
}
