import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { useBrowserTab } from '../testing/browser-tab.js';
import { type LocalSite, page, serveLocalSite } from '../testing/local-site.js';
import { REAL_APP_ROUTES } from '../testing/real-app-pages.js';
import { AgentLog } from './agent-log.js';
import { interpretQuery, runInterpreter, type RunResult } from './interpreter-agent.js';
import type { RunLimits } from './run-limits.js';

const FAST: Partial<RunLimits> = {
  navigationTimeoutMs: 5000,
  actionTimeoutMs: 2500,
  assertionTimeoutMs: 1200,
};

const ADD_THREE = `Open $SITE/todos
  Type "Buy milk" into the "What needs to be done?" field and press Enter
  Type "Walk the dog" into the "What needs to be done?" field and press Enter
  Type "Write tests" into the "What needs to be done?" field and press Enter`;

// Three alike product cards, a link, a heading and a button all saying "Sign in", and one address
// linked from both the header and the footer.
const ALIKE = page(
  'Mugs',
  `<header><a href="/contact">Contact</a> <a href="/alike">Sign in</a> <h2>Sign in</h2><button onclick="out.textContent='signing in'">Sign in</button></header>
  <main>${['Blue mug', 'Red mug', 'Green mug']
    .map(
      (name) =>
        `<article><h3>${name}</h3><button onclick="out.textContent='added ${name}'">Add to cart</button></article>`,
    )
    .join('')}<p id="out"></p><input aria-label="Coupon"><input aria-label="Coupon"></main>
  <footer><a href="/contact">Contact</a></footer>`,
);

