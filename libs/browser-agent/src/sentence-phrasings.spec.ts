import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { useBrowserTab } from '../testing/browser-tab.js';
import { type LocalSite, serveLocalSite } from '../testing/local-site.js';
import { SENTENCE_ROUTES } from '../testing/sentence-pages.js';
import { AgentLog } from './agent-log.js';
import { interpretQuery, runInterpreter, type RunResult } from './interpreter-agent.js';
import type { RunLimits } from './run-limits.js';

const FAST: Partial<RunLimits> = {
  navigationTimeoutMs: 5000,
  actionTimeoutMs: 2000,
  assertionTimeoutMs: 1000,
};

describe('sentences with several actions, plural and ordinal targets (real Chromium)', () => {
  const tab = useBrowserTab();
  let site: LocalSite;

  beforeAll(async () => {
    site = await serveLocalSite(SENTENCE_ROUTES);
  });
  afterAll(async () => {
    await site?.close();
  });

  async function run(query: string): Promise<RunResult> {
    const interpreted = interpretQuery(query.replaceAll('$SITE', site.url));
    if (!interpreted.ok) throw new Error(interpreted.summary);
    return runInterpreter({ page: tab.page, steps: interpreted.steps, log: new AgentLog(), limits: FAST });
  }

  async function passes(query: string): Promise<void> {
    const result = await run(query);
    expect(result.steps.filter((s) => s.status !== 'passed')).toEqual([]);
    expect(result.verdict).toBe('succeeded');
  }

  /** The query fails, and at the step whose text is `at`. */
  async function failsAt(query: string, at: string): Promise<string> {
    const result = await run(query);
    expect(result.verdict).toBe('failed');
    const failed = result.steps.find((s) => s.status === 'failed');
    expect(failed?.text).toBe(at);
    return failed?.error ?? '';
  }

  const LOGIN = 'Enter the username "ada" and the password "x1" into the text fields and press Log in';
  it('types two values into the fields they name, then presses the button', async () => {
    await passes(`Open $SITE/login\n${LOGIN}\nThe page shows "Welcome ada"`);
    await failsAt(`Open $SITE/login-without-password\n${LOGIN}`, 'the password "x1" into the text fields');
  });

  it('clicks two buttons in the order written', async () => {
    const query = 'Click button ONE, then click button TWO';
    await passes(`Open $SITE/buttons\n${query}\nThe page shows "clicked ONE TWO"`);
    await failsAt(`Open $SITE/buttons-without-two\n${query}`, 'click button TWO');
  });

  it('sets a spinner and submits', async () => {
    const query = 'Select -3 with the spinner and hit Submit';
    await passes(`Open $SITE/spinner\n${query}\nThe page shows "value -3"`);
    await failsAt(`Open $SITE/no-spinner\n${query}`, 'Select -3 with the spinner');
  });

  it('checks a radio button and types into a field, both named by position', async () => {
    await passes(`Open $SITE/choices
      Check the 1st radio button and type "3" into the 2nd textbox
      Type "a" in the first field, "b" in the second
      Click Show
      The page shows "S/a/b"`);
    await passes(`Open $SITE/choices
      Check the 2nd radio button and type "3" into the 2nd textbox. Click Show. The page shows "L//3"`);
    await failsAt(`Open $SITE/choices\nType "a" in the first field, "b" in the third`, '"b" in the third');
  });

  it('fills two fields named with "with" and submits', async () => {
    const query = 'Fill in Name with "Ada", Email with "a@b.c" and submit';
    await passes(`Open $SITE/contact\n${query}\nThe page shows "Thanks Ada <a@b.c>"`);
    await failsAt(`Open $SITE/contact-without-email\n${query}`, 'Email with "a@b.c"');
  });

  it('checks each label of a list, then clicks', async () => {
    const query = 'Select Apple, Kiwi and Plum and click Submit';
    await passes(`Open $SITE/fruit\n${query}\nThe page shows "picked Apple,Kiwi,Plum"`);
    await failsAt(`Open $SITE/fruit-without-kiwi\n${query}`, 'Kiwi');
  });

  it('acts on a target named by position, also counted from the end', async () => {
    await passes(`Open $SITE/checklist
      Check the third checkbox
      The third checkbox is checked
      The second checkbox is unchecked
      Type "x" into the 2nd text box
      Type "y" into the second text box from the end
      The field "B" has value "y"
      Click the penultimate link
      The URL ends with "#two"
      Open $SITE/people
      Click the second-to-last row
      The page shows "row Linus"
      Click the first Delete button in the 2nd row
      The page shows "deleted Grace"
      Click the second Delete button in the 3rd row
      The page shows "second button Linus"
      Click the first Delete button in the second-to-last row
      The page shows "deleted Linus"`);
    const none = await failsAt(
      `Open $SITE/people\nClick Delete in the fifth-to-last row`,
      'Click Delete in the fifth-to-last row',
    );
    expect(none).toContain('the page has 4 rows');
    await failsAt(`Open $SITE/checklist\nCheck the fifth checkbox`, 'Check the fifth checkbox');
    const error = await failsAt(
      `Open $SITE/people\nClick the fifth-to-last row`,
      'Click the fifth-to-last row',
    );
    expect(error).toContain('only 4 matches');
  });

  it('checks, unchecks and types into every match, in document order', async () => {
    await passes(`Open $SITE/checklist
      Check all the checkboxes
      The first checkbox is checked
      The last checkbox is checked
      Uncheck every item
      The third checkbox is unchecked`);
    const error = await failsAt(
      `Open $SITE/empty-checklist\nCheck all the checkboxes`,
      'Check all the checkboxes',
    );
    expect(error).toContain('nothing on the page matches every checkbox');
  });

  it('clicks Reply on every post by one author, and fails when there is none', async () => {
    const query = 'Click Reply on every post by @ada';
    await passes(`Open $SITE/posts\n${query}\nThe page shows "replies: 2"`);
    await failsAt(`Open $SITE/posts-without-ada\n${query}`, query);
  });

  it('counts the items a plural noun names where no element says it: articles, cards marked so', async () => {
    await passes(
      `Open $SITE/posts\nThere should be 3 posts\nThe first post is by @ada\nThe second post says "Post number 2"`,
    );
    expect(
      await failsAt(`Open $SITE/posts-without-ada\nThere should be 3 posts`, 'There should be 3 posts'),
    ).toContain('expected exactly 3 posts but found 2 (the articles)');
    expect(
      await failsAt(`Open $SITE/posts\nThe second post is by @ada`, 'The second post is by @ada'),
    ).toContain('expected the 2nd post (of the articles) to show "@ada"');
    // Cards marked "order-card" are the orders; the list of tips beside them is not.
    await passes(
      `Open $SITE/orders\nThe page must to have only 2 orders and one of them is Dan Wu\nThe last order is Dan Wu`,
    );
    expect(await failsAt(`Open $SITE/orders-three\nThere are 2 orders`, 'There are 2 orders')).toContain(
      'found 3 (the elements marked "order")',
    );
  });

  it('a list that should only have the items named, navigation left out', async () => {
    const query = 'The list should only have "Milk" and "Eggs"';
    await passes(`Open $SITE/shopping\n${query}\nThe list has "Eggs"`);
    await failsAt(`Open $SITE/shopping-three\n${query}`, query);
    await failsAt(`Open $SITE/shopping\nThe list has "Bread"`, 'The list has "Bread"');
  });

  it('a bare verb after a typed value clicks the button it names', async () => {
    const query = 'Type "ada" into Nickname and save';
    await passes(`Open $SITE/settings\n${query}\nThe page shows "saved ada"`);
    await failsAt(`Open $SITE/settings-store\n${query}`, 'save');
    // "the Button" written as a name: with no button named so, the page's one button.
    await passes(
      `Open $SITE/settings\nType "x" into the Nickname field\nClick the Button\nThe page shows "saved x"`,
    );
  });

  it('steps a number field up by the arrow key as many times as said', async () => {
    await passes(
      `Open $SITE/spinner\nIncrease the Offset by 2 with the arrow up\nClick Submit\nThe page shows "value 2"`,
    );
    await passes(
      `Open $SITE/spinner\nClick the down arrow of the Offset field 3 times and hit Submit\nThe page shows "value -3"`,
    );
    await failsAt(
      `Open $SITE/no-spinner\nIncrease the Offset by 2 with the arrow up\nClick Submit\nThe page shows "value 2"`,
      'The page shows "value 2"',
    );
  });

  it('a shop as people say it: cookies accepted, products added to the cart, log out by its other name', async () => {
    const shopping = `Open $SITE/shop
      Accept the cookie banner
      The page does not show "We use cookies"
      Add the second product to the cart
      The page shows "Cart: Lamp"
      Add "Mug" to the cart
      The page shows "Cart: Lamp, Mug"`;
    await passes(`${shopping}\nLog out\nThe page shows "Signed out"`);
    await failsAt(`${shopping.replace('/shop', '/shop-without-sign-out')}\nLog out`, 'Log out');
    await passes(`Open $SITE/login\nLog in with ada / x1\nThe page shows "Welcome ada"`);
    await failsAt(`Open $SITE/login-without-password\nLog in with ada / x1`, 'Log in with ada / x1');
  });

  it('waits for a loading spinner to go away, and fails when it stays', async () => {
    await passes(`Open $SITE/loading\nWait until the spinner disappears\nThe page shows "Loaded"`);
    await failsAt(
      `Open $SITE/loading-forever\nWait until the spinner disappears`,
      'Wait until the spinner disappears',
    );
  });

  it('a form filled field by field as one sentence, a field left empty, no error shown', async () => {
    const fill = `Open $SITE/register
      Fill in the registration form with name "Ada", email "ada@x.io" and password "Secret1!"`;
    await passes(`${fill}\nClick Register\nMake sure no error is shown\nThe page shows "Welcome Ada"`);
    await failsAt(
      `${fill}\nLeave the email empty and click Register\nMake sure no error is shown`,
      'Make sure no error is shown',
    );
  });

  it('word orders of other languages run as meant', async () => {
    const fill = `Open $SITE/register\nWrite in the Name the text Ada`;
    await passes(
      `${fill}\nInsert the email ada@x.io\nDo click on Register button\nVerify if appears the message "Welcome Ada"`,
    );
    await failsAt(
      `${fill}\nDo click on Register button\nVerify if appears the message "Welcome Ada"`,
      'Verify if appears the message "Welcome Ada"',
    );
  });

  it('acts on a row by its position or its text, and confirms a deletion', async () => {
    await passes(`Open $SITE/people-admin
      Click on the Edit icon of the second row
      The page shows "Editing Bob"
      Delete the row with "Bob"
      Confirm the deletion
      The table does not show "Bob"
      There are 2 rows in the table`);
    await failsAt(
      `Open $SITE/people-admin\nClick on the Edit icon of the third row\nThe page shows "Editing Bob"`,
      'The page shows "Editing Bob"',
    );
  });

  it('opens an entry by its position where nothing says its noun ("the second result")', async () => {
    await passes(`Open $SITE/results\nOpen the second result\nThe page shows "Opened Wireless Mouse M2"`);
    await failsAt(`Open $SITE/no-results\nOpen the second result`, 'Open the second result');
  });

  it('types the password given earlier into both password fields', async () => {
    const query = 'Type "s3cret!" into the Password field, then type the password into both fields';
    await passes(`Open $SITE/passwords
      ${query}
      Click Check
      The page shows "passwords match"
      The field "Email" is empty`);
    const error = await failsAt(`Open $SITE/one-password\n${query}`, 'type the password into both fields');
    expect(error).toContain('names 2 of');
    expect(interpretQuery('Type the password into both fields').ok).toBe(false);
  });

  it('types a value read from a table, from a textarea and from the page, transformed', async () => {
    const query = 'Enter the value of Color from the table into the field';
    await passes(`Open $SITE/color
      ${query}
      The field "Answer" has value "Teal"
      Open $SITE/copy
      Copy the text in the textarea and paste it into the Answer box
      The field "Answer" has value "copy me, please"
      Open $SITE/values
      Enter the value of Price from the table in upper case into the Code field
      The field "Code" has value "€12"
      Remember the order number as ORDER, then type ORDER into the Reference field
      The field "Reference" has value "A-1234"
      Type "ADA" in lower case into the Code field
      The field "Code" has value "ada"
      Type " a b c " without spaces into the Code field
      The field "Code" has value "abc"
      Type "abc" reversed into the Code field
      The field "Code" has value "cba"
      Note down the booking code and paste the booking code in the Code field
      The field "Code" has value "B-77"
      Verify the total is $30.00`);
    await failsAt(`Open $SITE/values\nVerify the total is $31.00`, 'Verify the total is $31.00');
    const error = await failsAt(`Open $SITE/color-without-color\n${query}`, query);
    expect(error).toContain('headed "Color"');
  });

  it('fails to paste when nothing was copied', async () => {
    const error = await failsAt(
      `Open $SITE/copy\nPaste it into the Answer field`,
      'Paste it into the Answer field',
    );
    expect(error).toContain('nothing was copied');
  });
});
