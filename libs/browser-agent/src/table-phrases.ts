import { NUMBER_WORDS } from './text-match.js';
import { type MaskToken, quotedValue, unmask } from './masked-text.js';
import type { CountComparison, MatchMode, StepBody, TableCheck } from './step-types.js';

/**
 * Phrase rules for tables and grids, as people write them about data: "the table has 2 rows", "the
 * first row's name is 'Ada'", "the table shows Ada and Grace", "the Email column contains 'a@x.io'",
 * "the table is sorted by Name", "page 2 of 5 is shown". They read the canonical masked step
 * (quotes are tokens; "should be"/"are" already read "is", "should contain" reads "contains").
 */

const QT = '\\uE000q\\d+\\uE001';
const WORDS = "[\\p{L}\\p{N}][\\p{L}\\p{N}'’ .&/-]*?";
/** "the table", "the Users table", "the 'Open orders' grid", "the data grid", "the results". */
const TABLE = `(?:the\\s+)?(?:(${QT}|${WORDS})\\s+)?(?:data\\s+)?(?:table|grid|results\\s+table|list\\s+of\\s+results)`;
const ORDINALS: Readonly<Record<string, number>> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
  last: -1,
  top: 1,
  bottom: -1,
};
const ORD =
  '(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|top|bottom|\\d+(?:st|nd|rd|th))';
const COUNT_WORDS: Readonly<Record<string, number>> = { ...NUMBER_WORDS, no: 0 };
const COUNT =
  '(exactly|only|just|at least|at most|no more than|more than|fewer than|less than)?\\s*(\\d+|zero|no|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty)';
const ROWS = '(?:data\\s+)?(?:rows?|results?|entries|entry|records?|lines?|items?|people|users)';
/** What a table's rows are of, said as a plural noun: "2 orders", "3 invoices". */
const ROWS_OF = `(?:${ROWS}|\\p{L}{3,}s)`;
const SHOW_VERBS =
  'shows|contains|displays|lists|includes|has|does not show|does not contain|does not display|does not list|does not include|does not have';
const CELL_VERBS =
  'is not|is|equals|does not equal|reads|says|shows|does not show|contains|does not contain|includes|does not include|starts with|ends with';

type Rule = (s: string, tokens: readonly MaskToken[]) => StepBody | undefined;

function tableName(raw: string | undefined, tokens: readonly MaskToken[]): string | undefined {
  if (raw === undefined) return '';
  const quoted = quotedValue(raw, tokens);
  if (quoted !== undefined) return quoted;
  const name = unmask(raw, tokens).trim();
  // "the table", "the data table", "this grid": no name.
  if (/^(?:the|this|that|a|an|main|data|results?)$/i.test(name)) return '';
  // A determiner or a verb inside the "name" means the phrase is not about a table's name.
  if (/\b(?:is|has|of|in|with|and|shows?|contains?)\b/i.test(name)) return undefined;
  return name;
}

function rowNumber(word: string): number | undefined {
  const lower = word.toLowerCase();
  if (lower in ORDINALS) return ORDINALS[lower];
  const n = /^(\d+)(?:st|nd|rd|th)?$/.exec(lower);
  return n?.[1] && Number(n[1]) > 0 ? Number(n[1]) : undefined;
}

function countOf(word: string): number | undefined {
  const lower = word.toLowerCase();
  if (/^\d+$/.test(lower)) return Number(lower);
  return COUNT_WORDS[lower];
}

function comparisonOf(word: string | undefined): CountComparison {
  switch ((word ?? '').toLowerCase()) {
    case 'at least':
      return 'gte';
    case 'at most':
    case 'no more than':
      return 'lte';
    case 'more than':
      return 'gt';
    case 'fewer than':
    case 'less than':
      return 'lt';
    default:
      return 'eq';
  }
}

/** A value: a quoted string, or plain words ("Ada", "€12"). */
function valueOf(raw: string, tokens: readonly MaskToken[]): string | undefined {
  const trimmed = raw.trim();
  const quoted = quotedValue(trimmed, tokens);
  if (quoted !== undefined) return quoted;
  if (trimmed.includes('\uE000')) return undefined;
  const plain = unmask(trimmed, tokens).trim();
  return plain === '' ? undefined : plain;
}

