import { RE2JS } from 're2js';

// Every regular expression a test (or an LLM agent) supplies is compiled here, with RE2 semantics:
// matching takes time linear in the text, so a pattern like /^(a+)+$/ cannot stall the worker's
// event loop (its health port, its neighbour jobs, its queue lock) the way a backtracking engine does.

/** A pattern the runner will not run; the message says what is wrong and is shown as the step's error. */
export class UserPatternError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UserPatternError';
  }
}

export interface UserPattern {
  /** The pattern in RE2 syntax (JavaScript escapes such as `\u0041` rewritten). */
  readonly source: string;
  /** The JavaScript flags that matter for a yes/no test, among `i`, `m` and `s`. */
  readonly flags: string;
  /** True when the pattern matches anywhere in `text` (as `RegExp.prototype.test`). */
  test(text: string): boolean;
}

/** `/source/flags`: the written form of a regular expression, or undefined for plain text. */
export function regexLiteral(text: string): { source: string; flags: string } | undefined {
  if (!text.startsWith('/')) return undefined;
  const end = text.lastIndexOf('/');
  if (end <= 1) return undefined;
  const flags = text.slice(end + 1);
  if (!/^[dgimsuvy]*$/.test(flags)) return undefined;
  return { source: text.slice(1, end), flags };
}

const FLAG_BITS: Readonly<Record<string, number>> = {
  i: RE2JS.CASE_INSENSITIVE,
  m: RE2JS.MULTILINE,
  s: RE2JS.DOTALL,
};
// g, d and u change nothing for a yes/no test (RE2 always reads Unicode).
const IGNORED_FLAGS = 'gdu';

const UNSUPPORTED =
  'patterns use RE2 syntax, which runs in linear time and has no lookahead, lookbehind or backreferences';

/** The first JavaScript-only construct in `source` (outside character classes), named for a person. */
function unsupportedConstruct(source: string): string | undefined {
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      const next = source[i + 1] ?? '';
      if (!inClass && /[1-9]/.test(next)) return `the backreference \\${next}`;
      if (!inClass && next === 'k' && source[i + 2] === '<') return 'the named backreference \\k<…>';
      i += 1;
    } else if (inClass) {
      if (c === ']') inClass = false;
    } else if (c === '[') {
      inClass = true;
      if (source[i + 1] === ']') i += 1;
    } else if (c === '(' && source[i + 1] === '?') {
      const kind = source.slice(i + 2, i + 4);
      if (kind.startsWith('=')) return 'a lookahead (?=…)';
      if (kind.startsWith('!')) return 'a negative lookahead (?!…)';
      if (kind === '<=') return 'a lookbehind (?<=…)';
      if (kind === '<!') return 'a negative lookbehind (?<!…)';
    }
  }
  return undefined;
}

/** JavaScript escapes RE2 writes differently: `\uXXXX` and `\u{X…}` become `\x{…}`; `[^]` is any character. */
function toRe2Syntax(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      const unicode = /^u(?:([0-9a-fA-F]{4})|\{([0-9a-fA-F]{1,6})\})/.exec(source.slice(i + 1, i + 10));
      if (unicode) {
        out += `\\x{${unicode[1] ?? unicode[2]}}`;
        i += unicode[0].length;
      } else {
        out += source.slice(i, i + 2);
        i += 1;
      }
    } else if (!inClass && source.startsWith('[^]', i)) {
      out += '(?s:.)';
      i += 2;
    } else {
      if (c === '[' && !inClass) inClass = true;
      else if (c === ']' && inClass) inClass = false;
      out += c;
    }
  }
  return out;
}

function isJavaScriptRegExp(source: string): boolean {
  try {
    // Compiling only checks the syntax; nothing is matched.
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

function compileOrExplain(source: string, bits: number, shown: string): RE2JS {
  const construct = unsupportedConstruct(source);
  if (construct)
    throw new UserPatternError(
      `the pattern ${shown} uses ${construct}, which is not supported: ${UNSUPPORTED}`,
    );
  try {
    return RE2JS.compile(toRe2Syntax(source), bits);
  } catch (error) {
    const reason =
      error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error);
    throw new UserPatternError(`the pattern ${shown} is not supported (${reason}): ${UNSUPPORTED}`);
  }
}

/** `text` as a JavaScript pattern that matches it literally. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * The same pattern for JavaScript's `RegExp` (what an exported Playwright or Puppeteer script runs):
 * source and flags as data, to be written with `JSON.stringify`, never spliced into code.
 */
export function javaScriptPattern(expected: string): { source: string; flags: string } {
  const literal = regexLiteral(expected);
  if (literal) return { source: literal.source, flags: literal.flags.replace(/[gy]/g, '') };
  return { source: isJavaScriptRegExp(expected) ? expected : escapeRegExp(expected), flags: 'i' };
}

const cache = new Map<string, UserPattern>();
const CACHE_SIZE = 64;

/**
 * The pattern of a "matches" check: `/source/flags` is a regular expression (flags i, m and s; g, d
 * and u are accepted and change nothing), other text a case-insensitive one, and text that is not a
 * valid regular expression at all (`Price (USD`) is looked for as it is, ignoring case. Throws
 * `UserPatternError` for what RE2 cannot run (lookaround, backreferences, the y and v flags).
 */
export function compileUserPattern(expected: string): UserPattern {
  const cached = cache.get(expected);
  if (cached) return cached;
  const pattern = compileFresh(expected);
  if (cache.size >= CACHE_SIZE) cache.clear();
  cache.set(expected, pattern);
  return pattern;
}

function compileFresh(expected: string): UserPattern {
  const literal = regexLiteral(expected);
  if (literal) {
    const shown = expected.length > 80 ? `${expected.slice(0, 79)}…` : expected;
    let bits = 0;
    let flags = '';
    for (const flag of new Set(literal.flags)) {
      const bit = FLAG_BITS[flag];
      if (bit !== undefined) {
        bits |= bit;
        flags += flag;
      } else if (!IGNORED_FLAGS.includes(flag)) {
        throw new UserPatternError(
          `the pattern ${shown} uses the flag ${flag}, which is not supported (use i, m or s)`,
        );
      }
    }
    const re = compileOrExplain(literal.source, bits, shown);
    return { source: re.pattern(), flags, test: (text) => re.test(text) };
  }
  const shown = `"${expected.length > 80 ? `${expected.slice(0, 79)}…` : expected}"`;
  if (!isJavaScriptRegExp(expected)) {
    const re = RE2JS.compile(RE2JS.quote(expected), RE2JS.CASE_INSENSITIVE);
    return { source: re.pattern(), flags: 'i', test: (text) => re.test(text) };
  }
  const re = compileOrExplain(expected, RE2JS.CASE_INSENSITIVE, shown);
  return { source: re.pattern(), flags: 'i', test: (text) => re.test(text) };
}
