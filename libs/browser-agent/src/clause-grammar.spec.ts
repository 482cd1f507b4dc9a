import { describe, expect, it } from '@jest/globals';
import { parseInstructions } from './instruction-parser.js';
import type { Step, StepBody } from './step-types.js';

/** The steps a query reads as, each as [text as written, what it does]. */
function read(query: string): Array<[string, StepBody]> {
  const { steps, unknown } = parseInstructions(query);
  expect(unknown).toEqual([]);
  return steps.map((step: Step) => {
    const { index: _index, text, ...body } = step;
    return [text, body as StepBody];
  });
}

const click = (name: string, role?: 'button') => ({
  action: 'click',
  target: role ? { name, role } : { name },
  clickCount: 1,
  button: 'left',
});

describe('clause grammar: several actions in one sentence', () => {
  it('carries the verb and the container into the clause that lacks them', () => {
    expect(
      read('Enter the username "ada" and the password "x1" into the text fields and press Log in'),
    ).toEqual([
      [
        'Enter the username "ada"',
        { action: 'type', value: 'ada', target: { name: 'username', role: 'textbox' } },
      ],
      [
        'the password "x1" into the text fields',
        { action: 'type', value: 'x1', target: { name: 'password', role: 'textbox' } },
      ],
      ['press Log in', click('Log in')],
    ]);
  });

  it('keeps clauses joined by commas, "then", "and then", "after that" and ";" in order', () => {
    expect(read('Click button ONE, then click button TWO').map(([, body]) => body)).toEqual([
      click('ONE', 'button'),
      click('TWO', 'button'),
    ]);
    const texts = (q: string) => read(q).map(([text]) => text);
    expect(texts('Click "A"; click "B"')).toEqual(['Click "A"', 'click "B"']);
    expect(texts('Click "A" and then click "B"')).toEqual(['Click "A"', 'click "B"']);
    expect(texts('Click "A", after that click "B", then click "C"')).toEqual([
      'Click "A"',
      'click "B"',
      'click "C"',
    ]);
  });

  it('reads a value for a spinner or slider, then the next action', () => {
    expect(read('Select -3 with the spinner and hit Submit')).toEqual([
      [
        'Select -3 with the spinner',
        { action: 'type', value: '-3', target: { name: '', role: 'spinbutton' } },
      ],
      ['hit Submit', click('Submit')],
    ]);
    // The widget rules read this one first: the locator finds a slider whose markup says "volume".
    expect(read('Set 40 on the volume slider')[0]?.[1]).toEqual({
      action: 'type',
      value: '40',
      target: { name: 'volume slider' },
    });
  });

  it('reads ordinals on both sides of "and"', () => {
    expect(read('Check the 1st radio button and type "3" into the 2nd textbox').map(([, b]) => b)).toEqual([
      { action: 'check', target: { name: '', role: 'radio', nth: 1 } },
      { action: 'type', value: '3', target: { name: '', role: 'textbox', nth: 2 } },
    ]);
  });

  it('carries the verb and the noun into "…, "b" in the second"', () => {
    expect(read('Type "a" in the first field, "b" in the second')).toEqual([
      [
        'Type "a" in the first field',
        { action: 'type', value: 'a', target: { name: '', role: 'textbox', nth: 1 } },
      ],
      ['"b" in the second', { action: 'type', value: 'b', target: { name: '', role: 'textbox', nth: 2 } }],
    ]);
  });

  it('carries "fill in" into each "X with Y" and ends with a new verb', () => {
    expect(read('Fill in Name with "Ada", Email with "a@b.c" and submit')).toEqual([
      ['Fill in Name with "Ada"', { action: 'type', value: 'Ada', target: { name: 'Name' } }],
      ['Email with "a@b.c"', { action: 'type', value: 'a@b.c', target: { name: 'Email' } }],
      ['submit', { action: 'submit' }],
    ]);
  });

  it('reads a list after "select" or "check" as one check step per label', () => {
    expect(read('Select Apple, Kiwi and Plum and click Submit').map(([, b]) => b)).toEqual([
      { action: 'check', target: { name: 'Apple' } },
      { action: 'check', target: { name: 'Kiwi' } },
      { action: 'check', target: { name: 'Plum' } },
      click('Submit'),
    ]);
    expect(read('Uncheck "A" and "B"').map(([, b]) => b)).toEqual([
      { action: 'uncheck', target: { name: 'A' } },
      { action: 'uncheck', target: { name: 'B' } },
    ]);
  });

  it('keeps names with "and" whole when nothing says they are two clauses', () => {
    expect(read('click Terms and Conditions').map(([, b]) => b)).toEqual([click('Terms and Conditions')]);
    expect(read('Click Save and update').map(([, b]) => b)).toEqual([click('Save and update')]);
    expect(read('the Terms and conditions checkbox is checked')).toHaveLength(1);
    expect(read('Check the Terms and conditions checkbox').map(([, b]) => b)).toEqual([
      { action: 'check', target: { name: 'Terms and conditions', role: 'checkbox' } },
    ]);
    expect(read('Tick Milk and Eggs').map(([, b]) => b)).toEqual([
      { action: 'check', target: { name: 'Milk and Eggs' } },
    ]);
    expect(read('Check Apple, Kiwi and Plum')).toHaveLength(3);
  });

  it('reads "it" as the item named last, also after it was renamed', () => {
    expect(
      read('Double-click "Buy milk", change it to "Buy bread", press Enter, then delete it').map(([t, b]) => [
        t,
        b.action,
        'target' in b ? b.target : undefined,
      ]),
    ).toEqual([
      ['Double-click "Buy milk"', 'click', { name: 'Buy milk' }],
      ['change it to "Buy bread"', 'type', undefined],
      ['press Enter', 'press', undefined],
      ['delete it', 'click', { name: 'delete', role: 'button', near: 'Buy bread' }],
    ]);
  });

  it('stays linear on long lists of clauses', () => {
    const many = `Select ${Array.from({ length: 120 }, (_, i) => `I${i}`).join(', ')}`;
    const hostile = `Type "a" in the first field${', "b" in the x and'.repeat(40)}`;
    const started = Date.now();
    expect(parseInstructions(many).steps.length).toBeGreaterThan(0);
    expect(() => parseInstructions(hostile)).not.toThrow();
    expect(parseInstructions(`${'click x and '.repeat(150)}`).steps).toHaveLength(150);
    expect(Date.now() - started).toBeLessThan(3000);
  });
});

