import { describe, expect, it } from '@jest/globals';
import { normalizeUrl, parseInstructions, SUPPORTED_PHRASINGS } from './instruction-parser.js';
import type { Step, StepBody, Target } from './step-types.js';

function only(query: string): StepBody {
  const { steps, unknown } = parseInstructions(query);
  expect(unknown).toEqual([]);
  expect(steps).toHaveLength(1);
  const { index: _index, text: _text, ...body } = steps[0] as Step;
  return body as StepBody;
}

const button = (name: string) => ({ name, role: 'button' as const });

const PHRASINGS: ReadonlyArray<readonly [string, StepBody]> = [
  // Navigation
  ['open https://example.com/login', { action: 'navigate', url: 'https://example.com/login' }],
  ['Go to localhost:3000/x', { action: 'navigate', url: 'http://localhost:3000/x' }],
  ['visit example.com', { action: 'navigate', url: 'https://example.com' }],
  ['Please navigate to 127.0.0.1:8080', { action: 'navigate', url: 'http://127.0.0.1:8080' }],
  ['navigate to the page "http://a.b/c?d=1&e=2#f"', { action: 'navigate', url: 'http://a.b/c?d=1&e=2#f' }],
  ['open the url <https://example.org>', { action: 'navigate', url: 'https://example.org' }],
  ['go to /login', { action: 'navigate', url: '/login' }],
  ['the user opens example.com/pricing', { action: 'navigate', url: 'https://example.com/pricing' }],
  ['go back', { action: 'goBack' }],
  ['Navigate back to the previous page', { action: 'goBack' }],
  ['go forward', { action: 'goForward' }],
  ['reload the page', { action: 'reload' }],
  ['Refresh', { action: 'reload' }],
  // Clicks
  ['click "Sign in"', { action: 'click', target: { name: 'Sign in' }, clickCount: 1, button: 'left' }],
  ['Click the Submit button', { action: 'click', target: button('Submit'), clickCount: 1, button: 'left' }],
  [
    'click on the “Learn more” link',
    { action: 'click', target: { name: 'Learn more', role: 'link' }, clickCount: 1, button: 'left' },
  ],
  [
    'tap the link Learn more',
    { action: 'click', target: { name: 'Learn more', role: 'link' }, clickCount: 1, button: 'left' },
  ],
  ['press the Enter button', { action: 'click', target: button('Enter'), clickCount: 1, button: 'left' }],
  ['click Enter', { action: 'click', target: { name: 'Enter' }, clickCount: 1, button: 'left' }],
  [
    'double-click the ‘Row 1’ cell',
    { action: 'click', target: { name: 'Row 1', role: 'cell' }, clickCount: 2, button: 'left' },
  ],
  ['right-click `File`', { action: 'click', target: { name: 'File' }, clickCount: 1, button: 'right' }],
  [
    'click the second "Delete" button',
    { action: 'click', target: { name: 'Delete', role: 'button', nth: 2 }, clickCount: 1, button: 'left' },
  ],
  [
    'click the last link',
    { action: 'click', target: { name: '', role: 'link', nth: -1 }, clickCount: 1, button: 'left' },
  ],
  [
    'click the button labelled Save',
    { action: 'click', target: button('Save'), clickCount: 1, button: 'left' },
  ],
  ['click #submit', { action: 'click', target: { name: '#submit' }, clickCount: 1, button: 'left' }],
  [
    'the user clicks the Login button',
    { action: 'click', target: button('Login'), clickCount: 1, button: 'left' },
  ],
  ['click Select All', { action: 'click', target: { name: 'Select All' }, clickCount: 1, button: 'left' }],
  [
    'click the Settings tab',
    { action: 'click', target: { name: 'Settings', role: 'tab' }, clickCount: 1, button: 'left' },
  ],
  ['click the close icon', { action: 'click', target: { name: 'close' }, clickCount: 1, button: 'left' }],
  // Typing
  [
    'type "jane@example.com" into the email field',
    { action: 'type', value: 'jane@example.com', target: { name: 'email', role: 'textbox' } },
  ],
  [
    "Enter 'secret' in the Password field",
    { action: 'type', value: 'secret', target: { name: 'Password', role: 'textbox' } },
  ],
  [
    'fill the "Password" field with “hunter2”',
    { action: 'type', value: 'hunter2', target: { name: 'Password', role: 'textbox' } },
  ],
  ['fill in email with jane@x.io', { action: 'type', value: 'jane@x.io', target: { name: 'email' } }],
  [
    'input "42" into the Quantity box',
    { action: 'type', value: '42', target: { name: 'Quantity', role: 'textbox' } },
  ],
  [
    'type hello world into the search box',
    { action: 'type', value: 'hello world', target: { name: 'search', role: 'textbox' } },
  ],
  ['enter "secret" as the password', { action: 'type', value: 'secret', target: { name: 'password' } }],
  ['type "abc"', { action: 'type', value: 'abc' }],
  ["type 'it's fine' into the notes", { action: 'type', value: "it's fine", target: { name: 'notes' } }],
  ['clear the search field', { action: 'clear', target: { name: 'search', role: 'textbox' } }],
  // Keys
  ['press Enter', { action: 'press', keys: ['Enter'], repeat: 1 }],
  ['hit return', { action: 'press', keys: ['Enter'], repeat: 1 }],
  ['press Tab 3 times', { action: 'press', keys: ['Tab'], repeat: 3 }],
  ['press Ctrl+A', { action: 'press', keys: ['Control', 'a'], repeat: 1 }],
  ['press control + shift + k', { action: 'press', keys: ['Control', 'Shift', 'k'], repeat: 1 }],
  ['press the down arrow key twice', { action: 'press', keys: ['ArrowDown'], repeat: 2 }],
  [
    'press Esc in the search field',
    { action: 'press', keys: ['Escape'], repeat: 1, target: { name: 'search', role: 'textbox' } },
  ],
  ['press ArrowDown', { action: 'press', keys: ['ArrowDown'], repeat: 1 }],
  // Forms
  [
    'select "Blue" from the Color dropdown',
    { action: 'select', option: 'Blue', target: { name: 'Color', role: 'combobox' } },
  ],
  [
    'choose the option "Express" in Shipping',
    { action: 'select', option: 'Express', target: { name: 'Shipping' } },
  ],
  [
    'set the Country drop-down to "France"',
    { action: 'select', option: 'France', target: { name: 'Country', role: 'combobox' } },
  ],
  [
    'check the "Remember me" checkbox',
    { action: 'check', target: { name: 'Remember me', role: 'checkbox' } },
  ],
  ['tick the Terms box', { action: 'check', target: { name: 'Terms' } }],
  ['uncheck "Subscribe"', { action: 'uncheck', target: { name: 'Subscribe' } }],
  ['select the "Express" radio button', { action: 'check', target: { name: 'Express', role: 'radio' } }],
  ['turn on the Dark mode switch', { action: 'check', target: { name: 'Dark mode', role: 'switch' } }],
  ['submit the form', { action: 'submit' }],
  ['focus the email field', { action: 'focus', target: { name: 'email', role: 'textbox' } }],
  // Pointer and scrolling
  ['hover over the Products menu', { action: 'hover', target: { name: 'Products' } }],
  ['mouse over "Help"', { action: 'hover', target: { name: 'Help' } }],
  ['scroll down', { action: 'scroll', direction: 'down' }],
  ['scroll up 200 px', { action: 'scroll', direction: 'up', pixels: 200 }],
  ['scroll down 500 pixels', { action: 'scroll', direction: 'down', pixels: 500 }],
  ['scroll to the bottom of the page', { action: 'scroll', direction: 'bottom' }],
  ['Scroll to the top', { action: 'scroll', direction: 'top' }],
  ['scroll to the footer', { action: 'scrollTo', target: { name: 'footer' } }],
  [
    'scroll to the bottom of the text area',
    { action: 'scroll', direction: 'bottom', target: { name: 'textarea', role: 'textbox' } },
  ],
  ['scroll the list up', { action: 'scroll', direction: 'up', target: { name: 'list' } }],
  ['scroll the page to the top', { action: 'scroll', direction: 'top' }],
  ['scroll the "Contact" section into view', { action: 'scrollTo', target: { name: 'Contact' } }],
  // Waiting
  ['wait 2 seconds', { action: 'wait', ms: 2000 }],
  ['wait for 500 ms', { action: 'wait', ms: 500 }],
  ['wait 1.5s', { action: 'wait', ms: 1500 }],
  ['wait a moment', { action: 'wait', ms: 1000 }],
  ['wait for "Saved" to appear', { action: 'waitForText', expected: 'Saved', state: 'visible' }],
  ['wait until "Loading…" disappears', { action: 'waitForText', expected: 'Loading…', state: 'hidden' }],
  [
    'wait up to 10 seconds for "Done"',
    { action: 'waitForText', expected: 'Done', state: 'visible', timeoutMs: 10000 },
  ],
  ['wait for the Submit button', { action: 'waitForElement', target: button('Submit'), state: 'visible' }],
  ['wait for the page to load', { action: 'waitForLoad' }],
  [
    'wait until the URL contains "/dashboard"',
    { action: 'assertUrl', mode: 'contains', expected: '/dashboard', negate: false, patient: true },
  ],
  [
    'wait for the Save button to be enabled',
    { action: 'assertState', target: button('Save'), state: 'enabled', patient: true },
  ],
  // Assertions on the page
  ['the page contains "Welcome"', { action: 'assertText', expected: 'Welcome', negate: false }],
  [
    'verify that the page shows Welcome back',
    { action: 'assertText', expected: 'Welcome back', negate: false },
  ],
  ['Make sure the page does not contain "Error"', { action: 'assertText', expected: 'Error', negate: true }],
  ["check that the page doesn't show 'Oops'", { action: 'assertText', expected: 'Oops', negate: true }],
  ['I should see "Welcome back"', { action: 'assertText', expected: 'Welcome back', negate: false }],
  ['you should not see "Error"', { action: 'assertText', expected: 'Error', negate: true }],
  ['the text "Thanks" is displayed', { action: 'assertText', expected: 'Thanks', negate: false }],
  ['there is no "Error"', { action: 'assertText', expected: 'Error', negate: true }],
  [
    'the title is "Dashboard"',
    { action: 'assertTitle', mode: 'equals', expected: 'Dashboard', negate: false },
  ],
  [
    'expect the title to be "Dashboard"',
    { action: 'assertTitle', mode: 'equals', expected: 'Dashboard', negate: false },
  ],
  [
    'the page title should contain "Dash"',
    { action: 'assertTitle', mode: 'contains', expected: 'Dash', negate: false },
  ],
  [
    'assert that the title does not contain "Login"',
    { action: 'assertTitle', mode: 'contains', expected: 'Login', negate: true },
  ],
  [
    'the URL is http://localhost:3000/x',
    { action: 'assertUrl', mode: 'equals', expected: 'http://localhost:3000/x', negate: false },
  ],
  [
    'the URL contains "/orders"',
    { action: 'assertUrl', mode: 'contains', expected: '/orders', negate: false },
  ],
  [
    'the url should end with /dashboard',
    { action: 'assertUrl', mode: 'endsWith', expected: '/dashboard', negate: false },
  ],
  [
    'the current URL starts with "https://"',
    { action: 'assertUrl', mode: 'startsWith', expected: 'https://', negate: false },
  ],
  [
    'I am redirected to "/dashboard"',
    { action: 'assertUrl', mode: 'contains', expected: '/dashboard', negate: false },
  ],
  // Assertions on elements
  ['the Submit button is disabled', { action: 'assertState', target: button('Submit'), state: 'disabled' }],
  [
    'the Save button should not be enabled',
    { action: 'assertState', target: button('Save'), state: 'disabled' },
  ],
  ['"Sign in" is visible', { action: 'assertState', target: { name: 'Sign in' }, state: 'visible' }],
  ["'Sign in' is not visible", { action: 'assertState', target: { name: 'Sign in' }, state: 'hidden' }],
  ['the error message is hidden', { action: 'assertState', target: { name: 'error' }, state: 'hidden' }],
  [
    'the "Remember me" checkbox is checked',
    { action: 'assertState', target: { name: 'Remember me', role: 'checkbox' }, state: 'checked' },
  ],
  [
    'check that the Terms checkbox is unchecked',
    { action: 'assertState', target: { name: 'Terms', role: 'checkbox' }, state: 'unchecked' },
  ],
  [
    'the email field is empty',
    { action: 'assertState', target: { name: 'email', role: 'textbox' }, state: 'empty' },
  ],
  ['the dialog is gone', { action: 'assertState', target: { name: '', role: 'dialog' }, state: 'hidden' }],
  ['there is a "Sign in" button', { action: 'assertState', target: button('Sign in'), state: 'visible' }],
  ['I see the Checkout button', { action: 'assertState', target: button('Checkout'), state: 'visible' }],
  [
    'the email field has value "a@b.c"',
    {
      action: 'assertValue',
      target: { name: 'email', role: 'textbox' },
      mode: 'equals',
      expected: 'a@b.c',
      negate: false,
    },
  ],
  [
    'the value of the Quantity field is "2"',
    {
      action: 'assertValue',
      target: { name: 'Quantity', role: 'textbox' },
      mode: 'equals',
      expected: '2',
      negate: false,
    },
  ],
  [
    'the email field is "a@b.c"',
    {
      action: 'assertValue',
      target: { name: 'email', role: 'textbox' },
      mode: 'equals',
      expected: 'a@b.c',
      negate: false,
    },
  ],
  [
    'the status message contains "Done"',
    {
      action: 'assertElementText',
      target: { name: 'status' },
      expected: 'Done',
      mode: 'contains',
      negate: false,
    },
  ],
  [
    'the heading has text "Welcome"',
    {
      action: 'assertElementText',
      target: { name: '', role: 'heading' },
      expected: 'Welcome',
      mode: 'equals',
      negate: false,
    },
  ],
  [
    'the "Total" cell does not contain "$0"',
    {
      action: 'assertElementText',
      target: { name: 'Total', role: 'cell' },
      expected: '$0',
      mode: 'contains',
      negate: true,
    },
  ],
  [
    'there are 3 "Delete" buttons',
    { action: 'assertCount', target: button('Delete'), count: 3, comparison: 'eq' },
  ],
  [
    'there are at least 2 links',
    { action: 'assertCount', target: { name: '', role: 'link' }, count: 2, comparison: 'gte' },
  ],
  [
    'there should be exactly three items in the list',
    { action: 'assertCount', target: { name: '', role: 'listitem' }, count: 3, comparison: 'eq' },
  ],
  [
    'there are no "Error" messages',
    { action: 'assertCount', target: { name: 'Error' }, count: 0, comparison: 'eq' },
  ],
  [
    'the number of rows is 5',
    { action: 'assertCount', target: { name: '', role: 'row' }, count: 5, comparison: 'eq' },
  ],
];