/** "Ada and Grace", "'Ada', 'Grace' and 'Linus'". */
function valuesOf(raw: string, tokens: readonly MaskToken[]): string[] | undefined {
  const parts = raw.split(/\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|nor)\s+|\s*&\s*/i).filter(Boolean);
  const values = parts.map((part) => valueOf(part, tokens));
  return values.every((value): value is string => value !== undefined) && values.length > 0
    ? values
    : undefined;
}

function matchOf(verb: string): { mode: MatchMode; negate: boolean } {
  const lower = verb.toLowerCase();
  const negate = /\bnot\b/.test(lower);
  if (/starts with/.test(lower)) return { mode: 'startsWith', negate };
  if (/ends with/.test(lower)) return { mode: 'endsWith', negate };
  if (/contain|include|shows?/.test(lower)) return { mode: 'contains', negate };
  return { mode: 'equals', negate };
}

function table(name: string, check: TableCheck): StepBody {
  return { action: 'assertTable', table: name, check };
}

const rowCount: Rule = (s, tokens) => {
  const has = new RegExp(
    `^${TABLE}\\s+(?:now\\s+)?(?:has|contains|shows|displays|lists|is showing|holds)\\s+${COUNT}\\s+${ROWS_OF}(?:\\s+(?:now|in total|total|left))?$`,
    'iu',
  ).exec(s);
  const there = new RegExp(
    `^there\\s+is\\s+(?:now\\s+)?${COUNT}\\s+${ROWS}\\s+(?:in|on)\\s+${TABLE}$`,
    'iu',
  ).exec(s);
  const numberOf = new RegExp(
    `^(?:the\\s+)?(?:number|count)\\s+of\\s+${ROWS}\\s+(?:in|on)\\s+${TABLE}\\s+(?:is|equals)\\s+${COUNT}$`,
    'iu',
  ).exec(s);
  const name = has?.[1] ?? there?.[3] ?? numberOf?.[1];
  const comparison = has?.[2] ?? there?.[1] ?? numberOf?.[2];
  const amount = has?.[3] ?? there?.[2] ?? numberOf?.[3];
  if (!(has || there || numberOf) || amount === undefined) return undefined;
  const which = tableName(name, tokens);
  const count = countOf(amount);
  if (which === undefined || count === undefined) return undefined;
  return table(which, { kind: 'rowCount', count, comparison: comparisonOf(comparison) });
};

const empty: Rule = (s, tokens) => {
  const is = new RegExp(`^${TABLE}\\s+(is not|is)\\s+(?:now\\s+)?empty$`, 'iu').exec(s);
  if (!is) return undefined;
  const which = tableName(is[1], tokens);
  return which === undefined ? undefined : table(which, { kind: 'empty', negate: /not/i.test(is[2] ?? '') });
};

const shows: Rule = (s, tokens) => {
  const match = new RegExp(
    `^${TABLE}\\s+(?:now\\s+)?(${SHOW_VERBS})\\s+(?:both\\s+|the\\s+(?:rows?|entries)\\s+(?:for\\s+)?)?(.+)$`,
    'iu',
  ).exec(s);
  if (!match?.[2] || !match[3]) return undefined;
  const which = tableName(match[1], tokens);
  // Counts ("has 2 rows") and pages ("shows page 2") are other rules' business.
  if (which === undefined || /^(?:page\s+\d|(?:only\s+|just\s+|exactly\s+)?\d+\s+|no\s+)/i.test(match[3]))
    return undefined;
  // "… and one of them is Dan Wu" is a clause of its own.
  if (/\b(?:one|1)\s+of\s+(?:them|these|those)\b/i.test(match[3])) return undefined;
  const values = valuesOf(match[3], tokens);
  if (!values) return undefined;
  return table(which, { kind: 'shows', values, negate: /not/i.test(match[2]) });
};