/** The target of a one-step query. */
function targetOf(query: string): unknown {
  const [[, body] = ['', undefined]] = read(query);
  return body && 'target' in body ? body.target : undefined;
}

describe('targets named by position', () => {
  it.each([
    ['click the 2nd text box', { name: '', role: 'textbox', nth: 2 }],
    ['check the third checkbox', { name: '', role: 'checkbox', nth: 3 }],
    ['check the eleventh checkbox', { name: '', role: 'checkbox', nth: 11 }],
    ['click the 21st link', { name: '', role: 'link', nth: 21 }],
    ['click the last link', { name: '', role: 'link', nth: -1 }],
    ['click the second-to-last row', { name: '', role: 'row', nth: -2 }],
    ['click the next to last link', { name: '', role: 'link', nth: -2 }],
    ['click the penultimate item', { name: '', role: 'listitem', nth: -2 }],
    ['click the last but one button', { name: '', role: 'button', nth: -2 }],
    ['click the third from last row', { name: '', role: 'row', nth: -3 }],
    ['type "x" into the second text box from the end', { name: '', role: 'textbox', nth: -2 }],
    ['click the first Delete button in the 2nd row', { name: 'Delete', role: 'button', nth: 1, inRow: 2 }],
    ['click Delete in the second to last row', { name: 'Delete', inRow: -2 }],
    ['click the 2nd spinner', { name: '', role: 'spinbutton', nth: 2 }],
    ['click the first column header', { name: '', role: 'columnheader', nth: 1 }],
  ])('%s', (query, expected) => {
    expect(targetOf(query)).toEqual(expected);
  });

  it('reads "the second one" as the kind of thing named before', () => {
    expect(
      read('Click the first link. Then click the second one').map(([, b]) => 'target' in b && b.target),
    ).toEqual([
      { name: '', role: 'link', nth: 1 },
      { name: '', role: 'link', nth: 2 },
    ]);
  });

  it('keeps names that start like a position', () => {
    expect(targetOf('type "Lovelace" into the Last name field')).toEqual({
      name: 'Last name',
      role: 'textbox',
    });
    expect(targetOf('click First steps')).toEqual({ name: 'First steps' });
  });
});