const click = (target: Target): StepBody => ({ action: 'click', target, clickCount: 1, button: 'left' });

/** Rows and neighbours: the element is named by the text beside it. */
const NEIGHBOURS: ReadonlyArray<readonly [string, StepBody]> = [
  [
    'Check the checkbox next to "Buy milk"',
    { action: 'check', target: { name: '', role: 'checkbox', near: 'Buy milk' } },
  ],
  [
    'Click the delete button beside "Walk the dog"',
    click({ name: 'delete', role: 'button', near: 'Walk the dog' }),
  ],
  ['Click Edit in the row with "Ada Lovelace"', click({ name: 'Edit', near: 'Ada Lovelace' })],
  ['Click the archive button in the last row', click({ name: 'archive', role: 'button', inRow: -1 })],
  ['Click the Edit button on the 2nd card', click({ name: 'Edit', role: 'button', inRow: 2 })],
  ['click Edit in the row with Ada Lovelace', click({ name: 'Edit', near: 'Ada Lovelace' })],
  [
    'Click the "Add to cart" button on the "Red mug" card',
    click({ name: 'Add to cart', role: 'button', near: 'Red mug' }),
  ],
  [
    'Check the checkbox in the "Grace Hopper" row',
    { action: 'check', target: { name: '', role: 'checkbox', near: 'Grace Hopper' } },
  ],
  [
    'Click the delete button for "Grace Hopper"',
    click({ name: 'delete', role: 'button', near: 'Grace Hopper' }),
  ],
  [
    'the price of "Blue mug" is "€12"',
    {
      action: 'assertElementText',
      target: { name: 'price', near: 'Blue mug' },
      mode: 'equals',
      expected: '€12',
      negate: false,
    },
  ],
  [
    'The checkbox next to "Buy milk" should be checked',
    { action: 'assertState', target: { name: '', role: 'checkbox', near: 'Buy milk' }, state: 'checked' },
  ],
  ['Delete "Walk the dog"', click({ name: 'delete', role: 'button', near: 'Walk the dog' })],
  [
    'remove the item "Walk the dog" from the list',
    click({ name: 'delete', role: 'button', near: 'Walk the dog' }),
  ],
  ['Mark "Buy milk" as done', { action: 'check', target: { name: 'Buy milk' } }],
  ['Mark "Buy milk" as not done', { action: 'uncheck', target: { name: 'Buy milk' } }],
  // Toggle all, done-ness, filters
  ['Toggle all', click({ name: 'all', role: 'checkbox' })],
  ['Mark all as complete', { action: 'check', target: { name: 'all', role: 'checkbox' } }],
  ['mark all todos as active', { action: 'uncheck', target: { name: 'all', role: 'checkbox' } }],
  ['Uncheck all items', { action: 'uncheck', target: { name: 'all', role: 'checkbox' } }],
  [
    '"Buy milk" should be completed',
    { action: 'assertState', target: { name: 'Buy milk' }, state: 'checked' },
  ],
  ['"Buy milk" is not done', { action: 'assertState', target: { name: 'Buy milk' }, state: 'unchecked' }],
  [
    'The second todo is marked as done',
    { action: 'assertState', target: { name: '', role: 'listitem', nth: 2 }, state: 'checked' },
  ],
  ['Click the Active filter', click({ name: 'Active' })],
  [
    'There are 3 todos',
    { action: 'assertCount', target: { name: '', role: 'listitem' }, count: 3, comparison: 'eq' },
  ],
  // Switches by label, editing in place, keys with a purpose
  ['Turn on "Send me news"', { action: 'check', target: { name: 'Send me news' } }],
  ['switch off "Dark mode"', { action: 'uncheck', target: { name: 'Dark mode' } }],
  ['Change it to "Buy bread"', { action: 'type', value: 'Buy bread', replace: true }],
  ['Edit "Buy milk" to "Buy bread"', { action: 'type', value: 'Buy bread', target: { name: 'Buy milk' } }],
  ['Press Enter to save', { action: 'press', keys: ['Enter'], repeat: 1 }],
  ['hit enter to add it', { action: 'press', keys: ['Enter'], repeat: 1 }],
  // To-do verbs
  ['Complete "Buy milk"', { action: 'check', target: { name: 'Buy milk' } }],
  ['Toggle "Buy milk"', click({ name: '', role: 'checkbox', near: 'Buy milk' })],
  ['Clear completed todos', click({ name: 'Clear completed' })],
  ['"Buy milk" is still there', { action: 'assertState', target: { name: 'Buy milk' }, state: 'visible' }],
  [
    '"Buy milk" should still be visible',
    { action: 'assertState', target: { name: 'Buy milk' }, state: 'visible' },
  ],
  // Counters and gone rows
  ['There should be 2 items left', { action: 'assertText', expected: '2 items left', negate: false }],
  ['there is 1 item left', { action: 'assertText', expected: '1 item left', negate: false }],
  ['"Buy milk" is not in the list', { action: 'assertState', target: { name: 'Buy milk' }, state: 'hidden' }],
  [
    '"Buy milk" should no longer be in the list',
    { action: 'assertState', target: { name: 'Buy milk' }, state: 'hidden' },
  ],
  ['"Buy milk" should be removed', { action: 'assertState', target: { name: 'Buy milk' }, state: 'hidden' }],
  ['"Buy milk" is in the list', { action: 'assertState', target: { name: 'Buy milk' }, state: 'visible' }],
  // Ordinals and counts
  ['Click the second item', click({ name: '', role: 'listitem', nth: 2 })],
  [
    'The last row contains "Grace"',
    {
      action: 'assertElementText',
      target: { name: '', role: 'row', nth: -1 },
      mode: 'contains',
      expected: 'Grace',
      negate: false,
    },
  ],
  [
    'The second item is "Write tests"',
    {
      action: 'assertElementText',
      target: { name: '', role: 'listitem', nth: 2 },
      mode: 'equals',
      expected: 'Write tests',
      negate: false,
    },
  ],
  ['Click the first "Delete" button', click({ name: 'Delete', role: 'button', nth: 1 })],
  [
    'There are 2 items',
    { action: 'assertCount', target: { name: '', role: 'listitem' }, count: 2, comparison: 'eq' },
  ],
  [
    'There is 1 item',
    { action: 'assertCount', target: { name: '', role: 'listitem' }, count: 1, comparison: 'eq' },
  ],
];