const rowText: Rule = (s, tokens) => {
  // "Row 2 contains 'Grace'", "the 2nd row of the table shows Grace" (a bare "the last row
  // contains …" stays with the element rules).
  const numbered = new RegExp(
    `^row\\s+(\\d+)(?:\\s+(?:of|in)\\s+${TABLE})?\\s+(${CELL_VERBS})\\s+(.+)$`,
    'iu',
  ).exec(s);
  const ordinal = new RegExp(
    `^(?:the\\s+)?${ORD}\\s+row\\s+(?:of|in)\\s+${TABLE}\\s+(${CELL_VERBS})\\s+(.+)$`,
    'iu',
  ).exec(s);
  const match = numbered ?? ordinal;
  if (!match?.[1] || !match[3] || !match[4]) return undefined;
  const row = rowNumber(match[1]);
  const which = tableName(match[2], tokens);
  const expected = valueOf(match[4], tokens);
  if (row === undefined || which === undefined || expected === undefined) return undefined;
  const { mode, negate } = matchOf(match[3]);
  return table(which, { kind: 'row', row, mode: mode === 'equals' ? 'contains' : mode, expected, negate });
};

const cell: Rule = (s, tokens) => {
  const COL = `(${QT}|${WORDS})`;
  const ROW = `(?:${ORD}\\s+row|row\\s+(\\d+))`;
  // "the first row's Name is Ada", "row 2's email is …"
  const possessive = new RegExp(
    `^(?:the\\s+)?${ROW}(?:'s|’s)\\s+${COL}(?:\\s+(?:column|cell|field))?\\s+(${CELL_VERBS})\\s+(.+)$`,
    'iu',
  ).exec(s);
  // "the Name of the first row is Ada", "the email in row 2 is …"
  const of = new RegExp(
    `^(?:the\\s+)?${COL}(?:\\s+(?:column|cell|field|value))?\\s+(?:of|in|for)\\s+(?:the\\s+)?${ROW}(?:\\s+(?:of|in)\\s+${TABLE})?\\s+(${CELL_VERBS})\\s+(.+)$`,
    'iu',
  ).exec(s);
  let row: string | undefined;
  let column: string | undefined;
  let verb: string | undefined;
  let value: string | undefined;
  let name: string | undefined;
  if (possessive) {
    row = possessive[1] ?? possessive[2];
    column = possessive[3];
    verb = possessive[4];
    value = possessive[5];
  } else if (of) {
    column = of[1];
    row = of[2] ?? of[3];
    name = of[4];
    verb = of[5];
    value = of[6];
  }
  if (!row || !column || !verb || !value) return undefined;
  const position = rowNumber(row);
  const header = quotedValue(column, tokens) ?? unmask(column, tokens).trim();
  const which = tableName(name, tokens);
  const expected = valueOf(value, tokens);
  if (position === undefined || which === undefined || expected === undefined || /\brow\b/i.test(header))
    return undefined;
  const { mode, negate } = matchOf(verb);
  return table(which, { kind: 'cell', row: position, column: header, mode, expected, negate });
};

const column: Rule = (s, tokens) => {
  const match = new RegExp(
    `^(?:the\\s+)?(${QT}|${WORDS})\\s+column(?:\\s+(?:of|in)\\s+${TABLE})?\\s+(contains|includes|shows|has|lists|does not contain|does not include|does not show|does not have|does not list)\\s+(.+)$`,
    'iu',
  ).exec(s);
  if (!match?.[1] || !match[3] || !match[4]) return undefined;
  const header = quotedValue(match[1], tokens) ?? unmask(match[1], tokens).trim();
  const which = tableName(match[2], tokens);
  const expected = valueOf(match[4], tokens);
  if (which === undefined || expected === undefined) return undefined;
  return table(which, {
    kind: 'column',
    column: header,
    mode: 'contains',
    expected,
    negate: /not/i.test(match[3]),
  });
};