describe('plain-English tests on pages written like real apps (real Chromium)', () => {
  const tab = useBrowserTab();
  let site: LocalSite;

  beforeAll(async () => {
    site = await serveLocalSite({ ...REAL_APP_ROUTES, '/alike': ALIKE });
  });
  afterAll(async () => {
    await site?.close();
  });

  async function run(query: string): Promise<RunResult> {
    const interpreted = interpretQuery(query.replaceAll('$SITE', site.url));
    if (!interpreted.ok) throw new Error(interpreted.summary);
    return runInterpreter({ page: tab.page, steps: interpreted.steps, log: new AgentLog(), limits: FAST });
  }

  function failedStep(result: RunResult) {
    expect(result.verdict).toBe('failed');
    const failed = result.steps.find((s) => s.status === 'failed');
    expect(failed).toBeDefined();
    return failed as NonNullable<typeof failed>;
  }

  it('checks, deletes (hover-only button) and edits to-do rows named by their text', async () => {
    const result = await run(`${ADD_THREE}
      Check the checkbox next to "Walk the dog"
      The checkbox next to "Walk the dog" should be checked
      The checkbox beside "Buy milk" is unchecked
      Verify the page shows "2 items left"
      There should be 2 items left
      Click the delete button next to "Walk the dog"
      The page should not contain "Walk the dog"
      "Walk the dog" should no longer be in the list
      There are 2 items
      Double-click "Buy milk"
      Press End then type " and eggs"
      Press Enter
      The page shows "Buy milk and eggs"
      Mark "Write tests" as done
      The second item is "Write tests"
      The last item contains "Write tests"
      Delete "Write tests"
      There is 1 item`);
    expect(result.steps.filter((s) => s.status !== 'passed')).toEqual([]);
    expect(result.verdict).toBe('succeeded');
  });

  it('toggles all, filters, edits in place and clears completed to-dos', async () => {
    const result = await run(`${ADD_THREE}
      There are 3 todos
      Mark all as complete
      "Buy milk" should be completed
      The second todo is done
      Verify the page shows "0 items left"
      Uncheck "Walk the dog"
      "Walk the dog" is not completed
      Click the Active filter
      There is 1 item
      The first item is "Walk the dog"
      Click "All"
      Change "Buy milk" to "Buy bread" and press Enter
      The page contains "Buy bread"
      Click "Clear completed"
      The list has 1 item
      Toggle all
      The checkbox next to "Walk the dog" is checked`);
    expect(result.steps.filter((s) => s.status !== 'passed')).toEqual([]);
    expect(result.verdict).toBe('succeeded');
  });

  it('completes, toggles and clears to-dos named by their text', async () => {
    const result = await run(`${ADD_THREE}
      Complete "Buy milk"
      Toggle "Write tests"
      There should be 1 item left
      Toggle "Write tests"
      There should be 2 items left
      Clear completed todos
      "Walk the dog" is still there
      "Buy milk" should no longer be in the list
      There are 2 items`);
    expect(result.steps.filter((s) => s.status !== 'passed')).toEqual([]);
    const missing = failedStep(await run(`${ADD_THREE}\nToggle "Feed the cat"`));
    expect(missing.error).toContain('the text "Feed the cat" is not on the page');
  });

  it('fails a counter that reads otherwise, and a row that is still there', async () => {
    const counter = failedStep(await run(`${ADD_THREE}\nThere should be 2 items left`));
    expect(counter.error).toContain('expected the page to contain "2 items left"');
    const still = failedStep(await run(`${ADD_THREE}\n"Walk the dog" should no longer be in the list`));
    expect(still.error).toContain('to be hidden but it is visible');
  });

  it('fails "is completed" for a to-do that is not', async () => {
    const failed = failedStep(await run(`${ADD_THREE}\n"Buy milk" should be completed`));
    expect(failed.error).toContain('to be checked but it is unchecked');
  });

  it('fails a checkbox next to text that is not on the page, and says so', async () => {
    const failed = failedStep(await run(`${ADD_THREE}\nCheck the checkbox next to "Buy bread"`));
    expect(failed.text).toBe('Check the checkbox next to "Buy bread"');
    expect(failed.error).toContain('the text "Buy bread" is not on the page');
  });

  it('fails a row named ambiguously instead of picking one', async () => {
    const failed = failedStep(
      await run(`Open $SITE/users\nClick the "Edit" button in the row with "example.com"`),
    );
    expect(failed.error).toContain('ambiguous: 3 elements match next to "example.com"');
  });

  it('fails an assertion about a row that does not hold', async () => {
    const failed = failedStep(await run(`${ADD_THREE}\nThe checkbox next to "Buy milk" should be checked`));
    expect(failed.error).toContain(
      'expected the checkbox next to "Buy milk" to be checked but it is unchecked',
    );
  });

  it('acts in table rows: a button in the row, a column by its header, an icon button by its title', async () => {
    const result = await run(`Open $SITE/users
      Click Edit in the row with "Alan Turing"
      The page shows "Editing Alan Turing"
      The role of "Alan Turing" is "Admin"
      The email of "Grace Hopper" is "grace@example.com"
      Click the first "Edit" button
      The page shows "Editing Ada Lovelace"
      Check the checkbox in the "Grace Hopper" row
      The last row contains "Grace Hopper"
      Click the delete button for "Grace Hopper"
      The page shows "Removed Grace Hopper"
      The page does not show "grace@example.com"`);
    expect(result.steps.filter((s) => s.status !== 'passed')).toEqual([]);
    // An exported script finds a row's button by its CSS path: its role and name are every row's.
    expect(result.steps[1]?.recorded?.element).toEqual({
      css: '#rows > tr:nth-of-type(2) > td:nth-of-type(4) > button:nth-of-type(1)',
    });
    expect(result.verdict).toBe('succeeded');
  });

  it('fails a column value that differs', async () => {
    const failed = failedStep(await run(`Open $SITE/users\nThe role of "Ada Lovelace" is "Admin"`));
    expect(failed.error).toContain('"Engineer"');
  });

  it('finds cards by their heading, and icon buttons by their accessible name', async () => {
    const result = await run(`Open $SITE/shop
      The price of "Blue mug" is "€12"
      Click the "Add to cart" button on the "Red mug" card
      Click "Add to cart" next to "Green plate"
      The page shows "Cart: 2 items"
      There are 3 items
      The second item contains "Red mug"
      The last item contains "€9"`);
    expect(result.steps.filter((s) => s.status !== 'passed')).toEqual([]);
    expect(result.verdict).toBe('succeeded');
  });

  it('fails a wrong price, and lists the closest candidates when a button is missing', async () => {
    const price = failedStep(await run(`Open $SITE/shop\nThe price of "Blue mug" is "€13"`));
    expect(price.error).toContain('"€12"');
    const count = failedStep(await run(`Open $SITE/shop\nThere are 4 items`));
    expect(count.error).toContain('expected exactly 4 visible matches for the listitem but found 3');
    const missing = failedStep(await run(`Open $SITE/shop\nClick the "Add to wishlist" button`));
    expect(missing.error).toContain('closest on the page: button "Add to cart" (in "Blue mug €12');
  });

  it('works inside Web Components (open shadow roots)', async () => {
    const result = await run(`Open $SITE/components
      Type "Buy milk" into the "What needs to be done?" field and press Enter
      Type "Walk the dog" into the "What needs to be done?" field and press Enter
      Check the checkbox next to "Buy milk"
      The checkbox next to "Buy milk" is checked
      Click the delete button next to "Walk the dog"
      There is 1 item`);
    expect(result.steps.filter((s) => s.status !== 'passed')).toEqual([]);
    expect(result.verdict).toBe('succeeded');
  });

  it('fails in Web Components too when the row is not there', async () => {
    const failed = failedStep(
      await run(`Open $SITE/components
        Type "Buy milk" into the "What needs to be done?" field and press Enter
        Click the delete button next to "Walk the dog"`),
    );
    expect(failed.error).toContain('"Walk the dog" is not on the page');
  });

  it('counts a component checkbox once, not its inner input, and no toggle as a checkbox', async () => {
    const result = await run(`Open $SITE/settings
      There are 3 checkboxes
      Turn on "Dark mode"
      The "Dark mode" switch is on
      The "Text me" checkbox is unchecked
      Check "Text me"
      The "Text me" checkbox is checked
      The second checkbox is checked
      The first checkbox is unchecked`);
    expect(result.steps.filter((s) => s.status !== 'passed')).toEqual([]);
    // Text without a checkbox of its own does not borrow the form's other, labelled one.
    const borrowed = failedStep(await run(`Open $SITE/settings\nCheck "Weekly digest"`));
    expect(borrowed.error).toContain('is a <p>, not a checkbox');
    const wrongCount = failedStep(await run(`Open $SITE/settings\nThere are 4 checkboxes`));
    expect(wrongCount.error).toContain('expected exactly 4 visible matches for the checkbox but found 3');
  });

  it('replaces the text of the field that opened: "change it to …", "press Enter to save"', async () => {
    const result = await run(`${ADD_THREE}
      Double-click "Walk the dog"
      Change it to "Walk the cat"
      Press Enter to save
      The page shows "Walk the cat"
      The page does not show "Walk the dog"`);
    expect(result.steps.filter((s) => s.status !== 'passed')).toEqual([]);
    const nothingOpen = failedStep(
      await run(`${ADD_THREE}\nClick the "todos" heading\nChange it to "Walk the cat"`),
    );
    expect(nothingOpen.error).toContain('no text field has the caret');
  });

  it('types where the caret is: after a double-click the text goes into the field that opened', async () => {
    const result = await run(`${ADD_THREE}
      Double-click "Buy milk"
      Type " and eggs"
      Press Enter
      The page shows "Buy milk and eggs"
      Double-click "Walk the dog"
      Press Home then type "Go and "
      Press Enter
      The page shows "Go and Walk the dog"`);
    expect(result.steps.filter((s) => s.status !== 'passed')).toEqual([]);
    expect(result.verdict).toBe('succeeded');
  });

  it('fails typing when no field has the caret, instead of typing into nothing', async () => {
    const nowhere = failedStep(await run(`${ADD_THREE}\nClick the "todos" heading\nType " and eggs"`));
    expect(nowhere.error).toContain('no text field has the caret');
    const pressed = failedStep(
      await run(`${ADD_THREE}\nClick the "todos" heading\nPress End then type " and eggs"`),
    );
    expect(pressed.error).toContain('no text field has the caret');
  });

  it('fails an action on a target several elements match equally well, instead of picking one', async () => {
    const many = failedStep(await run(`Open $SITE/alike\nClick "Add to cart"\nThe page shows "added"`));
    expect(many.error).toContain('"Add to cart" is ambiguous: 3 elements on the page match it equally well');
    const fields = failedStep(await run(`Open $SITE/alike\nType "SAVE10" into the Coupon field`));
    expect(fields.error).toContain('is ambiguous: 2 elements');
    // Saying which one, or a target only one control matches, works.
    const said = await run(`Open $SITE/alike
      Click the second "Add to cart" button
      The page shows "added Red mug"
      Click "Add to cart" next to "Green mug"
      The page shows "added Green mug"
      Click "Sign in"
      The page shows "signing in"
      Click "Contact"`);
    expect(said.steps.filter((s) => s.status !== 'passed')).toEqual([]);
  });

  it('hovers a row to bring out a button that exists only while it is hovered', async () => {
    const result = await run(`Open $SITE/contacts
      Click the Call button next to "Alan Turing"
      The page shows "Calling Alan Turing"`);
    expect(result.steps.filter((s) => s.status !== 'passed')).toEqual([]);
    const absent = failedStep(await run(`Open $SITE/contacts\nClick the Email button next to "Alan Turing"`));
    expect(absent.error).toContain('no element matches the button "Email" next to "Alan Turing"');
  });

  it('works inside a same-origin iframe', async () => {
    const result = await run(`Open $SITE/framed
      Type "ada@example.com" into the "Your email" field
      Click the Subscribe button
      The text "Subscribed ada@example.com" should appear`);
    expect(result.steps.filter((s) => s.status !== 'passed')).toEqual([]);
    expect(result.verdict).toBe('succeeded');
  });
});