describe('parseInstructions: rows, neighbours and ordinals', () => {
  it.each(NEIGHBOURS)('%s', (query, expected) => {
    expect(only(query)).toEqual(expected);
  });

  it('keeps a quoted name that merely contains "of" or "for"', () => {
    expect(only('click "Terms of Service"')).toEqual(click({ name: 'Terms of Service' }));
    expect(only('Click the "Search for flights" button')).toEqual(
      click({ name: 'Search for flights', role: 'button' }),
    );
  });
});

describe('parseInstructions: phrasings', () => {
  it.each(PHRASINGS)('%s', (query, expected) => {
    expect(only(query)).toEqual(expected);
  });

  it('keeps one supported phrasing per construct for error summaries', () => {
    expect(SUPPORTED_PHRASINGS.length).toBeGreaterThanOrEqual(20);
    for (const phrasing of SUPPORTED_PHRASINGS) {
      const example = phrasing.replace(/ \((?:also|e\.g\.).*\)$/, '').split(' / ')[0] ?? '';
      expect(parseInstructions(example).unknown).toEqual([]);
    }
  });
});

const NONSENSE = [
  'fly to the moon',
  'do a barrel roll',
  'asdf qwer',
  'click',
  'open',
  'press',
  'type into the field',
  'make it pop',
  'wait for it',
  'select from the list',
  'scroll sideways forever',
  '42',
  'verify',
  'hover',
  'the page',
  'log in as admin',
  'delete everything',
  'sing a song',
];

