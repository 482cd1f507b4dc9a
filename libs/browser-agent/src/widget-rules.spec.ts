import { describe, expect, it } from '@jest/globals';
import { parseInstructions } from './instruction-parser.js';

const one = (text: string) => {
  const { steps, unknown } = parseInstructions(text);
  expect(unknown).toEqual([]);
  expect(steps).toHaveLength(1);
  const { index: _index, text: _text, ...body } = steps[0] as unknown as Record<string, unknown>;
  return body;
};

describe('widget, means and purpose phrasings', () => {
  it('reads a menu path as the levels to open, then the item to click', () => {
    expect(one('Open File > Export > PDF')).toEqual({
      action: 'click',
      target: { name: 'PDF' },
      clickCount: 1,
      button: 'left',
      menuPath: ['File', 'Export'],
    });
    expect(one('Choose "Edit" → "Paste special"')).toMatchObject({
      target: { name: 'Paste special' },
      menuPath: ['Edit'],
    });
    // A CSS child selector is not a menu.
    expect(one('click div > button')).not.toHaveProperty('menuPath');
  });

  it('reads sorting as clicking the column header, with the order when one is named', () => {
    expect(one('Sort by "Orders"')).toMatchObject({
      action: 'click',
      target: { name: 'Orders', role: 'columnheader' },
    });
    expect(one('sort the table by Name descending')).toMatchObject({
      target: { name: 'Name', role: 'columnheader' },
      sort: 'descending',
    });
    expect(one('Sort the Price column from low to high')).toMatchObject({
      target: { name: 'Price' },
      sort: 'ascending',
    });
  });

  it('reads a search as typing into the search box and submitting', () => {
    expect(one('Search for "Hello"')).toEqual({
      action: 'type',
      value: 'Hello',
      target: { name: 'search', role: 'searchbox' },
      submit: true,
    });
  });

  it('reads replacing text, selecting all and closing a dialog', () => {
    expect(one('Replace "Hello World" with "Hi"')).toEqual({
      action: 'type',
      value: 'Hi',
      find: 'Hello World',
    });
    expect(one('Select all the text (Ctrl+A)')).toEqual({
      action: 'press',
      keys: ['Control', 'a'],
      repeat: 1,
    });
    expect(one('Close the dialog')).toMatchObject({
      action: 'click',
      target: { name: 'close', role: 'button' },
    });
    // "Select all" stays the select-all checkbox.
    expect(one('Select all')).toMatchObject({ action: 'check', target: { name: 'all', role: 'checkbox' } });
  });

  it('reads the means after "by" as the step, and leaves out a purpose after "to"', () => {
    expect(one('Close the dialog by clicking the x')).toMatchObject({
      action: 'click',
      target: { name: 'x' },
    });
    expect(one('Click the x to close the dialog')).toMatchObject({ action: 'click', target: { name: 'x' } });
  });

  it('reads values set with a spinner or slider, and dates and times', () => {
    // "the spinner" alone names its role (the target phrase reads widget nouns as roles).
    expect(one('Select -3 with the spinner')).toMatchObject({
      action: 'type',
      value: '-3',
      target: { role: 'spinbutton' },
    });
    expect(one('increase the quantity to 4')).toMatchObject({
      action: 'type',
      value: '4',
      target: { name: 'quantity' },
    });
    expect(one('Set the slider to 30')).toMatchObject({ action: 'type', value: '30' });
    expect(one('Enter 10/11/2011 as the date')).toMatchObject({
      action: 'type',
      value: '10/11/2011',
      target: { name: 'date' },
    });
    expect(one('Enter 8:04 PM as the time')).toMatchObject({
      action: 'type',
      value: '8:04 PM',
      target: { name: 'time' },
    });
    expect(one('pick 15 March 2024 in the date picker')).toMatchObject({
      action: 'type',
      value: '15 March 2024',
    });
  });

  it('reads selects and tree items', () => {
    expect(one('Select Bobine from the list')).toMatchObject({ action: 'select', option: 'Bobine' });
    expect(one('Choose 5ft 9in from the dropdown')).toMatchObject({ action: 'select', option: '5ft 9in' });
    expect(one('Pick "Berlin" from the suggestions')).toMatchObject({ action: 'select', option: 'Berlin' });
    expect(one('Expand Documents in the tree')).toMatchObject({
      action: 'click',
      target: { name: 'Documents', role: 'treeitem' },
    });
    expect(one('Expand the section below')).toMatchObject({ action: 'click' });
  });
});
