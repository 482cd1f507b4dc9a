/**
 * Quoted strings and URLs are swapped for opaque tokens before the query is split and parsed, so a
 * period inside `http://a.b/c?d=1`, a "then" inside a quoted label or an apostrophe-free `'x'` never
 * cuts a step in two, and phrase rules can treat a quote as one word.
 */
export interface MaskToken {
  kind: 'quote' | 'url';
  /** The quoted text without its quotes, or the URL. */
  value: string;
  /** Exactly what the user wrote. */
  raw: string;
}

export interface MaskedQuery {
  masked: string;
  tokens: MaskToken[];
}

const OPEN = '\uE000';
const CLOSE = '\uE001';

/** Matches one token; group 1 is its kind letter, group 2 its number. */
export const TOKEN_PATTERN = `${OPEN}([qu])(\\d+)${CLOSE}`;
const TOKEN_RE = new RegExp(TOKEN_PATTERN, 'g');
const QUOTE_ONLY_RE = new RegExp(`^${OPEN}q(\\d+)${CLOSE}$`);
const URL_ONLY_RE = new RegExp(`^${OPEN}u(\\d+)${CLOSE}$`);

// Straight single quotes double as apostrophes ("don't", "user's"), so they only open after a
// space or an opening bracket and only close before a space or punctuation.
// A quote's text never holds its own opening mark: an unclosed mark then reads only up to the next
// one, so a line of thousands of unclosed marks takes linear time, not a scan to the end per mark.
// A quote may hold a quote ("Moved "Fix login bug" to Done"): an inner mark opens after a space and
// before a letter, and closes before a space or punctuation, so the outer pair is one value.
const QUOTE_RE =
  /"([^"\n]*\s"[^"\s][^"\n]*"(?=[\s.,;:!?])[^"\n]*)"(?=$|[\s.,;:!?)\]}])|"([^"\n]*)"|“([^“”\n]*)”|„([^„“”\n]*)[“”]|‘([^‘’\n]*)’|«([^«»\n]*)»|`([^`\n]*)`|(?<=^|[\s([{:,=])'((?:[^'\n]|(?<=\w)'(?=\w))*?)'(?=$|[\s.,;:!?)\]}])/g;

// A scheme starts where a run of scheme characters starts (not at every \b inside "a.a.a…", each of
// which would rescan the rest of the run).
const SCHEME_URL_RE = /(?<![\w+.-])[a-z][a-z0-9+.-]*:\/\/[^\s"'<>“”‘’`\uE000]+/gi;
const BARE_HOST_RE =
  /(?<![\w@./\\-])(?:localhost|\d{1,3}(?:\.\d{1,3}){3}|(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,24})(?::\d{1,5})?(?:[/?#][^\s"'<>“”‘’`\uE000]*)?(?![\w@-])/gi;
/** "Dialog.tsx", "README.md", "report.pdf": a file's name (a tree item, a link), not a host. */
export const FILE_NAME_RE =
  /^[\w-]+(?:\.[\w-]+)*\.(?:tsx?|jsx?|mjs|cjs|json|md|txt|pdf|png|jpe?g|gif|svg|webp|csv|xlsx?|docx?|pptx?|zip|gz|tgz|ya?ml|css|scss|py|rb|java|log|xml|mp[34]|wav|sh|lock)$/i;
const PATH_RE = /(?<=^|\s)\/[\w\-./?=&%#~+:@]*/g;
const TRAILING_PUNCTUATION_RE = /[.,;:!?)\]}]+$/;

export function maskQuery(query: string): MaskedQuery {
  const tokens: MaskToken[] = [];
  const push = (token: MaskToken): string => {
    tokens.push(token);
    return `${OPEN}${token.kind === 'quote' ? 'q' : 'u'}${tokens.length - 1}${CLOSE}`;
  };
  let masked = query.replace(QUOTE_RE, (raw, ...groups: unknown[]) => {
    const value = groups.slice(0, 8).find((g) => typeof g === 'string') as string;
    return push({ kind: 'quote', value, raw });
  });
  const maskUrls = (re: RegExp) => {
    masked = masked.replace(re, (match: string) => {
      const url = match.replace(TRAILING_PUNCTUATION_RE, '');
      if (url.length === 0 || url === '/' || FILE_NAME_RE.test(url)) return match;
      return push({ kind: 'url', value: url, raw: url }) + match.slice(url.length);
    });
  };
  maskUrls(SCHEME_URL_RE);
  maskUrls(BARE_HOST_RE);
  maskUrls(PATH_RE);
  return { masked, tokens };
}

/** Puts tokens back: `value` drops the quotes (for names and typed text), `raw` keeps them (for step text). */
export function unmask(text: string, tokens: readonly MaskToken[], how: 'value' | 'raw' = 'value'): string {
  return text.replace(TOKEN_RE, (_match, _kind: string, n: string) => {
    const token = tokens[Number(n)];
    if (!token) return '';
    return how === 'raw' ? token.raw : token.value;
  });
}

/** The quoted text when `text` is exactly one quote token. */
export function quotedValue(text: string, tokens: readonly MaskToken[]): string | undefined {
  const match = QUOTE_ONLY_RE.exec(text.trim());
  return match ? tokens[Number(match[1])]?.value : undefined;
}

/** The URL when `text` is exactly one URL token. */
export function urlValue(text: string, tokens: readonly MaskToken[]): string | undefined {
  const match = URL_ONLY_RE.exec(text.trim());
  return match ? tokens[Number(match[1])]?.value : undefined;
}

/** How long `text` is without its quotes and URLs (a typed paragraph or a long URL is one word). */
export function lengthOutsideTokens(text: string): number {
  return text.replace(TOKEN_RE, '').trim().length;
}

export function containsQuote(text: string): boolean {
  return new RegExp(`${OPEN}q\\d+${CLOSE}`).test(text);
}
