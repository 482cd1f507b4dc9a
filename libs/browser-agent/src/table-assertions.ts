import { checkNamedItem, itemNoun } from './named-items.js';
import type { Check } from './step-assertions.js';
import type { StepContext } from './step-context.js';
import { type PagerState, readPager } from './table-pager-script.js';
import { readTables, type TableRead } from './table-reader-script.js';
import type { AssertTableStep, CountComparison, TableCheck } from './step-types.js';
import {
  COMPARISON_WORDS,
  countHolds,
  indexOfWhole,
  normalizeSpace,
  quote,
  textMatches,
} from './text-match.js';

async function tablesOn(ctx: StepContext): Promise<TableRead[] | undefined> {
  try {
    return await ctx.page.evaluate(readTables);
  } catch {
    return undefined;
  }
}

function describeTable(name: string): string {
  return name ? `the "${name}" table` : 'the table';
}

/** The table a step means: the one named, or the only one on the page. */
export function pickTable(
  tables: readonly TableRead[],
  name: string,
): { table: TableRead; problem?: undefined } | { table?: undefined; problem: string } {
  if (tables.length === 0) return { problem: 'no table or grid is shown on the page' };
  const names = tables.map((table) => (table.name ? `"${table.name}"` : 'one without a name')).join(', ');
  if (name) {
    const named = tables.filter((table) => indexOfWhole(table.name, name, true) >= 0);
    if (named.length === 1 && named[0]) return { table: named[0] };
    if (named.length > 1) return { problem: `${named.length} tables are named "${name}"` };
    if (tables.length === 1 && tables[0] && /^(?:table|grid|list|results?|data)$/i.test(name))
      return { table: tables[0] };
    return { problem: `no table is named "${name}" (the page shows: ${names})` };
  }
  if (tables.length === 1 && tables[0]) return { table: tables[0] };
  return {
    problem: `the page shows ${tables.length} tables (${names}): say which one, e.g. "the Users table"`,
  };
}

export function rowCountOf(table: TableRead): number {
  return table.total ?? table.rows.length;
}

/** The column a person names by its header: the same text, else a header starting with it. */
export function columnIndex(headers: readonly string[], column: string): number {
  const want = normalizeSpace(column).toLowerCase();
  const clean = headers.map((header) => normalizeSpace(header).toLowerCase());
  const exact = clean.indexOf(want);
  if (exact >= 0) return exact;
  const starts = clean.findIndex(
    (header) => header.startsWith(want) && indexOfWhole(header, want, true) === 0,
  );
  if (starts >= 0) return starts;
  return clean.findIndex((header) => indexOfWhole(header, want, true) >= 0);
}

function rowAt(table: TableRead, row: number): string[] | undefined {
  return row === -1 ? table.rows[table.rows.length - 1] : table.rows[row - 1];
}

function ordinal(row: number): string {
  if (row === -1) return 'last';
  const tens = row % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][row % 10] ?? 'th');
  return `${row}${suffix.length === 2 ? suffix : 'th'}`;
}

/** A cell shows a value when it is that value or holds it as whole words ("Ada" is not in "Adam"). */
export function cellShows(cell: string, value: string): boolean {
  return indexOfWhole(normalizeSpace(cell), normalizeSpace(value), true) >= 0;
}

function sortKey(values: readonly string[]): Array<number | string> {
  const numbers = values.map((value) => {
    const digits = value.replace(/[\s\u00a0,]|[^\d.+-]+(?=[\d.])|(?<=[\d.])[^\d.]+$/g, '');
    return /^[+-]?\d+(?:\.\d+)?$/.test(digits) ? Number(digits) : NaN;
  });
  return numbers.every((n) => !Number.isNaN(n)) ? numbers : [...values];
}

