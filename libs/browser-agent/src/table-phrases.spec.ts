import { describe, expect, it } from '@jest/globals';
import { parseInstructions } from './instruction-parser.js';
import type { StepBody } from './step-types.js';
import { type TableRead } from './table-reader-script.js';
import { cellShows, columnIndex, judgeTable, pickTable } from './table-assertions.js';

function parsed(text: string): StepBody | undefined {
  const { steps, unknown } = parseInstructions(text);
  if (unknown.length > 0 || steps.length !== 1) return undefined;
  const { index: _index, text: _text, ...body } = steps[0] as NonNullable<(typeof steps)[0]>;
  return body as StepBody;
}

const table = (check: object, name = '') => ({ action: 'assertTable', table: name, check });

describe('table phrases as people write them', () => {
  it.each<[string, object]>([
    ['the table has 2 rows', table({ kind: 'rowCount', count: 2, comparison: 'eq' })],
    ['The grid shows 3 results', table({ kind: 'rowCount', count: 3, comparison: 'eq' })],
    [
      'the Users table should have at least 2 entries',
      table({ kind: 'rowCount', count: 2, comparison: 'gte' }, 'Users'),
    ],
    [
      'there should be 4 rows in the "Open orders" grid',
      table({ kind: 'rowCount', count: 4, comparison: 'eq' }, 'Open orders'),
    ],
    ['the table shows no results', table({ kind: 'rowCount', count: 0, comparison: 'eq' })],
    [
      `the first row's name is "Ada"`,
      table({ kind: 'cell', row: 1, column: 'name', mode: 'equals', expected: 'Ada', negate: false }),
    ],
    [
      'the Name of the first row is Ada',
      table({ kind: 'cell', row: 1, column: 'Name', mode: 'equals', expected: 'Ada', negate: false }),
    ],
    [
      'the email in row 2 should be "grace@x.io"',
      table({ kind: 'cell', row: 2, column: 'email', mode: 'equals', expected: 'grace@x.io', negate: false }),
    ],
    [
      `the last row's Price contains "12"`,
      table({ kind: 'cell', row: -1, column: 'Price', mode: 'contains', expected: '12', negate: false }),
    ],
    ['the table shows "Ada" and "Grace"', table({ kind: 'shows', values: ['Ada', 'Grace'], negate: false })],
    [
      'the table shows Ada, Grace and Linus',
      table({ kind: 'shows', values: ['Ada', 'Grace', 'Linus'], negate: false }),
    ],
    ["the table doesn't show Linus", table({ kind: 'shows', values: ['Linus'], negate: true })],
    [
      'row 2 contains "Grace"',
      table({ kind: 'row', row: 2, mode: 'contains', expected: 'Grace', negate: false }),
    ],
    [
      'the 3rd row of the table shows Linus',
      table({ kind: 'row', row: 3, mode: 'contains', expected: 'Linus', negate: false }),
    ],
    [
      'the Email column contains "ada@x.io"',
      table({ kind: 'column', column: 'Email', mode: 'contains', expected: 'ada@x.io', negate: false }),
    ],
    ['the table is sorted by Name', table({ kind: 'sorted', column: 'Name', direction: 'either' })],
    ['Name is sorted descending', table({ kind: 'sorted', column: 'Name', direction: 'descending' })],
    [
      'the rows are sorted by Price from high to low',
      table({ kind: 'sorted', column: 'Price', direction: 'descending' }),
    ],
    ['the table is empty', table({ kind: 'empty', negate: false })],
    ['the grid should not be empty', table({ kind: 'empty', negate: true })],
    ['page 2 of 5 is shown', table({ kind: 'page', page: 2, of: 5 })],
    ['I am on page 3', table({ kind: 'page', page: 3 })],
  ])('%s', (text, body) => {
    expect(parsed(text)).toEqual(body);
  });

  it('leaves the phrasings other rules own as they were', () => {
    expect(parsed('The last row contains "Grace"')?.action).toBe('assertElementText');
    expect(parsed('the price of "Blue mug" is "€12"')?.action).toBe('assertElementText');
    expect(parsed('there are 3 "Delete" buttons')?.action).toBe('assertCount');
    expect(parsed('the list has 3 items')?.action).toBe('assertCount');
    expect(parsed('the number of rows is 5')?.action).toBe('assertCount');
  });
});

const USERS: TableRead = {
  name: 'Users',
  headers: ['Name', 'Email ▲', 'Age'],
  rows: [
    ['Ada Lovelace', 'ada@x.io', '36'],
    ['Adam Smith', 'adam@x.io', '67'],
    ['Grace Hopper', 'grace@x.io', '85'],
  ],
  total: null,
  sort: [null, 'ascending', null],
  placeholder: null,
};

describe('judging a table read', () => {
  it('a value is shown by a cell holding it as whole words, never inside a longer word or number', () => {
    expect(cellShows('Ada Lovelace', 'Ada')).toBe(true);
    expect(cellShows('Adam Smith', 'Ada')).toBe(false);
    expect(cellShows('€120', '€12')).toBe(false);
  });

  it('finds a column by its header, sort marks and all', () => {
    expect(columnIndex(USERS.headers, 'email')).toBe(1);
    expect(columnIndex(USERS.headers, 'Phone')).toBe(-1);
  });

  it('holds and fails as the data says', () => {
    const verdict = (check: Parameters<typeof judgeTable>[1]) => judgeTable(USERS, check, 'the table').ok;
    expect(verdict({ kind: 'shows', values: ['Ada', 'Grace'], negate: false })).toBe(true);
    expect(verdict({ kind: 'shows', values: ['Ada', 'Linus'], negate: false })).toBe(false);
    expect(verdict({ kind: 'shows', values: ['Linus'], negate: true })).toBe(true);
    expect(
      verdict({
        kind: 'cell',
        row: 2,
        column: 'Name',
        mode: 'equals',
        expected: 'Adam Smith',
        negate: false,
      }),
    ).toBe(true);
    expect(
      verdict({
        kind: 'cell',
        row: 2,
        column: 'Name',
        mode: 'equals',
        expected: 'Ada Lovelace',
        negate: false,
      }),
    ).toBe(false);
    expect(verdict({ kind: 'sorted', column: 'Age', direction: 'ascending' })).toBe(true);
    expect(verdict({ kind: 'sorted', column: 'Age', direction: 'descending' })).toBe(false);
    expect(verdict({ kind: 'sorted', column: 'Email', direction: 'either' })).toBe(true);
    expect(
      verdict({ kind: 'column', column: 'Email', mode: 'contains', expected: 'grace@x.io', negate: false }),
    ).toBe(true);
    expect(
      verdict({ kind: 'column', column: 'Name', mode: 'contains', expected: 'grace@x.io', negate: false }),
    ).toBe(false);
    expect(verdict({ kind: 'rowCount', count: 3, comparison: 'eq' })).toBe(true);
    expect(verdict({ kind: 'empty', negate: false })).toBe(false);
  });

  it('picks the named table, and names the ambiguity when several are there', () => {
    const teams = { ...USERS, name: 'Teams' };
    expect(pickTable([USERS, teams], 'Teams').table).toBe(teams);
    expect(pickTable([USERS, teams], '').problem).toContain('2 tables');
    expect(pickTable([], '').problem).toContain('no table');
  });
});
