import { pageSecurityHeaders } from '@suite/nest-core';
import { createHash } from 'node:crypto';

/** What the consent page shows. */
export interface ConsentView {
  projectName: string;
  clientName: string;
  /** Where the browser goes afterwards: the redirect URI's host (or scheme, for an app). */
  returnsTo: string;
  /** For a client named by its metadata document: the host that publishes that document. */
  publishedBy?: string;
  /** Hidden fields every form carries (the sealed request, the CSRF token, the sign-in ticket). */
  hidden: Record<string, string>;
  /** `continue`: on the way to the identity provider (an instant redirect the page policy does not govern). */
  step: 'sign-in' | 'consent' | 'unavailable' | 'continue';
  /** A problem to tell the user (role="alert"). */
  error?: string;
  /** What happened, e.g. a sign-in link was mailed (role="status"). */
  notice?: string;
  /** Offer a sign-in link by mail (the project's email sign-in is on). */
  magicLink?: boolean;
  /**
   * Offer sign-in with the project's identity provider, named so (its host). Not `discovered`:
   * the page's form-action does not name the provider yet, so the press answers a `continue` page.
   */
  idp?: { name: string; discovered: boolean };
  signedInAs?: string;
  allowSignups?: boolean;
  emailPassword?: boolean;
  email?: string;
  /** The client's redirect URI (form-action lets its origin through: the answer redirects there). */
  redirectUri?: string;
  /** Further origins the sign-in step's forms lead through (the identity provider's sign-in). */
  formOrigins?: string[];
  /** For `continue`: where the browser goes on to. */
  continueTo?: string;
}

/** The field that tells the `idp` press its page could not name the provider in form-action. */
export const IDP_UNDISCOVERED_FIELD = 'idp_undiscovered';

const STYLE = `
:root{color-scheme:light dark;--bg:#f6f7f9;--fg:#1b1f24;--card:#fff;--muted:#57606a;--accent:#0b5cad;--border:#c9d1d9;--err:#a40e26}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--card:#161b22;--muted:#9da7b3;--accent:#58a6ff;--border:#30363d;--err:#ff7b72}}
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,sans-serif;background:var(--bg);color:var(--fg)}
main{max-width:26rem;margin:2rem auto;padding:1.5rem;background:var(--card);border:1px solid var(--border);border-radius:8px}
@media (max-width:30rem){main{margin:0;border:0;border-radius:0;min-height:100vh}}
h1{font-size:1.35rem;margin:0 0 .75rem}p{margin:.5rem 0}.muted{color:var(--muted)}
label{display:block;margin-top:.75rem;font-weight:600}
input{width:100%;padding:.6rem;margin-top:.25rem;font:inherit;color:inherit;background:transparent;border:1px solid var(--border);border-radius:6px}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;margin-top:1.25rem}
button{flex:1 1 8rem;min-height:44px;padding:.6rem 1rem;font:inherit;border-radius:6px;border:1px solid var(--border);background:transparent;color:inherit;cursor:pointer}
button.primary{background:var(--accent);border-color:var(--accent);color:#fff}
button:focus-visible,input:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.error{color:var(--err);font-weight:600}
.notice{font-weight:600}hr{border:0;border-top:1px solid var(--border);margin:1.25rem 0}
`;

/** The CSP source of the page's one inline style (no other inline style or any script runs). */
export const CONSENT_STYLE_SOURCE = `'sha256-${createHash('sha256').update(STYLE, 'utf8').digest('base64')}'`;