function inOrder(values: readonly string[], direction: 'ascending' | 'descending'): number {
  const keys = sortKey(values);
  const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
  for (let i = 1; i < keys.length; i += 1) {
    const a = keys[i - 1] as number | string;
    const b = keys[i] as number | string;
    const order =
      typeof a === 'number' && typeof b === 'number' ? a - b : collator.compare(String(a), String(b));
    if (direction === 'ascending' ? order > 0 : order < 0) return i;
  }
  return -1;
}

function columnCheck(table: TableRead, column: string, what: string): { index: number } | Check {
  const index = columnIndex(table.headers, column);
  if (index >= 0) return { index };
  const headers = table.headers.filter(Boolean).map((header) => `"${header}"`);
  return {
    ok: false,
    message: `expected ${what} but the table has no "${column}" column (its columns: ${headers.join(', ') || 'none named'})`,
  };
}

/** One read of a table assertion. */
export function judgeTable(table: TableRead, check: TableCheck, subject: string): Check {
  const rows = rowCountOf(table);
  const placeholder = table.placeholder ? `; it shows ${quote(table.placeholder)}` : '';
  switch (check.kind) {
    case 'rowCount': {
      const wanted = `${COMPARISON_WORDS[check.comparison]} ${check.count} data ${check.count === 1 ? 'row' : 'rows'}`;
      const ok = countHolds(rows, check.count, check.comparison);
      const found = `${rows} data ${rows === 1 ? 'row' : 'rows'}`;
      return {
        ok,
        key: String(rows),
        vacuous: rows === 0,
        message: ok
          ? `${subject} has ${found}`
          : `expected ${subject} to have ${wanted} but it has ${found}${placeholder}`,
      };
    }
    case 'empty': {
      const empty = rows === 0;
      const ok = empty !== check.negate;
      return {
        ok,
        key: String(rows),
        vacuous: empty,
        message: ok
          ? empty
            ? `${subject} has no data rows${placeholder}`
            : `${subject} has ${rows} data rows`
          : check.negate
            ? `expected ${subject} not to be empty but it has no data rows${placeholder}`
            : `expected ${subject} to be empty but it has ${rows} data ${rows === 1 ? 'row' : 'rows'}, the first ${quote((table.rows[0] ?? []).join(' | '))}`,
      };
    }
    case 'row': {
      const row = rowAt(table, check.row);
      const what = `the ${ordinal(check.row)} row of ${subject} ${check.negate ? 'not ' : ''}to ${check.mode === 'equals' ? 'be' : 'contain'} "${check.expected}"`;
      if (!row) return { ok: false, message: `expected ${what} but it has ${rows} data rows${placeholder}` };
      const text = row.join(' ');
      const matched =
        check.mode === 'contains'
          ? row.some((cell) => cellShows(cell, check.expected)) ||
            textMatches(text, check.expected, 'contains')
          : textMatches(text, check.expected, check.mode);
      const ok = matched !== check.negate;
      return {
        ok,
        key: text,
        message: ok
          ? `the ${ordinal(check.row)} row is ${quote(row.join(' | '))}`
          : `expected ${what} but it is ${quote(row.join(' | '))}`,
      };
    }
    case 'cell': {
      const what = `the ${check.column} of the ${ordinal(check.row)} row ${check.negate ? 'not ' : ''}to ${check.mode === 'equals' ? 'be' : 'contain'} "${check.expected}"`;
      const column = columnCheck(table, check.column, what);
      if ('ok' in column) return column;
      const row = rowAt(table, check.row);
      if (!row)
        return { ok: false, message: `expected ${what} but ${subject} has ${rows} data rows${placeholder}` };
      const cell = row[column.index] ?? '';
      const matched =
        check.mode === 'equals'
          ? normalizeSpace(cell).toLowerCase() === normalizeSpace(check.expected).toLowerCase()
          : textMatches(cell, check.expected, check.mode);
      const ok = matched !== check.negate;
      return {
        ok,
        key: cell,
        message: ok
          ? `the ${check.column} of the ${ordinal(check.row)} row is ${quote(cell)}`
          : `expected ${what} but it is ${quote(cell)}`,
      };
    }
    case 'shows': {
      const present = check.values.map((value) =>
        table.rows.some((row) => row.some((cell) => cellShows(cell, value))),
      );
      const ok = check.negate ? present.every((p) => !p) : present.every(Boolean);
      const list = (values: string[]) => values.map((value) => `"${value}"`).join(' and ');
      const missing = check.values.filter((_, i) => !present[i]);
      const shown = check.values.filter((_, i) => present[i]);
      return {
        ok,
        key: present.map((p) => (p ? '1' : '0')).join(''),
        vacuous: check.negate,
        message: ok
          ? check.negate
            ? `no data row of ${subject} shows ${list(check.values)}`
            : `${subject} shows ${list(check.values)} in its data rows`
          : check.negate
            ? `expected ${subject} not to show ${list(shown)} but a data row does`
            : `expected ${subject} to show ${list(check.values)} but no data row shows ${list(missing)} (${rows} data rows${placeholder})`,
      };
    }
    case 'column': {
      const what = `the ${check.column} column of ${subject} ${check.negate ? 'not ' : ''}to contain "${check.expected}"`;
      const column = columnCheck(table, check.column, what);
      if ('ok' in column) return column;
      const cells = table.rows.map((row) => row[column.index] ?? '');
      const hit = cells.find((cell) =>
        check.mode === 'contains'
          ? cellShows(cell, check.expected)
          : textMatches(cell, check.expected, check.mode),
      );
      const ok = (hit !== undefined) !== check.negate;
      const shown = cells
        .slice(0, 8)
        .map((cell) => quote(cell, 40))
        .join(', ');
      return {
        ok,
        key: cells.join('\u0000'),
        vacuous: check.negate,
        message: ok
          ? hit !== undefined
            ? `the ${check.column} column shows ${quote(hit)}`
            : `no cell of the ${check.column} column shows "${check.expected}"`
          : hit !== undefined
            ? `expected ${what} but a cell is ${quote(hit)}`
            : `expected ${what} but its cells are ${shown || 'none'}${placeholder}`,
      };
    }
    case 'sorted': {
      const what = `${subject} to be sorted by ${check.column}${check.direction === 'either' ? '' : ` ${check.direction}`}`;
      const column = columnCheck(table, check.column, what);
      if ('ok' in column) return column;
      const cells = table.rows.map((row) => row[column.index] ?? '');
      if (cells.length < 2)
        return {
          ok: false,
          message: `expected ${what} but it has ${cells.length} data rows: too few to tell`,
        };
      const announced = table.sort[column.index] ?? null;
      const direction =
        check.direction === 'either'
          ? announced === 'descending'
            ? 'descending'
            : 'ascending'
          : check.direction;
      const broken = inOrder(cells, direction);
      const ok = broken < 0;
      return {
        ok,
        key: cells.join('\u0000'),
        message: ok
          ? `${subject} is sorted by ${check.column} ${direction}: ${cells
              .slice(0, 5)
              .map((cell) => quote(cell, 30))
              .join(', ')}${cells.length > 5 ? ', …' : ''}`
          : `expected ${what} but ${quote(cells[broken] ?? '', 40)} comes after ${quote(cells[broken - 1] ?? '', 40)} (${direction})`,
      };
    }
    case 'page':
      return { ok: false, message: 'internal: page checks read the pager' };
  }
}

