/** What a job's browser may open at the top level: web pages, and the empty page. */
export const ALLOWED_NAVIGATION_SCHEMES = ['http:', 'https:'] as const;

/**
 * Why `url` may not be opened by a job's browser (file:, chrome:, view-source:, data:,
 * javascript: …), or undefined when it may. Only http(s) and about:blank are allowed.
 */
export function navigationSchemeProblem(url: string): string | undefined {
  const trimmed = url.trim();
  if (/^about:blank(?:[?#].*)?$/i.test(trimmed)) return undefined;
  let scheme: string;
  try {
    scheme = new URL(trimmed).protocol.toLowerCase();
  } catch {
    const match = /^([a-z][a-z0-9+.-]*):/i.exec(trimmed);
    if (!match) return undefined;
    scheme = `${match[1]!.toLowerCase()}:`;
  }
  if ((ALLOWED_NAVIGATION_SCHEMES as readonly string[]).includes(scheme)) return undefined;
  return `blocked by the browser network policy: ${scheme} addresses cannot be opened (only http:, https: and about:blank); "${trimmed.slice(0, 200)}" was not opened`;
}