function escape(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/**
 * The consent page of the MCP flow, server-rendered without script: sign in (or sign up), then
 * Allow or Deny. Every value is escaped; every form posts back to /oauth/authorize.
 */
export function consentPage(view: ConsentView): string {
  const hidden = Object.entries(view.hidden)
    .map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`)
    .join('');
  const client = `<strong>${escape(view.clientName)}</strong>`;
  const project = `<strong>${escape(view.projectName)}</strong>`;
  // The name is whatever the client said (registration or document): told as such, with the one
  // thing that was checked for a document client, the host serving it.
  const source = view.publishedBy
    ? `The application named itself; its details are published by <strong>${escape(view.publishedBy)}</strong>.`
    : 'The application named itself when it registered.';
  const intro = `<p>${client} wants to use the tools of ${project} as you.</p>
<p class="muted">${source} Afterwards you go back to <strong>${escape(view.returnsTo)}</strong>.</p>`;
  const error =
    (view.error ? `<p class="error" role="alert">${escape(view.error)}</p>` : '') +
    (view.notice ? `<p class="notice" role="status">${escape(view.notice)}</p>` : '');
  let body: string;
  let head = '';
  if (view.step === 'unavailable') {
    body = `<h1>${project}</h1>${error}`;
  } else if (view.step === 'continue') {
    const to = escape(view.continueTo ?? '');
    head = `<meta http-equiv="refresh" content="0;url=${to}">`;
    body = `<h1>Sign in to ${project}</h1>
<p role="status">On the way to ${escape(view.idp?.name ?? '')}…</p>
<p><a href="${to}">Continue to ${escape(view.idp?.name ?? '')}</a></p>`;
  } else if (view.step === 'consent') {
    body = `<h1>Allow ${escape(view.clientName)}?</h1>${intro}
<p>Signed in as <strong>${escape(view.signedInAs ?? '')}</strong>.</p>${error}
<form method="post" action="/oauth/authorize">${hidden}
<div class="actions"><button class="primary" type="submit" name="action" value="allow">Allow</button>
<button type="submit" name="action" value="deny">Deny</button></div></form>`;
  } else if (!view.emailPassword) {
    body = `<h1>Sign in to ${project}</h1>${intro}${error}
${view.idp ? idpForm(view.idp, hidden, true) : '<p role="alert">Sign-in with email and password is off for this project.</p>'}
<form method="post" action="/oauth/authorize">${hidden}
<div class="actions"><button type="submit" name="action" value="deny">Cancel</button></div></form>`;
  } else {
    const signUp = view.allowSignups
      ? `<button type="submit" name="action" value="signup">Create account</button>`
      : '';
    body = `<h1>Sign in to ${project}</h1>${intro}${error}
<form method="post" action="/oauth/authorize">${hidden}
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${escape(view.email ?? '')}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required minlength="1">
${view.allowSignups ? `<label for="name">Name <span class="muted">(to create an account)</span></label><input id="name" name="name" type="text" autocomplete="name">` : ''}
<div class="actions"><button class="primary" type="submit" name="action" value="signin">Sign in</button>${signUp}
<button type="submit" name="action" value="deny" formnovalidate>Cancel</button></div></form>`;
    if (view.idp) body += `<hr>${idpForm(view.idp, hidden, false)}`;
    if (view.magicLink) {
      body += `<hr><form method="post" action="/oauth/authorize">${hidden}
<label for="magic-email">Or get a sign-in link by email</label><input id="magic-email" name="email" type="email" autocomplete="username" required aria-describedby="magic-help" value="${escape(view.email ?? '')}">
<p id="magic-help" class="muted">Open the link in this browser; you come back here to allow or deny.</p>
<div class="actions"><button type="submit" name="action" value="magic-link">Email me a sign-in link</button></div></form>`;
    }
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="no-referrer">${head}
<title>Sign in – ${escape(view.projectName)}</title><style>${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
}

/** Sign-in with the project's identity provider: the browser goes there and comes back here. */
function idpForm(provider: { name: string; discovered: boolean }, hidden: string, primary: boolean): string {
  const undiscovered = provider.discovered
    ? ''
    : `<input type="hidden" name="${IDP_UNDISCOVERED_FIELD}" value="1">`;
  return `<form method="post" action="/oauth/authorize">${hidden}${undiscovered}
<div class="actions"><button${primary ? ' class="primary"' : ''} type="submit" name="action" value="idp">Sign in with ${escape(provider.name)}</button></div></form>`;
}

/**
 * The page's headers: the suite's page policy with this page's one inline style and no script.
 * The forms' answer is a redirect to the client, which form-action governs too: it lets exactly
 * that client's origin (or app scheme) through, and on the sign-in step the origins the identity
 * provider's sign-in redirects pass (the callback's host and the provider's authorization endpoint).
 */
export function consentPageHeaders(view: ConsentView): Record<string, string> {
  const base = pageSecurityHeaders();
  let target = '';
  if (view.redirectUri) {
    const url = new URL(view.redirectUri);
    target = url.protocol === 'http:' || url.protocol === 'https:' ? ` ${url.origin}` : ` ${url.protocol}`;
  }
  // Only the sign-in step's forms lead through the identity provider.
  if (view.step === 'sign-in') for (const origin of view.formOrigins ?? []) target += ` ${origin}`;
  const csp = base['content-security-policy']!.replace(
    "style-src 'self'",
    `style-src ${CONSENT_STYLE_SOURCE}`,
  )
    .replace(/script-src [^;]*/, "script-src 'none'")
    .replace("form-action 'self'", `form-action 'self'${target}`);
  return {
    ...base,
    'content-security-policy': csp,
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  };
}
