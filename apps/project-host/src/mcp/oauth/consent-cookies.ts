/**
 * The consent page's two cookies: `csrf` (a random value per browser, whose HMAC every form
 * carries) and `pending` (an authorization request waiting in this browser for a mailed link or
 * the identity provider, sealed and bound to the CSRF cookie).
 */
export type ConsentCookie = 'csrf' | 'pending';

/** How long the page's forms and a pending request stay good: a person signs in and decides within this. */
export const FORM_TTL_MS = 15 * 60_000;

const SHAPES: Record<ConsentCookie, RegExp> = {
  csrf: /^[A-Za-z0-9_-]{43}$/,
  pending: /^[A-Za-z0-9_-]{1,3800}$/,
};

function secure(publicUrl: string): boolean {
  return publicUrl.startsWith('https:');
}

/**
 * `__Host-`: only this exact host can set it (no sibling project host can plant one). The pending
 * request's cookie has a path, so it cannot be `__Host-`; it is sealed and bound to the CSRF
 * cookie instead, so a planted one opens nothing.
 */
export function consentCookieName(publicUrl: string, which: ConsentCookie): string {
  const name = `mcp_${which}`;
  if (!secure(publicUrl)) return name;
  return which === 'csrf' ? `__Host-${name}` : `__Secure-${name}`;
}

/** The cookie's value from a Cookie header, when it has the shape this page gives it. */
export function readConsentCookie(
  publicUrl: string,
  header: string | undefined,
  which: ConsentCookie,
): string | undefined {
  const name = consentCookieName(publicUrl, which);
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) {
      const value = rest.join('=');
      return SHAPES[which].test(value) ? value : undefined;
    }
  }
  return undefined;
}

/** Set-Cookie for a new CSRF cookie (HttpOnly, SameSite=Lax, an hour). */
export function csrfCookieHeader(publicUrl: string, value: string): string {
  return `${consentCookieName(publicUrl, 'csrf')}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=3600${secure(publicUrl) ? '; Secure' : ''}`;
}

/** Set-Cookie keeping a sealed request pending in this browser for FORM_TTL_MS, or (null) forgetting it. */
export function pendingCookieHeader(publicUrl: string, sealed: string | null): string {
  const maxAge = sealed === null ? 0 : FORM_TTL_MS / 1000;
  return `${consentCookieName(publicUrl, 'pending')}=${sealed ?? ''}; Path=/oauth/authorize; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure(publicUrl) ? '; Secure' : ''}`;
}