export function judgePager(pager: PagerState, check: { page: number; of?: number }): Check {
  const ok = pager.current === check.page && (check.of === undefined || pager.last === check.of);
  const wanted = `page ${check.page}${check.of === undefined ? '' : ` of ${check.of}`}`;
  const found =
    pager.current === null
      ? 'no current page is shown'
      : `page ${pager.current}${pager.last === null ? '' : ` of ${pager.last}`} is shown`;
  return {
    ok,
    key: found,
    message: ok ? `${wanted} is shown` : `expected ${wanted} to be shown but ${found}`,
  };
}

export async function checkTable(ctx: StepContext, step: AssertTableStep): Promise<Check> {
  ctx.report.target = step.table || 'the table';
  if (step.check.kind === 'page') {
    const pager = await ctx.page.evaluate(readPager).catch(() => undefined);
    if (!pager) return { ok: false, message: 'the page could not be read (the page was navigating)' };
    return judgePager(pager, step.check);
  }
  const tables = await tablesOn(ctx);
  if (!tables) return { ok: false, message: 'the tables could not be read (the page was navigating)' };
  const { table, problem } = pickTable(tables, step.table);
  const subject = describeTable(step.table);
  if (!table) {
    // "The first post is by @ada" on a page without a table: the first of the posts.
    const { check } = step;
    if (tables.length === 0 && !step.table && check.kind === 'cell' && itemNoun(check.column)) {
      const item = await checkNamedItem(
        ctx,
        check.column,
        check.row,
        check.expected,
        check.mode,
        check.negate,
      );
      if (item) return item;
    }
    // "The In progress column contains "Update docs"" on a board: the column is a section of the
    // page headed or labelled so, not a table's.
    if (tables.length === 0 && !step.table && check.kind === 'column') {
      const texts = await ctx.page.evaluate(namedSectionTexts, check.column).catch(() => [] as string[]);
      if (texts.length === 1 && texts[0] !== undefined) {
        const text = texts[0];
        const found =
          check.mode === 'contains'
            ? cellShows(text, check.expected)
            : textMatches(text, check.expected, check.mode);
        const ok = found !== check.negate;
        const what = `the ${check.column} column ${check.negate ? 'not ' : ''}to contain "${check.expected}"`;
        return {
          ok,
          key: text,
          vacuous: check.negate,
          message: ok
            ? `the ${check.column} column ${check.negate ? 'does not show' : 'shows'} "${check.expected}"`
            : `expected ${what} but it shows ${quote(text, 120)}`,
        };
      }
    }
    return { ok: false, message: `cannot check ${subject}: ${problem}` };
  }
  return judgeTable(table, step.check, subject);
}

