// What the dashboard may show of a mail's body. A mail of the auth flows carries a sign-in code or
// link that signs its reader in; the admin who reads the mail log must not be able to: the preview
// hides every such value. Project code's mails (ctx.email.send) may carry codes of their own, so
// the same rules hold for every mail, not only the ones whose secrets are known.

/** How much of a body the preview keeps. */
export const MAIL_PREVIEW_MAX_LENGTH = 4_000;

export const HIDDEN = '[hidden]';

/** A plain word in a query (`type=magic`) says what a link is for and opens nothing. */
const PLAIN_WORD = /^[a-z][a-z-]{0,30}$/;
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s<>"')\]]+/gi;
/**
 * Anything shaped like a code: a run of 20 or more letters, digits, `-` and `_` that mixes letters
 * and digits or upper and lower case (a slug such as `shop-eu` is kept), and one-time codes of six
 * to eight digits.
 */
const TOKEN_LIKE = /[A-Za-z0-9_-]{20,}/g;
const DIGIT_CODE = /\b\d{6,8}\b/g;
const isUrl = (text: string): boolean => /^[a-z][a-z0-9+.-]*:\/\//i.test(text);

function hideUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return HIDDEN;
  }
  // Credentials in a URL are a secret of their own.
  const auth = url.username || url.password ? `${HIDDEN}@` : '';
  const query = [...url.searchParams]
    .map(([name, value]) => `${encodeURIComponent(name)}=${PLAIN_WORD.test(value) ? value : HIDDEN}`)
    .join('&');
  const path = url.pathname
    .split('/')
    .map((segment) => hideTokens(segment))
    .join('/');
  return `${url.protocol}//${auth}${url.host}${path}${query ? `?${query}` : ''}${url.hash ? `#${HIDDEN}` : ''}`;
}

function hideTokens(text: string): string {
  return text
    .replace(TOKEN_LIKE, (run) =>
      (/\d/.test(run) && /[a-z]/i.test(run)) || (/[a-z]/.test(run) && /[A-Z]/.test(run)) ? HIDDEN : run,
    )
    .replace(DIGIT_CODE, HIDDEN);
}

/**
 * The plain-text body as the dashboard shows it: every URL keeps its origin and path but loses
 * its query values (plain words aside), fragment and credentials; every `secrets` value (the
 * mail's code and link, when the sender knows them) and anything shaped like a code is replaced
 * by `[hidden]`; cut to MAIL_PREVIEW_MAX_LENGTH.
 */
export function mailPreview(text: string, secrets: readonly string[] = []): string {
  // Longest first: a link that holds its code is hidden as a link.
  const known = secrets.filter(Boolean).sort((a, b) => b.length - a.length);
  let preview = text.replace(/\uE000/g, '');
  known.forEach((secret, index) => {
    preview = preview.split(secret).join(`\uE000${index}\uE000`);
  });
  preview = preview.replace(URL_IN_TEXT, hideUrl);
  preview = hideTokens(preview);
  // Known secrets that were links are shown as the hidden form of the link; codes as [hidden].
  preview = preview.replace(/\uE000(\d+)\uE000/g, (_match, index: string) => {
    const secret = known[Number(index)]!;
    return isUrl(secret) ? hideUrl(secret) : HIDDEN;
  });
  return preview.length > MAIL_PREVIEW_MAX_LENGTH ? `${preview.slice(0, MAIL_PREVIEW_MAX_LENGTH)}…` : preview;
}