describe('parseInstructions: what it does not understand', () => {
  it.each(NONSENSE)('%s', (query) => {
    const { steps, unknown } = parseInstructions(query);
    expect(steps).toEqual([]);
    expect(unknown).toEqual([{ index: 1, text: query }]);
  });

  it('numbers unknown steps together with understood ones', () => {
    const { steps, unknown } = parseInstructions(
      'open example.com\nfly to the moon\nclick Go\ndo a barrel roll',
    );
    expect(steps.map((s) => s.index)).toEqual([1, 3]);
    expect(unknown).toEqual([
      { index: 2, text: 'fly to the moon' },
      { index: 4, text: 'do a barrel roll' },
    ]);
  });
});

function texts(query: string): string[] {
  const { steps, unknown } = parseInstructions(query);
  return [...steps, ...unknown].sort((a, b) => a.index - b.index).map((s) => s.text);
}

describe('parseInstructions: splitting a query into steps', () => {
  it('splits numbered lists, keeping each step as written', () => {
    expect(texts('1. Open example.com\n2) Click "Sign in"\nStep 3: the title is "Home"')).toEqual([
      'Open example.com',
      'Click "Sign in"',
      'the title is "Home"',
    ]);
  });

  it('splits numbered steps written on one line', () => {
    expect(texts('1. open localhost:3000 2. click Sign in 3. the heading says "Welcome"')).toEqual([
      'open localhost:3000',
      'click Sign in',
      'the heading says "Welcome"',
    ]);
    expect(texts('Step 1: open example.com Step 2: click Go')).toEqual(['open example.com', 'click Go']);
  });

  it('splits bulleted lists and plain lines', () => {
    expect(texts('- open example.com\n* click Go\n• press Enter\n\nreload')).toEqual([
      'open example.com',
      'click Go',
      'press Enter',
      'reload',
    ]);
  });

  it('splits sentences and then-chains', () => {
    expect(
      texts(
        'Open example.com. Click Go, then press Enter and then wait 1 second; then reload. After that, go back',
      ),
    ).toEqual(['Open example.com', 'Click Go', 'press Enter', 'wait 1 second', 'reload', 'go back']);
  });

  it('splits ", so" into a step of its own, but keeps a purpose (", so that")', () => {
    expect(texts('There should not be any suggestions, so "Cobol" should not appear anywhere')).toEqual([
      'There should not be any suggestions',
      '"Cobol" should not appear anywhere',
    ]);
    expect(texts('Click Save, so that the form is sent')).toEqual(['Click Save, so that the form is sent']);
  });

  it('splits "and" before a new verb, and between two assertions', () => {
    expect(
      texts(
        "type 'x' into the email field and click Login, then verify the title is 'A' and the URL contains 'b'",
      ),
    ).toEqual([
      "type 'x' into the email field",
      'click Login',
      "verify the title is 'A'",
      "the URL contains 'b'",
    ]);
    expect(texts('the Terms and conditions checkbox is checked')).toEqual([
      'the Terms and conditions checkbox is checked',
    ]);
  });

  it('does not split inside URLs, even before "Then"', () => {
    const { steps } = parseInstructions('Go to http://a.b/c?d=1. Then click X');
    expect(steps.map((s) => s.text)).toEqual(['Go to http://a.b/c?d=1', 'click X']);
    expect(steps[0]).toMatchObject({ action: 'navigate', url: 'http://a.b/c?d=1' });
    expect(texts('open https://x.io/then/and.more?q=1; then click Go')).toEqual([
      'open https://x.io/then/and.more?q=1',
      'click Go',
    ]);
    expect(texts('visit example.com. Click Go')).toEqual(['visit example.com', 'Click Go']);
  });

  it('does not split inside quotes of any kind', () => {
    for (const [open, close] of [
      ['"', '"'],
      ["'", "'"],
      ['“', '”'],
      ['‘', '’'],
      ['`', '`'],
    ] as const) {
      const { steps, unknown } = parseInstructions(
        `type ${open}Hi. Then, and bye${close} into the message box`,
      );
      expect(unknown).toEqual([]);
      expect(steps).toHaveLength(1);
      expect(steps[0]).toMatchObject({ action: 'type', value: 'Hi. Then, and bye' });
    }
  });

  it('treats apostrophes as apostrophes, not quotes', () => {
    expect(only("click the user's 'Profile' link")).toEqual({
      action: 'click',
      target: { name: 'Profile', role: 'link' },
      clickCount: 1,
      button: 'left',
    });
  });

  it('drops polite filler and order words but keeps names that look like them', () => {
    expect(only('Please now click "OK", thanks')).toMatchObject({ action: 'click', target: { name: 'OK' } });
    expect(only('Next button is disabled')).toEqual({
      action: 'assertState',
      target: button('Next'),
      state: 'disabled',
    });
    expect(texts('First, open example.com. Finally, click Next')).toEqual([
      'First, open example.com',
      'Finally, click Next',
    ]);
  });
});

