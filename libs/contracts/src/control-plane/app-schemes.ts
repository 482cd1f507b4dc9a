// Which schemes a native app may receive tokens on (redirect_uri, a project's `redirectSchemes`):
// one rule, read by the control plane's DTO and by the host's redirect URI check.

/** Schemes a browser (or an OS) gives a meaning other than "open this app". */
export const REFUSED_SCHEMES = new Set([
  'javascript',
  'data',
  'vbscript',
  'file',
  'blob',
  'about',
  'filesystem',
  'view-source',
  'chrome',
  'chrome-extension',
  'moz-extension',
  'intent',
  'ftp',
  'ws',
  'wss',
  'mailto',
  'tel',
  'sms',
]);
/**
 * Browser hand-off schemes: an OS opens them in a browser, on the web origin they carry (Safari,
 * Chrome, Edge, Firefox, Opera, Brave… on iOS and macOS; Android intents and app links), so
 * tokens on such a URI reach whatever web page it names.
 */
const HANDOFF_SCHEMES = new Set([
  'x-safari-https',
  'x-safari-http',
  'x-safari',
  'googlechrome',
  'googlechromes',
  'googlechrome-x-callback',
  'microsoft-edge',
  'microsoft-edge-https',
  'microsoft-edge-http',
  'firefox',
  'firefox-focus',
  'firefox-klar',
  'fennec',
  'opera',
  'opera-http',
  'opera-https',
  'opera-touch',
  'touch-http',
  'touch-https',
  'brave',
  'vivaldi',
  'duckduckgo',
  'yandexbrowser-open-url',
  'ucbrowser',
  'samsunginternet',
  'android-app',
  'intent',
  'x-web-search',
  'ddgquicklink',
  'dolphin',
  'puffin',
  'puffins',
  'ucweb',
  'mibrowser',
  'qqbrowser',
  'kiwi',
  'edge',
  'chrome-http',
  'chrome-https',
]);
/** A browser's web scheme in disguise: opera-https, touch-http, x-safari-https, web+… and the like. */
const HANDOFF_PATTERN = /^(?:web\+|x-safari)|[-+.]https?$/;
const SCHEME_NAME = /^[a-z][a-z0-9+.-]{0,62}$/;

/**
 * Why `scheme` (lower case, without ':') may not be an app scheme for redirect_uri, or undefined.
 * Also what a project's `redirectSchemes` list is checked with.
 */
export function appSchemeProblem(scheme: string): string | undefined {
  if (!SCHEME_NAME.test(scheme)) return 'is not a URI scheme (a letter, then letters, digits, +, - or .)';
  if (scheme === 'http' || scheme === 'https')
    return 'is a web scheme (web redirects go by host, not scheme)';
  if (REFUSED_SCHEMES.has(scheme)) return `is a refused scheme`;
  // web+ schemes are handed by browsers to a registered web page (registerProtocolHandler).
  if (HANDOFF_SCHEMES.has(scheme) || HANDOFF_PATTERN.test(scheme))
    return 'is a browser hand-off scheme (it opens a web origin, which would receive the tokens)';
  return undefined;
}

/** `Acme`, `acme:` and `acme://` all name the scheme `acme`. */
export function normaliseAppScheme(entry: string): string {
  return entry
    .trim()
    .toLowerCase()
    .replace(/:(\/\/)?$/, '');
}

/** The first entry of a `redirectSchemes` list that is not an app scheme, worded for the field. */
export function appSchemesProblem(entries: readonly unknown[]): string | undefined {
  for (const [i, entry] of entries.entries()) {
    if (typeof entry !== 'string') return `entry ${i} must be a string`;
    const problem = appSchemeProblem(normaliseAppScheme(entry));
    if (problem) return `"${entry}" ${problem}`;
  }
  return undefined;
}