/**
 * "There are 5 rows": data rows of the one table on the page. Undefined when the page shows no
 * table (the count then goes to the locator, which also knows rows drawn with plain elements).
 */
export async function countTableRows(
  ctx: StepContext,
  count: number,
  comparison: CountComparison,
): Promise<Check | undefined> {
  const tables = await tablesOn(ctx);
  if (!tables || tables.length === 0) return undefined;
  const { table, problem } = pickTable(tables, '');
  if (!table) return { ok: false, message: `cannot count the rows: ${problem}` };
  return judgeTable(table, { kind: 'rowCount', count, comparison }, 'the table');
}

/**
 * In the page: the text of each section the name labels (its aria-label, or a heading that is its
 * first element), without that label: the columns of a board, the lanes of a list.
 */
function namedSectionTexts(name: string): string[] {
  const norm = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim().toLowerCase();
  const want = norm(name);
  const doc = (
    globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<SectionElement> } }
  ).document;
  const sections = new Set<SectionElement>();
  for (const el of Array.from(doc.querySelectorAll('[aria-label]')))
    if (norm(el.getAttribute('aria-label')) === want) sections.add(el);
  for (const heading of Array.from(doc.querySelectorAll('h1,h2,h3,h4,h5,h6,[role=heading],legend,header')))
    if (norm(heading.textContent) === want && heading.parentElement?.firstElementChild === heading)
      sections.add(heading.parentElement);
  return [...sections]
    .filter((el) => ![...sections].some((other) => other !== el && other.contains(el)))
    .map((el) => {
      const text = (el.innerText ?? el.textContent ?? '').replace(/\s+/g, ' ').trim();
      return norm(text).startsWith(want) ? text.slice(want.length).trim() : text;
    });
}

interface SectionElement {
  getAttribute(name: string): string | null;
  textContent: string | null;
  innerText?: string;
  parentElement: SectionElement | null;
  firstElementChild: SectionElement | null;
  contains(other: SectionElement): boolean;
}