describe('normalizeUrl', () => {
  it.each([
    ['example.com', 'https://example.com'],
    ['localhost:3000/x', 'http://localhost:3000/x'],
    ['192.168.1.10:8080', 'http://192.168.1.10:8080'],
    ['https://a.b/c?d=1', 'https://a.b/c?d=1'],
    ['/login', '/login'],
    ['not a url', undefined],
    ['sign in', undefined],
  ])('%s → %s', (input, expected) => {
    expect(normalizeUrl(input)).toBe(expected);
  });
});

describe('parseInstructions: one sentence, several steps of a kind people write', () => {
  function bodies(query: string): StepBody[] {
    const { steps, unknown } = parseInstructions(query);
    expect(unknown).toEqual([]);
    return steps.map(({ index: _index, text: _text, ...body }) => body as StepBody);
  }
  const newTodo = (value: string): StepBody => ({
    action: 'type',
    value,
    target: { name: 'new todo', role: 'textbox' },
    submit: true,
  });

  it.each([
    ['Add a todo "one"', ['one']],
    ['add todo "Taxes"', ['Taxes']],
    ['Create a new todo called alpha', ['alpha']],
    ['Add "x1" and "x2" as todos', ['x1', 'x2']],
    ['And I add the todos "Read", "Write" and "Sleep"', ['Read', 'Write', 'Sleep']],
  ])('%s adds each to-do with Enter', (query, values) => {
    expect(bodies(query)).toEqual(values.map(newTodo));
  });

  it('reads "add" after another verb as a clause of its own, with its list', () => {
    expect(bodies('Open https://todo.example and add "Buy bread" and "Clean kitchen"')).toEqual([
      { action: 'navigate', url: 'https://todo.example' },
      newTodo('Buy bread'),
      newTodo('Clean kitchen'),
    ]);
    // A name with "and add" in it stays a name.
    expect(bodies('Click "Save and add another"')).toHaveLength(1);
  });

  it('types where the caret is, then Enter, for "write X and do enter"', () => {
    expect(bodies('Write "Go to gym" and do enter')).toEqual([
      { action: 'type', value: 'Go to gym', submit: true },
    ]);
  });

  it('gives each ordinal of a list its own step, with the kind named once', () => {
    expect(bodies('tick the second and the fourth checkboxes')).toEqual([
      { action: 'check', target: { name: '', role: 'checkbox', nth: 2 } },
      { action: 'check', target: { name: '', role: 'checkbox', nth: 4 } },
    ]);
    expect(
      bodies('click the first, the third and the last links').map((b) => 'target' in b && b.target?.nth),
    ).toEqual([1, 3, -1]);
    // Two words joined by "and" before a kind are still one name.
    expect(bodies('Check the Terms and Conditions checkbox')).toEqual([
      { action: 'check', target: { name: 'Terms and Conditions', role: 'checkbox' } },
    ]);
  });

  it('splits a value-and-field list after a typing verb, and two named boxes after a ticking verb', () => {
    expect(bodies('Type ada in the username box and lovelace in the password box')).toEqual([
      { action: 'type', value: 'ada', target: { name: 'username', role: 'textbox' } },
      { action: 'type', value: 'lovelace', target: { name: 'password', role: 'textbox' } },
    ]);
    expect(bodies('tick the newsletter box and the terms box')).toEqual([
      { action: 'check', target: { name: 'newsletter' } },
      { action: 'check', target: { name: 'terms' } },
    ]);
    expect(bodies('Type "Rock and roll" in the search box')).toHaveLength(1);
  });

  it('reads terse notes and sorting orders in words', () => {
    expect(bodies('quantity 4')).toEqual([{ action: 'type', value: '4', target: { name: 'quantity' } }]);
    expect(bodies('Sort the orders by Total from highest to lowest')).toEqual([
      {
        action: 'click',
        target: { name: 'Total', role: 'columnheader' },
        clickCount: 1,
        button: 'left',
        sort: 'descending',
      },
    ]);
    expect(bodies('The editor is empty at first')).toEqual([
      { action: 'assertState', target: { name: '', role: 'editor' }, state: 'empty' },
    ]);
  });
});
