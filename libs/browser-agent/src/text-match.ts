import type { CountComparison, MatchMode } from './step-types.js';
import { compileUserPattern } from './user-pattern.js';

export function normalizeSpace(text: string): string {
  return text.replace(/[\s\u00a0]+/g, ' ').trim();
}

export function quote(text: string, max = 160): string {
  const clean = normalizeSpace(text);
  return `"${clean.length > max ? `${clean.slice(0, max - 1)}…` : clean}"`;
}

/**
 * Where `needle` occurs in `haystack` without cutting a number in two: "2 items" is not in
 * "12 items" and "€12" is not in "€120", though "Ada" is in "Ada Lovelace". -1 when it is nowhere.
 * Both are compared in lower case.
 */
export function indexOfWhole(haystack: string, needle: string, words = false): number {
  const hay = haystack.toLowerCase();
  const want = needle.toLowerCase();
  if (want === '') return 0;
  // Lower case widens the search only when it keeps every character where it was.
  if (hay.length !== haystack.length || want.length !== needle.length) return haystack.indexOf(needle);
  const joins = (a: string, b: string) =>
    (/\d/.test(a) && /\d/.test(b)) || (words && /[\p{L}\p{N}]/u.test(a) && /[\p{L}\p{N}]/u.test(b));
  for (let at = hay.indexOf(want); at >= 0; at = hay.indexOf(want, at + 1)) {
    const before = hay[at - 1] ?? '';
    const after = hay[at + want.length] ?? '';
    if (joins(before, want[0] ?? '') || joins(want[want.length - 1] ?? '', after)) continue;
    if (caseAgrees(haystack.slice(at, at + needle.length), needle)) return at;
  }
  return -1;
}

/**
 * Smart case, as search tools do it: an expectation written all in lower case matches any case; one
 * with capitals must match as written, or be shown in capitals (CSS text-transform). So "the title
 * contains 'dashboard'" holds on "Dashboard", and "User: ADA" does not hold on "User: ada".
 */
export function caseAgrees(shown: string, expected: string): boolean {
  if (expected === expected.toLowerCase()) return true;
  return shown === expected || shown === shown.toUpperCase();
}

/**
 * True when `expected` is in one of the texts only in another case ("User: ada" for "User: ADA"):
 * the element a case-blind search found is not the text a person wrote (smart case, as above).
 */
export function differsOnlyInCase(texts: readonly string[], expected: string): boolean {
  const want = normalizeSpace(expected);
  const found = texts.map(normalizeSpace).filter((t) => t.toLowerCase().includes(want.toLowerCase()));
  return found.length > 0 && found.every((t) => indexOfWhole(t, want) < 0);
}

/**
 * "The page says X" where X ends in a list ("You picked: Apple, Kiwi") does not hold when the page
 * goes on with another item of that list ("You picked: Apple, Kiwi, Plum"): X then cuts the
 * message short. Everything else reads as "contains", because people write "says" for part of a
 * line ("says "Booked 2011-10-11"" on "Booked 2011-10-11 at 20:04", "says "count: 3"" on "answer:
 * Yes, count: 3, level: 0"): a whole-text rule failed those. An item is a piece without a colon:
 * ", level: 0" is the next field, not more of the list.
 */
export function saysWhole(text: string, expected: string): boolean {
  const hay = normalizeSpace(text);
  const want = normalizeSpace(expected).replace(/[.!]$/, '');
  const tail = want.slice(want.lastIndexOf(':') + 1);
  const endsInList = /,\s|\s(?:and|or|&)\s/i.test(tail);
  for (let from = 0; from <= hay.length;) {
    const at = indexOfWhole(hay.slice(from), want, true);
    if (at < 0) return false;
    const after = hay.slice(from + at + want.length).trimStart();
    const more = /^(?:,|and\b|or\b|&)\s*([^,.;!?]*)/i.exec(after);
    if (!endsInList || !more || more[1]!.trim() === '' || more[1]!.includes(':')) return true;
    from += at + 1;
  }
  return false;
}

function cutsNumber(before: string, after: string): boolean {
  return /\d/.test(before) && /\d/.test(after);
}

/**
 * Text comparisons: "is" means the same text (whitespace collapsed); the partial ones use smart
 * case (`caseAgrees`), because "the title contains 'dashboard'" is what a person means whatever the
 * capitalisation, while "User: ADA" is not "User: ada"; a partial match never cuts a number ("2
 * items" does not match "12 items").
 */
export function textMatches(actual: string, expected: string, mode: MatchMode): boolean {
  const a = normalizeSpace(actual);
  const e = normalizeSpace(expected);
  switch (mode) {
    case 'equals':
      return a === e;
    case 'contains':
      return indexOfWhole(a, e) >= 0;
    case 'startsWith':
      return (
        a.toLowerCase().startsWith(e.toLowerCase()) &&
        caseAgrees(a.slice(0, e.length), e) &&
        !cutsNumber(e.slice(-1), a[e.length] ?? '')
      );
    case 'endsWith':
      return (
        a.toLowerCase().endsWith(e.toLowerCase()) &&
        caseAgrees(a.slice(a.length - e.length), e) &&
        !cutsNumber(a[a.length - e.length - 1] ?? '', e[0] ?? '')
      );
    case 'matches':
      return compileUserPattern(expected).test(actual);
  }
}

/** How a count comparison reads in a message ("expected exactly 3 …"). */
export const COMPARISON_WORDS: Readonly<Record<CountComparison, string>> = {
  eq: 'exactly',
  gte: 'at least',
  lte: 'at most',
  gt: 'more than',
  lt: 'fewer than',
};

/** Numbers people write as words, zero to twelve and twenty. */
export const NUMBER_WORDS: Readonly<Record<string, number>> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  twenty: 20,
};

export function countHolds(actual: number, expected: number, comparison: CountComparison): boolean {
  switch (comparison) {
    case 'eq':
      return actual === expected;
    case 'gte':
      return actual >= expected;
    case 'lte':
      return actual <= expected;
    case 'gt':
      return actual > expected;
    case 'lt':
      return actual < expected;
  }
}
