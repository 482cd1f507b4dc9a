import { createHash } from 'node:crypto';

/** The CSP source of an inline script: its sha256, so that script runs and no other inline one does. */
export function inlineScriptSource(script: string): string {
  return `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`;
}

export interface PageSecurityOptions {
  /** CSP sources of inline scripts the page carries (inlineScriptSource). */
  inlineScripts?: string[];
  /** Where media may come from besides the page's origin (e.g. presigned artifact URLs). */
  mediaSources?: string[];
}

/**
 * Headers of the suite's own HTML pages (dashboard, runner): a Content-Security-Policy that runs
 * only the page's own scripts from /assets (no inline script but those hashed, no eval, no plugins),
 * talks only to its origin, and may not be framed (frame-ancestors, and X-Frame-Options for older
 * browsers: clickjacking); no MIME sniffing; no Referer leaves for other origins.
 */
export function pageSecurityHeaders(options: PageSecurityOptions = {}): Record<string, string> {
  const csp = [
    "default-src 'self'",
    `script-src 'self' ${(options.inlineScripts ?? []).join(' ')}`.trim(),
    "style-src 'self'",
    "img-src 'self' data:",
    `media-src 'self' ${(options.mediaSources ?? []).join(' ')}`.trim(),
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  return {
    'content-security-policy': csp,
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
  };
}
