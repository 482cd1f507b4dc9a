/**
 * Redirect URIs of MCP clients (OAuth 2.1 §2.3.1, RFC 8252): registered in full and matched
 * exactly, except that a loopback `http` URI matches on any port (native apps listen on an
 * ephemeral one); never a fragment; https anywhere, http only on loopback, and private-use
 * schemes (`cursor://`, `vscode://`) of native apps, never schemes that run or hold content.
 */

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const REFUSED_SCHEMES = new Set([
  'javascript:',
  'data:',
  'file:',
  'vbscript:',
  'about:',
  'blob:',
  'filesystem:',
]);
const MAX_LENGTH = 2_000;

function parse(uri: string): URL | undefined {
  if (uri.length > MAX_LENGTH) return undefined;
  try {
    return new URL(uri);
  } catch {
    return undefined;
  }
}

/** Why `uri` cannot be registered, or undefined when it can. */
export function redirectUriProblem(uri: unknown): string | undefined {
  if (typeof uri !== 'string') return 'must be a string';
  const url = parse(uri);
  if (!url) return 'is not an absolute URI';
  if (url.hash || uri.includes('#')) return 'must not have a fragment';
  if (url.username || url.password) return 'must not carry credentials';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:')
    return LOOPBACK.has(url.hostname) ? undefined : 'http is allowed on loopback only';
  if (REFUSED_SCHEMES.has(url.protocol) || url.protocol === 'ws:' || url.protocol === 'wss:')
    return `the scheme ${url.protocol} is not allowed`;
  // A private-use scheme: reverse-DNS style or an app name, as RFC 8252 §7.1 describes.
  return /^[a-z][a-z0-9+.-]*:$/.test(url.protocol) ? undefined : 'has an invalid scheme';
}

/** Whether `requested` is one of `registered`: exactly, or a loopback http URI on another port. */
export function redirectUriMatches(registered: readonly string[], requested: string): boolean {
  if (registered.includes(requested)) return true;
  const wanted = parse(requested);
  if (!wanted || wanted.protocol !== 'http:' || !LOOPBACK.has(wanted.hostname)) return false;
  return registered.some((uri) => {
    const known = parse(uri);
    return (
      known !== undefined &&
      known.protocol === 'http:' &&
      known.hostname === wanted.hostname &&
      known.pathname === wanted.pathname &&
      known.search === wanted.search &&
      !wanted.hash &&
      !wanted.username &&
      !wanted.password
    );
  });
}