describe('targets that mean every match', () => {
  it.each([
    ['Check all the checkboxes', { name: '', role: 'checkbox', all: true }],
    ['Uncheck every item', { name: '', role: 'listitem', all: true }],
    ['Type "x" into both fields', { name: '', role: 'textbox', all: true, count: 2 }],
    ['Click Reply on every post by @ada', { name: 'Reply', near: '@ada', all: true }],
    ['Click Reply on each post', { name: 'Reply', all: true }],
    [
      'Click the Like button on every post by "Grace Hopper"',
      { name: 'Like', role: 'button', near: 'Grace Hopper', all: true },
    ],
    ['Select all the checkboxes', { name: '', role: 'checkbox', all: true }],
  ])('%s', (query, expected) => {
    expect(targetOf(query)).toEqual(expected);
  });

  it('keeps the toggle-all checkbox of "check all items" and text that says "all"', () => {
    expect(targetOf('Check all items')).toEqual({ name: 'all', role: 'checkbox' });
    expect(read('the page shows "all of them"')[0]?.[1]).toEqual({
      action: 'assertText',
      expected: 'all of them',
      negate: false,
    });
  });

  it('types "the password" given before into both fields, and never guesses one not given', () => {
    expect(
      read('Type "s3cret" into the Password field, then type the password into both fields').map(
        ([, b]) => b,
      ),
    ).toEqual([
      { action: 'type', value: 's3cret', target: { name: 'Password', role: 'textbox' } },
      { action: 'type', value: 's3cret', target: { name: 'input[type="password"]', all: true, count: 2 } },
    ]);
    expect(
      read(
        'Enter the password "x1" and the password into both fields'.replace(
          ' and the password into both fields',
          '',
        ),
      ).length,
    ).toBe(1);
    const { steps, unknown } = parseInstructions('Type the password into both fields');
    expect(steps).toEqual([]);
    expect(unknown).toEqual([{ index: 1, text: 'Type the password into both fields' }]);
  });
});

describe('values read from the page, and transforms', () => {
  it('reads a table cell, then types it', () => {
    expect(read('Enter the value of Color from the table into the field').map(([, b]) => b)).toEqual([
      { action: 'readValue', label: 'Color', name: 'Color' },
      { action: 'type', value: '', valueFrom: 'Color', target: { name: '', role: 'textbox' } },
    ]);
  });

  it('copies and pastes', () => {
    expect(read('Copy the text in the textarea and paste it into the box').map(([, b]) => b)).toEqual([
      { action: 'readValue', target: { name: 'textarea', role: 'textbox' }, name: 'clipboard' },
      { action: 'type', value: '', valueFrom: 'clipboard', target: { name: '', role: 'textbox' } },
    ]);
  });

  it('remembers a value under a name and types it by that name', () => {
    expect(
      read('Remember the order number as ORDER, then type ORDER into the reference field').map(([, b]) => b),
    ).toEqual([
      { action: 'readValue', target: { name: 'order number' }, name: 'ORDER' },
      { action: 'type', value: '', valueFrom: 'ORDER', target: { name: 'reference', role: 'textbox' } },
    ]);
    expect(read('Remember the total. Type the total into the Amount field').map(([, b]) => b)).toEqual([
      { action: 'readValue', target: { name: 'total' }, name: 'total' },
      { action: 'type', value: '', valueFrom: 'total', target: { name: 'Amount', role: 'textbox' } },
    ]);
    // Without an earlier read, ORDER is just text.
    expect(read('type ORDER into the field')[0]?.[1]).toMatchObject({ action: 'type', value: 'ORDER' });
  });

  it.each([
    ['Type "ADA" in lower case into the name field', 'ada'],
    ['Type "ada" into the name field in upper case', 'ADA'],
    ['Type " a b " without spaces into the name field', 'ab'],
    ['Type "abc" reversed into the name field', 'cba'],
    ['Type "  x  " trimmed into the name field', 'x'],
  ])('%s', (query, value) => {
    expect(read(query)[0]?.[1]).toEqual({ action: 'type', value, target: { name: 'name', role: 'textbox' } });
  });

  it('transforms a value read from the page when it is typed, once', () => {
    expect(
      read('Enter the value of Price from the table reversed into the Code field').map(([, b]) => b),
    ).toEqual([
      { action: 'readValue', label: 'Price', name: 'Price' },
      {
        action: 'type',
        value: '',
        valueFrom: 'Price',
        target: { name: 'Code', role: 'textbox' },
        transforms: ['reversed'],
      },
    ]);
  });

  it('keeps names that only look like a transform', () => {
    expect(read('Type "x" into the Upper case field')[0]?.[1]).toEqual({
      action: 'type',
      value: 'x',
      target: { name: 'Upper case', role: 'textbox' },
    });
  });
});
