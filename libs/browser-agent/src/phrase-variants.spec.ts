import { describe, expect, it } from '@jest/globals';
import { parseInstructions } from './instruction-parser.js';
import type { Step, StepBody, Target } from './step-types.js';

function read(query: string): StepBody[] {
  const { steps, unknown } = parseInstructions(query);
  expect(unknown).toEqual([]);
  return steps.map((step) => {
    const { index: _index, text: _text, ...body } = step as Step;
    return body as StepBody;
  });
}

const typed = (name: string, value: string): StepBody => ({
  action: 'type',
  value,
  target: { name, role: 'textbox' },
});
/** A form line ("Username: ada") names its field by label only: a radio group or a slider may take it. */
const formLine = (name: string, value: string): StepBody => ({ action: 'type', value, target: { name } });
const pageShows = (expected: string): StepBody => ({ action: 'assertText', expected, negate: false });

describe('other ways of saying a step (phrase variants)', () => {
  it.each([
    // Gherkin
    ['Given I am on https://shop.test/login', { action: 'navigate', url: 'https://shop.test/login' }],
    ['Given I open https://shop.test/search', { action: 'navigate', url: 'https://shop.test/search' }],
    ['When I click Save', { action: 'click', target: { name: 'Save' }, clickCount: 1, button: 'left' }],
    ['Then I should see "Saved"', pageShows('Saved')],
    ['But the page does not contain "Error"', { action: 'assertText', expected: 'Error', negate: true }],
    ['Go on https://shop.test/signup', { action: 'navigate', url: 'https://shop.test/signup' }],
    // Form lines
    ['Username: ada', formLine('Username', 'ada')],
    ['full name = Li Wei', formLine('full name', 'Li Wei')],
    ['Email: "ada@example.com"', formLine('Email', 'ada@example.com')],
    ['In the field Your name write Olga', typed('Your name', 'Olga')],
    ['In City write Oslo', typed('City', 'Oslo')],
    // Text on the page
    ['Expect the text "Thanks Bob"', pageShows('Thanks Bob')],
    ['Expect "Passwords match"', pageShows('Passwords match')],
    ['Must appear "User: BOB"', pageShows('User: BOB')],
    ['You should read "Returns are free."', pageShows('Returns are free.')],
    // A quoted text is a name whatever its first word (as ""Saved" is shown" reads).
    [
      'Check that "at 20:04" is shown',
      { action: 'assertState', target: { name: 'at 20:04' }, state: 'visible' },
    ],
    [
      'Verify that "By card." is visible',
      { action: 'assertState', target: { name: 'By card.' }, state: 'visible' },
    ],
    // "Say" is the whole message (AssertTextStep.whole), as "the page says" is.
    ['The page should now say "Department: Kids"', { ...pageShows('Department: Kids'), whole: true }],
    // Pages, pagers, dialogs, rows, menus, as people name them.
    ['go to the next page', { action: 'click', target: { name: 'Next' }, clickCount: 1, button: 'left' }],
    [
      'Go to the Pricing page',
      { action: 'click', target: { name: 'Pricing', role: 'link' }, clickCount: 1, button: 'left' },
    ],
    [
      'Verify that the dialog is closed',
      { action: 'assertState', target: { name: '', role: 'dialog' }, state: 'hidden' },
    ],
    [
      'Verify the window "Join our newsletter" is open',
      { action: 'assertState', target: { name: 'Join our newsletter', role: 'dialog' }, state: 'visible' },
    ],
    [
      'Verify that 4 rows are shown in the grid',
      { action: 'assertTable', table: '', check: { kind: 'rowCount', comparison: 'eq', count: 4 } },
    ],
    [
      '3 rows in the table',
      { action: 'assertTable', table: '', check: { kind: 'rowCount', comparison: 'eq', count: 3 } },
    ],
    ['Verify the message reads "You picked"', { ...pageShows('You picked'), whole: true }],
    [
      'Verify the input has the placeholder "What needs to be done?"',
      {
        action: 'assertState',
        target: { name: 'What needs to be done?', role: 'textbox' },
        state: 'visible',
      },
    ],
    [
      'Control the title of the page contains "Blog"',
      { action: 'assertTitle', mode: 'contains', negate: false, expected: 'Blog' },
    ],
    [
      'Verify that the suggestions include "JavaScript"',
      { action: 'assertState', target: { name: 'JavaScript', role: 'option' }, state: 'visible' },
    ],
    [
      '3 Reply buttons',
      { action: 'assertCount', target: { name: 'Reply', role: 'button' }, count: 3, comparison: 'eq' },
    ],
    ['Accept the terms', { action: 'check', target: { name: 'terms', role: 'checkbox' } }],
    [
      'Edit menu -> Undo',
      { action: 'click', target: { name: 'Undo' }, clickCount: 1, button: 'left', menuPath: ['Edit'] },
    ],
    // An option of the open list ("suggested"), never the text typed into the field.
    [
      '"Cobol" should be suggested',
      { action: 'assertState', target: { name: 'Cobol', role: 'option' }, state: 'visible' },
    ],
    [
      '"Java" appears in the suggestions',
      { action: 'assertState', target: { name: 'Java', role: 'option' }, state: 'visible' },
    ],
    [
      '"Perl" is not offered',
      { action: 'assertState', target: { name: 'Perl', role: 'option' }, state: 'hidden' },
    ],
    ['The page now shows "Saved"', pageShows('Saved')],
    [
      'The title should now be "Contact"',
      { action: 'assertTitle', mode: 'equals', negate: false, expected: 'Contact' },
    ],
    [
      'Verify that "By card." is hidden',
      { action: 'assertState', target: { name: 'By card.' }, state: 'hidden' },
    ],
    ['Check the page shows "Action: duplicate"', pageShows('Action: duplicate')],
    ['check it lists "Ada, Bob and Cy"', pageShows('Ada, Bob and Cy')],
    [
      'Control that the title contains "Blog"',
      { action: 'assertTitle', mode: 'contains', negate: false, expected: 'Blog' },
    ],
    // An element's text
    [
      'Verify that the output is "answer: No"',
      {
        action: 'assertElementText',
        target: { name: 'output' },
        expected: 'answer: No',
        mode: 'equals',
        negate: false,
      },
    ],
    // Tabs and pages by name
    [
      'Go to the Members tab',
      { action: 'click', target: { name: 'Members', role: 'tab' }, clickCount: 1, button: 'left' },
    ],
    [
      'Billing tab',
      { action: 'click', target: { name: 'Billing', role: 'tab' }, clickCount: 1, button: 'left' },
    ],
    // Lone quotes, files and folders, open and closed
    ['"Selected Pine"', pageShows('Selected Pine')],
    ['open Dialog.tsx', { action: 'click', target: { name: 'Dialog.tsx' }, clickCount: 1, button: 'left' }],
    ['open the docs folder', { action: 'click', target: { name: 'docs' }, clickCount: 1, button: 'left' }],
    ['the "src" folder is open', { action: 'assertState', target: { name: 'src' }, state: 'expanded' }],
    [
      'the "src" tree item should be expanded',
      { action: 'assertState', target: { name: 'src', role: 'treeitem' }, state: 'expanded' },
    ],
    [
      'the dialog is closed',
      { action: 'assertState', target: { name: '', role: 'dialog' }, state: 'hidden' },
    ],
    ['Verify in the page there is 1816', pageShows('1816')],
    // The first data row, by a description and a name
    [
      'The cheapest product, Banana, should come first',
      {
        action: 'assertTable',
        table: '',
        check: { kind: 'row', row: 1, mode: 'contains', expected: 'Banana', negate: false },
      },
    ],
    [
      'The first name is Bradley Greer',
      {
        action: 'assertTable',
        table: '',
        check: {
          kind: 'cell',
          row: 1,
          column: 'name',
          mode: 'equals',
          expected: 'Bradley Greer',
          negate: false,
        },
      },
    ],
    // A dropdown's chosen option
    [
      'Verify that the Size dropdown has "Large" selected',
      {
        action: 'assertValue',
        target: { name: 'Size', role: 'combobox' },
        mode: 'equals',
        expected: 'Large',
        negate: false,
      },
    ],
    [
      '"Large" is selected in the Size dropdown',
      {
        action: 'assertValue',
        target: { name: 'Size', role: 'combobox' },
        mode: 'equals',
        expected: 'Large',
        negate: false,
      },
    ],
    // "All 5 checkboxes": every one, and that many
    [
      'Verify that all 5 checkboxes are checked',
      {
        action: 'assertState',
        target: { name: '', role: 'checkbox', all: true, count: 5 },
        state: 'checked',
      },
    ],
  ] as ReadonlyArray<readonly [string, StepBody]>)('reads %j', (query, expected) => {
    expect(read(query)).toEqual([expected]);
  });

  it('reads values from a table, sign-ins, dropdowns named by place, and formatting', () => {
    expect(read('Read the Code value from the table\nEnter that value in the "Answer" field')).toEqual([
      { action: 'readValue', label: 'Code', name: 'code' },
      { action: 'type', value: '', valueFrom: 'code', target: { name: 'Answer', role: 'textbox' } },
    ]);
    expect(read('When I type the Size shown in the table into "Answer"')).toEqual([
      { action: 'readValue', label: 'Size', name: 'Size' },
      { action: 'type', value: '', valueFrom: 'Size', target: { name: 'Answer' } },
    ]);
    expect(read('log in as ada with the password lovelace')).toEqual([
      { action: 'type', value: 'ada', target: { name: 'username', role: 'textbox' } },
      { action: 'type', value: 'lovelace', target: { name: 'password', role: 'textbox' } },
      { action: 'submit' },
    ]);
    expect(read('Click Save and log in')).toEqual([
      { action: 'click', target: { name: 'Save and log in' }, clickCount: 1, button: 'left' },
    ]);
    expect(read('In the Status choose Cancelled')).toEqual([
      { action: 'select', option: 'Cancelled', target: { name: 'Status', role: 'combobox' } },
    ]);
    expect(read('Show 25 entries per page')).toEqual([
      { action: 'select', option: '25', target: { name: '', role: 'combobox' } },
    ]);
    expect(read('click into the Check-in field')).toEqual([
      { action: 'click', target: { name: 'Check-in', role: 'textbox' }, clickCount: 1, button: 'left' },
    ]);
    expect(read('"Important" is shown in bold')).toEqual([
      { action: 'assertState', target: { name: 'Important' }, state: 'bold' },
    ]);
    // An assertion with a number is never a typing step.
    expect(read('Verify that Total is 42')).toEqual([
      { action: 'assertValue', target: { name: 'Total' }, mode: 'equals', expected: '42', negate: false },
    ]);
    expect(parseInstructions('the counter is 3').steps[0]?.action).toBe('assertValue');
  });

  it('reads "open" with a name that is neither a file, a folder nor quoted as the control of that name', () => {
    // Not a page to navigate to: the control so named ("Open Warranty" opens that section), which
    // the run fails to find when the page has none.
    expect(read('open the pod bay doors')).toEqual([
      {
        action: 'click',
        target: { name: 'open pod bay doors', alsoNamed: ['pod bay doors'], control: true },
        clickCount: 1,
        button: 'left',
      },
    ]);
  });

  it('lends the verb of an action to a bare name that goes on from it, and only then', () => {
    expect(read('Expand src, then components, and open Dialog.tsx.')).toEqual([
      { action: 'click', target: { name: 'src' }, clickCount: 1, button: 'left', ensure: 'expanded' },
      { action: 'click', target: { name: 'components' }, clickCount: 1, button: 'left', ensure: 'expanded' },
      { action: 'click', target: { name: 'Dialog.tsx' }, clickCount: 1, button: 'left' },
    ]);
    expect(read('click "Try it out" and then "Execute"')).toEqual([
      { action: 'click', target: { name: 'Try it out' }, clickCount: 1, button: 'left' },
      { action: 'click', target: { name: 'Execute' }, clickCount: 1, button: 'left' },
    ]);
    // A quote on a line of its own is what the page shows, not one more click.
    expect(read('click Pine\n"Selected Pine"')).toEqual([
      { action: 'click', target: { name: 'Pine' }, clickCount: 1, button: 'left' },
      pageShows('Selected Pine'),
    ]);
    expect(read('the table shows "Ada" and "Grace"')).toEqual([
      { action: 'assertTable', table: '', check: { kind: 'shows', values: ['Ada', 'Grace'], negate: false } },
    ]);
  });

  it('keeps what the rules already read: "Then I am on <url>" asserts the URL, it does not open it', () => {
    expect(read('Then I am on https://shop.test/done')).toEqual([
      { action: 'assertUrl', mode: 'contains', expected: 'https://shop.test/done', negate: false },
    ]);
  });

  it('does not read notes or numbered steps as form lines', () => {
    expect(parseInstructions('Note: the dialog opens').unknown).toHaveLength(1);
    expect(read('Step 2: click Save')).toEqual([
      { action: 'click', target: { name: 'Save' }, clickCount: 1, button: 'left' },
    ]);
  });

  it('a bare commit verb after an action clicks its button; after a click on a bare name it is part of the name', () => {
    const click = (name: string): StepBody => ({
      action: 'click',
      target: { name },
      clickCount: 1,
      button: 'left',
    });
    expect(read('Type 5 into Qty and apply')).toEqual([
      { action: 'type', value: '5', target: { name: 'Qty' } },
      click('Apply'),
    ]);
    expect(read('apply')).toEqual([click('Apply')]);
    expect(read('save the changes')).toEqual([click('Save')]);
    expect(read('Click Save and Continue')).toEqual([click('Save and Continue')]);
    expect(read('Click the Send button without message')).toEqual([
      { action: 'click', target: { name: 'Send', role: 'button' }, clickCount: 1, button: 'left' },
    ]);
    expect(read('Click the checkbox and save')).toEqual([
      { action: 'click', target: { name: '', role: 'checkbox' }, clickCount: 1, button: 'left' },
      click('Save'),
    ]);
  });

  it('steps a spinner, slider or number field up or down by its arrows', () => {
    const press = (key: string, repeat: number, target: Target): StepBody => ({
      action: 'press',
      keys: [key],
      repeat,
      target,
    });
    expect(read('Increase the quantity of 2 with the arrow up')).toEqual([
      press('ArrowUp', 2, { name: 'quantity' }),
    ]);
    expect(read('click the up arrow of the Guests spinner twice')).toEqual([
      press('ArrowUp', 2, { name: 'Guests', role: 'spinbutton' }),
    ]);
    expect(read('Lower the volume slider by two steps')).toEqual([
      press('ArrowDown', 2, { name: 'volume', role: 'slider' }),
    ]);
    // A value to reach is a setting, not steps.
    expect(read('increase the quantity to 4')).toEqual([
      { action: 'type', value: '4', target: { name: 'quantity' } },
    ]);
  });

  it('"it" after a value typed without quotes is that value; "In the popup," only sets the scene', () => {
    expect(read('In City write Oslo and choose it')).toEqual([
      { action: 'type', value: 'Oslo', target: { name: 'City', role: 'textbox' } },
      { action: 'click', target: { name: 'Oslo' }, clickCount: 1, button: 'left' },
    ]);
    expect(read('In the popup, type me@example.com as the email and press "Sign me up"')).toEqual([
      { action: 'type', value: 'me@example.com', target: { name: 'email' } },
      { action: 'click', target: { name: 'Sign me up' }, clickCount: 1, button: 'left' },
    ]);
    expect(read('Verify appears "City: Oslo"')).toEqual([pageShows('City: Oslo')]);
  });

  it('a field named first ("in the last box write C"), a menu named first, "from the list"', () => {
    expect(read('In the first box write A and in the last box write C')).toEqual([
      { action: 'type', value: 'A', target: { name: '', role: 'textbox', nth: 1 } },
      { action: 'type', value: 'C', target: { name: '', role: 'textbox', nth: -1 } },
    ]);
    const books: StepBody = { action: 'click', target: { name: 'Books' }, clickCount: 1, button: 'left' };
    expect(read('Click in the menu on Books')).toEqual([books]);
    expect(read('In the menu, click Books')).toEqual([books]);
    expect(read('Select Bobine from the list')).toEqual([
      { action: 'select', option: 'Bobine', target: { name: '', role: 'combobox' } },
    ]);
  });

  it('shops and accounts: cart, cookies, log out, "user / password", an error under a field', () => {
    const click = (target: Target): StepBody => ({ action: 'click', target, clickCount: 1, button: 'left' });
    expect(read('Add the first product to the cart')).toEqual([
      click({ name: 'Add to cart', role: 'button', nth: 1 }),
    ]);
    expect(read('Add "Mug" to the basket')).toEqual([click({ name: 'Add to basket', near: 'Mug' })]);
    expect(read('Accept the cookie banner')).toEqual([click({ name: 'Accept' })]);
    expect(read('Log out')).toEqual([click({ name: 'Log out' })]);
    expect(read('Log in with ada@example.com / secret123')).toEqual([
      { action: 'type', value: 'ada@example.com', target: { name: 'email', role: 'textbox' } },
      { action: 'type', value: 'secret123', target: { name: 'password', role: 'textbox' } },
      { action: 'submit' },
    ]);
    expect(read('Verify the error "Email is required" appears under the email field')).toEqual([
      pageShows('Email is required'),
    ]);
  });

  it('purposes, loading spinners, sort orders after a comma, "Check:" and "Count the rows:" lines', () => {
    expect(read('Click on the logo to go home')).toEqual([
      { action: 'click', target: { name: 'logo' }, clickCount: 1, button: 'left' },
    ]);
    expect(read('Click Go to checkout')).toEqual([
      { action: 'click', target: { name: 'Go to checkout' }, clickCount: 1, button: 'left' },
    ]);
    expect(read('Sort the products by price, low to high')).toEqual([
      {
        action: 'click',
        target: { name: 'price', role: 'columnheader' },
        clickCount: 1,
        button: 'left',
        sort: 'ascending',
      },
    ]);
    const [spinner] = read('Wait until the spinner disappears');
    expect(spinner).toMatchObject({
      action: 'assertState',
      state: 'hidden',
      target: { name: expect.stringContaining('spinner') },
    });
    expect(read('Set the spinner to 3')).toEqual([
      { action: 'type', value: '3', target: { name: '', role: 'spinbutton' } },
    ]);
    expect(read('Count the rows: there should be 5')).toEqual([
      { action: 'assertCount', target: { name: '', role: 'row' }, count: 5, comparison: 'eq' },
    ]);
    // A label that only starts like a verb is still a form line.
    expect(read('Check-out: 2024-04-02')).toEqual([formLine('Check-out', '2024-04-02')]);
    expect(read('Check in: 2024-03-20')).toEqual([formLine('Check in', '2024-03-20')]);
    expect(read('Check: the title is "Dashboard"')).toEqual([
      { action: 'assertTitle', mode: 'equals', negate: false, expected: 'Dashboard' },
    ]);
  });

  it('forms, rows and confirmations as people say them', () => {
    expect(read('Fill in the registration form with name "Ada" and email "a@b.io"')).toEqual([
      { action: 'type', value: 'Ada', target: { name: 'name', role: 'textbox' } },
      { action: 'type', value: 'a@b.io', target: { name: 'email', role: 'textbox' } },
    ]);
    expect(read('Leave the email empty')).toEqual([
      { action: 'clear', target: { name: 'email', role: 'textbox' } },
    ]);
    expect(read('Navigate back to the home page')).toEqual([{ action: 'navigate', url: '/' }]);
    expect(read('Click on the Edit icon of the second row')).toEqual([
      { action: 'click', target: { name: 'Edit', inRow: 2 }, clickCount: 1, button: 'left' },
    ]);
    expect(read('Delete the row with "Bob"')).toEqual([
      {
        action: 'click',
        target: { name: 'delete', role: 'button', near: 'Bob' },
        clickCount: 1,
        button: 'left',
      },
    ]);
    expect(read('Confirm the deletion')).toEqual([
      { action: 'click', target: { name: 'Confirm' }, clickCount: 1, button: 'left' },
    ]);
    expect(read('Make sure no error is shown')).toEqual([
      { action: 'assertCount', target: { name: 'error' }, count: 0, comparison: 'eq' },
    ]);
  });

  it('entries by position ("open the first result") and amounts ("the total is $30.00")', () => {
    expect(read('Search for "mouse" and open the first result')).toEqual([
      { action: 'type', value: 'mouse', target: { name: 'search', role: 'searchbox' }, submit: true },
      { action: 'click', target: { name: 'result', nth: 1 }, clickCount: 1, button: 'left' },
    ]);
    expect(read('Verify the total is $30.00')).toEqual([
      { action: 'assertValue', target: { name: 'total' }, mode: 'equals', expected: '$30.00', negate: false },
    ]);
  });

  it('"… with "#team" at the end of the address, and it should say …": the URL, then the page', () => {
    expect(
      read(
        'We should be on the pricing page with "#team" at the end of the address, and it should say "Team plan"',
      ),
    ).toEqual([
      { action: 'assertUrl', mode: 'endsWith', negate: false, expected: '#team' },
      { action: 'assertText', expected: 'Team plan', negate: false, whole: true },
    ]);
  });

  it('a role word written as a name after "the" is a name of that role', () => {
    expect(read('Paste it into the Box')).toEqual([
      { action: 'type', value: '', valueFrom: 'clipboard', target: { name: 'Box', role: 'textbox' } },
    ]);
    expect(read('type x into the box')).toEqual([
      { action: 'type', value: 'x', target: { name: '', role: 'textbox' } },
    ]);
  });

  it('a line naming what the page outputs is a check, not a form line', () => {
    expect(read('Results: "2 results for an"')).toEqual([pageShows('2 results for an')]);
    expect(read('Username: "ada"')).toEqual([formLine('Username', 'ada')]);
  });

  it('descriptions of what the page says, menus named after their item, a searchable list', () => {
    expect(read('a little notification saying "Settings saved" should pop up')).toEqual([
      pageShows('Settings saved'),
    ]);
    expect(read('Verify the answer mentions "30 days"')).toEqual([pageShows('30 days')]);
    expect(read('check that Donald Knuth is listed there')).toEqual([pageShows('Donald Knuth')]);
    expect(read('Open the help center at https://example.com/help')).toEqual([
      { action: 'navigate', url: 'https://example.com/help' },
    ]);
    expect(read('From the Settings menu do click on Sign out')).toEqual([
      {
        action: 'click',
        target: { name: 'Sign out' },
        clickCount: 1,
        button: 'left',
        menuPath: ['Settings'],
      },
    ]);
    expect(read('open the Billing page from the Settings menu')).toEqual([
      { action: 'click', target: { name: 'Billing' }, clickCount: 1, button: 'left', menuPath: ['Settings'] },
    ]);
    expect(read('Search the country list for "swe"')).toEqual([
      { action: 'type', value: 'swe', target: { name: 'country', role: 'combobox' } },
    ]);
    // A dropdown is chosen from, not a menu path.
    expect(read('select "Bob" in the Users dropdown')[0]).toMatchObject({ action: 'select', option: 'Bob' });
  });

  it('word orders of other languages', () => {
    const click = (name: string, extra: Partial<Target> = {}): StepBody => ({
      action: 'click',
      target: { name, ...extra },
      clickCount: 1,
      button: 'left',
    });
    expect(read('Do click on Login button')).toEqual([click('Login', { role: 'button' })]);
    expect(read('Make click in the Save')).toEqual([click('Save')]);
    expect(read('Write in the Name the text Ada')).toEqual([
      { action: 'type', value: 'Ada', target: { name: 'Name' } },
    ]);
    expect(read('Insert the email ada@x.io')).toEqual([typed('email', 'ada@x.io')]);
    expect(read('Verify if appears the message "Saved"')).toEqual([pageShows('Saved')]);
    expect(read('Is visible the text "Welcome"')).toEqual([pageShows('Welcome')]);
    expect(read('Go in the page /about')).toEqual([{ action: 'navigate', url: '/about' }]);
    expect(read('Choose the option Blue of the color')).toEqual([
      { action: 'select', option: 'Blue', target: { name: 'color', role: 'combobox' } },
    ]);
    expect(read('Select in Country the Norway')).toEqual([
      { action: 'select', option: 'Norway', target: { name: 'Country', role: 'combobox' } },
    ]);
    expect(read('Mark the checkbox of terms')).toEqual([
      { action: 'check', target: { name: 'terms', role: 'checkbox' } },
    ]);
    expect(read('Wait 2 seconds and after click Next')).toEqual([
      { action: 'wait', ms: 2000 },
      click('Next'),
    ]);
    expect(read('Verify that the list has 3 elements')).toEqual([
      { action: 'assertCount', target: { name: '', role: 'listitem' }, count: 3, comparison: 'eq' },
    ]);
    expect(read('Click two times on Plus')).toEqual([{ ...click('Plus'), clickCount: 2 } as StepBody]);
  });

  it('Markdown and Gherkin around the steps: headings, section headers, notes and task boxes hold no step', () => {
    const { steps, unknown } = parseInstructions(
      '# Login test\nScenario: login works\n> - [ ] Click Save\n[x] Click Done\n---',
    );
    expect(unknown).toEqual([]);
    expect(steps.map((s) => s.text)).toEqual(['Click Save', 'Click Done']);
  });

  it('terms read and agreed to', () => {
    const click = (name: string): StepBody => ({
      action: 'click',
      target: { name },
      clickCount: 1,
      button: 'left',
    });
    expect(read('Read the terms and agree to them')).toEqual([click('terms'), click('agree')]);
    // "Read" still reads a value from the page.
    expect(read('Read the value of Total from the table')).toEqual([
      { action: 'readValue', label: 'Total', name: 'total' },
    ]);
  });

  it('a text said not to be visible is one the page must not show', () => {
    expect(read('The text "This cannot be undone." should not be visible')).toEqual([
      { action: 'assertText', expected: 'This cannot be undone.', negate: true },
    ]);
    expect(read('the message "Saved" is visible')).toEqual([pageShows('Saved')]);
    expect(read('the text "Error" does not appear')).toEqual([
      { action: 'assertText', expected: 'Error', negate: true },
    ]);
  });

  it('counts and lists: "must to have", "only N nouns", "one of them is", "the list should only have"', () => {
    expect(read('The table must to have only 2 orders and one of them is Dan Wu')).toEqual([
      { action: 'assertTable', table: '', check: { kind: 'rowCount', count: 2, comparison: 'eq' } },
      pageShows('Dan Wu'),
    ]);
    expect(read('The page has only 2 orders')).toEqual([
      { action: 'assertCount', target: { name: 'orders' }, count: 2, comparison: 'eq' },
    ]);
    expect(read('Now the list should only have "Buy rye bread"')).toEqual([
      { action: 'assertCount', target: { name: '', role: 'listitem' }, count: 1, comparison: 'eq' },
      { action: 'assertState', target: { name: 'Buy rye bread' }, state: 'visible' },
    ]);
    expect(read('"quantity 4" shown')).toEqual([pageShows('quantity 4')]);
  });

  it('reads a long hostile line once, in bounded work', () => {
    const line = `${'a: '.repeat(300)}b`;
    expect(() => parseInstructions(line)).not.toThrow();
  });
});