const DIRECTION =
  '(?:\\s+(?:in\\s+|from\\s+)?(ascending|descending|reverse|alphabetically|a\\s*(?:to|-)\\s*z|z\\s*(?:to|-)\\s*a|low(?:est)?\\s+to\\s+high(?:est)?|high(?:est)?\\s+to\\s+low(?:est)?|smallest\\s+(?:to|first)(?:\\s+largest)?|largest\\s+(?:to|first)(?:\\s+smallest)?|oldest\\s+first|newest\\s+first)(?:\\s+(?:order|by\\s+\\S+))?)?';

function directionOf(word: string | undefined): 'ascending' | 'descending' | 'either' {
  if (!word) return 'either';
  return /descending|reverse|z\s*(?:to|-)\s*a|high(?:est)?\s+to|largest|newest/i.test(word)
    ? 'descending'
    : 'ascending';
}

const sorted: Rule = (s, tokens) => {
  const byTable = new RegExp(
    `^(?:${TABLE}|(?:the\\s+)?(?:rows|results|entries|records))\\s+is\\s+(?:now\\s+)?(?:sorted|ordered)\\s+by\\s+(?:the\\s+)?(${QT}|${WORDS})(?:\\s+column)?${DIRECTION}$`,
    'iu',
  ).exec(s);
  const byColumn = new RegExp(
    `^(?:the\\s+)?(${QT}|${WORDS})(?:\\s+column)?\\s+is\\s+(?:now\\s+)?sorted${DIRECTION}$`,
    'iu',
  ).exec(s);
  const name = byTable ? byTable[1] : undefined;
  const col = byTable?.[2] ?? byColumn?.[1];
  const way = byTable ? byTable[3] : byColumn?.[2];
  if (!col) return undefined;
  const which = tableName(name, tokens);
  const header = quotedValue(col, tokens) ?? unmask(col, tokens).trim();
  if (which === undefined || /^(?:the\s+)?(?:table|grid|list|rows|results)$/i.test(header)) return undefined;
  return table(which, { kind: 'sorted', column: header, direction: directionOf(way) });
};

const pageShown: Rule = (s) => {
  const match =
    /^(?:the\s+)?page\s+(\d+)(?:\s+(?:of|\/)\s+(\d+))?\s+is\s+(?:now\s+)?(?:shown|displayed|visible|active|selected|current|open)$/i.exec(
      s,
    ) ??
    /^(?:the\s+)?(?:current\s+page|page\s+number)\s+is\s+(\d+)(?:\s+(?:of|\/)\s+(\d+))?$/i.exec(s) ??
    /^(?:the\s+)?(?:table|grid|results?|list)\s+(?:is\s+on|shows)\s+page\s+(\d+)(?:\s+(?:of|\/)\s+(\d+))?$/i.exec(
      s,
    ) ??
    /^(?:(?:i\s+am|we\s+are|the\s+user\s+is|user\s+is)\s+)?on\s+page\s+(\d+)(?:\s+(?:of|\/)\s+(\d+))?$/i.exec(
      s,
    );
  if (!match?.[1]) return undefined;
  const check: TableCheck = match[2]
    ? { kind: 'page', page: Number(match[1]), of: Number(match[2]) }
    : { kind: 'page', page: Number(match[1]) };
  return table('', check);
};

const RULES: readonly Rule[] = [pageShown, rowCount, empty, sorted, column, cell, rowText, shows];

/** A table or grid assertion, or undefined when the step is about something else. */
export function tableAssertion(s: string, tokens: readonly MaskToken[]): StepBody | undefined {
  for (const rule of RULES) {
    const body = rule(s, tokens);
    if (body) return body;
  }
  return undefined;
}

/** Help lines for the phrasings above. */
export const TABLE_PHRASINGS: readonly string[] = [
  'the table has 2 rows (also: the Users grid shows at least 3 results; data rows only, after the table settles)',
  'the first row\'s Name is "Ada" / the Email of row 2 is "grace@x.io" / row 2 contains "Grace"',
  'the table shows "Ada" and "Grace" (also: does not show "Linus"; the Email column contains "ada@x.io")',
  'the table is sorted by Name / the table is empty / page 2 of 5 is shown (also: Price is sorted descending)',
];
