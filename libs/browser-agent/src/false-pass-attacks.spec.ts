import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { useBrowserTab } from '../testing/browser-tab.js';
import { type LocalSite, page, serveLocalSite } from '../testing/local-site.js';
import { AgentLog } from './agent-log.js';
import { interpretQuery, runInterpreter, type RunResult } from './interpreter-agent.js';
import type { RunLimits } from './run-limits.js';

const LIMITS: Partial<RunLimits> = {
  navigationTimeoutMs: 5000,
  actionTimeoutMs: 3000,
  assertionTimeoutMs: 1500,
};

// Text a person cannot see: hidden, in a <template>, <script> or <noscript>, or only a placeholder.
const UNSEEN = page(
  'Unseen',
  `<p>Cart: <span id="count">12 items left</span></p>
  <p>Total: <output aria-label="Total">€120</output></p>
  <div hidden>Payment failed</div>
  <div style="visibility:hidden">Card declined</div>
  <div style="display:none">Account locked</div>
  <template><p>Secret offer</p></template>
  <script>window.note = "Limited deal";</script>
  <noscript>Enable scripts for the bonus</noscript>
  <label>Search <input placeholder="Search users"></label>
  <ul><li>Alpha</li><li hidden>Beta</li><li style="display:none">Gamma</li><li>Delta</li></ul>`,
);

// A list that arrives 300 ms after load, and a save whose error shows 300 ms after the click.
const LATE = page(
  'Late',
  `<ul id="list"></ul><button onclick="setTimeout(() => { msg.textContent = 'Error: not saved'; }, 300)">Save</button><p id="msg"></p>
  <script>setTimeout(() => { list.innerHTML = '<li>One</li><li>Two</li><li>Three</li><li>Four</li><li>Five</li>'; }, 300);</script>`,
);

// The false passes the plain-English corpus found: a longer message, another case, the field's own
// text as a "suggestion", and a menu item disabled on its <li>.
const WORDS = page(
  'Words',
  `<p id="picked">You picked: Apple, Kiwi, Plum</p>
  <p>Status: Saved. Thanks!</p>
  <p><output>User: ada</output></p>
  <label>Language <input id="lang" value="Cobol"></label>
  <ul role="listbox" id="list" hidden><li role="option">Java</li></ul>
  <ul role="menu"><li aria-disabled="true" class="ui-state-disabled"><div role="menuitem">Toys (sold out)</div></li>
  <li><div role="menuitem">Books</div></li></ul>`,
);

// A to-do list and, in the footer, filters that are list items too (as TodoMVC draws them).
const TODOS = page(
  'Todos',
  `<section><ul class="todo-list"><li>Read</li><li>Sleep</li></ul></section>
  <footer><ul class="filters"><li><a href="#/">All</a></li><li><a href="#/active">Active</a></li><li><a href="#/completed">Completed</a></li></ul></footer>`,
);

describe('assertions that could pass on the wrong element or at the wrong moment (real Chromium)', () => {
  const tab = useBrowserTab();
  let site: LocalSite;

  beforeAll(async () => {
    site = await serveLocalSite({ '/unseen': UNSEEN, '/late': LATE, '/words': WORDS, '/todos': TODOS });
  });
  afterAll(async () => {
    await site?.close();
  });

  async function run(query: string): Promise<RunResult> {
    const interpreted = interpretQuery(query.replaceAll('$SITE', site.url));
    if (!interpreted.ok) throw new Error(interpreted.summary);
    return runInterpreter({ page: tab.page, steps: interpreted.steps, log: new AgentLog(), limits: LIMITS });
  }

  async function verdicts(lines: string[]): Promise<string[]> {
    const out: string[] = [];
    for (const line of lines) out.push(`${(await run(`Open $SITE/unseen\n${line}`)).verdict}: ${line}`);
    return out;
  }

  it('a number in the text never matches inside a longer number', async () => {
    expect(
      await verdicts([
        'There are 12 items left',
        'There are 2 items left',
        'The page contains "2 items"',
        'The Total contains "€12"',
        'The Total contains "€120"',
        'The Total ends with "20"',
      ]),
    ).toEqual([
      'succeeded: There are 12 items left',
      'failed: There are 2 items left',
      'failed: The page contains "2 items"',
      'failed: The Total contains "€12"',
      'succeeded: The Total contains "€120"',
      'failed: The Total ends with "20"',
    ]);
  });

  it('hidden text, <template>, <script>, <noscript> and placeholders are not on the page', async () => {
    const lines = [
      'Payment failed',
      'Card declined',
      'Account locked',
      'Secret offer',
      'Limited deal',
      'Enable scripts for the bonus',
      'Search users',
    ];
    expect(await verdicts(lines.map((text) => `I should see "${text}"`))).toEqual(
      lines.map((text) => `failed: I should see "${text}"`),
    );
    expect(await verdicts(['The Search field contains "Search users"', 'I should see "Alpha"'])).toEqual([
      'failed: The Search field contains "Search users"',
      'succeeded: I should see "Alpha"',
    ]);
  });

  it('hidden list items are not counted', async () => {
    expect(await verdicts(['There are 2 items', 'There are 4 items', 'There are at least 3 items'])).toEqual([
      'succeeded: There are 2 items',
      'failed: There are 4 items',
      'failed: There are at least 3 items',
    ]);
  });

  it('"at most" and "no" counts wait for a list still loading instead of passing on the empty page', async () => {
    expect((await run(`Open $SITE/late\nThere are at most 2 items`)).verdict).toBe('failed');
    expect((await run(`Open $SITE/late\nThere are no items`)).verdict).toBe('failed');
    expect((await run(`Open $SITE/late\nThere are at most 5 items`)).verdict).toBe('succeeded');
  });

  it('"does not contain" waits for what the last action shows a moment later', async () => {
    expect((await run(`Open $SITE/late\nClick Save\nThe page does not contain "Error"`)).verdict).toBe(
      'failed',
    );
    expect((await run(`Open $SITE/late\nClick Save\n"Error: not saved" is not visible`)).verdict).toBe(
      'failed',
    );
    expect((await run(`Open $SITE/late\nClick Save\nThe page does not contain "Saved!"`)).verdict).toBe(
      'succeeded',
    );
  });

  it('"says" does not cut a list short, quoted text keeps its case, suggestions are options, aria-disabled holds inside', async () => {
    const lines = [
      'The page says "You picked: Apple, Kiwi"',
      'The page says "You picked: Apple, Kiwi, Plum"',
      'The page should say "Saved"',
      'The page contains "You picked: Apple, Kiwi"',
      'Check that "User: ADA" is shown',
      'Check that "User: ada" is shown',
      '"Cobol" should be suggested',
      '"Cobol" should not be suggested',
      'Verify that the "Toys (sold out)" menu item is enabled',
      'Verify that the "Toys (sold out)" menu item is disabled',
      'Verify that the "Books" menu item is enabled',
    ];
    const out: string[] = [];
    for (const line of lines) out.push(`${(await run(`Open $SITE/words\n${line}`)).verdict}: ${line}`);
    expect(out).toEqual([
      'failed: The page says "You picked: Apple, Kiwi"',
      'succeeded: The page says "You picked: Apple, Kiwi, Plum"',
      'succeeded: The page should say "Saved"',
      'succeeded: The page contains "You picked: Apple, Kiwi"',
      'failed: Check that "User: ADA" is shown',
      'succeeded: Check that "User: ada" is shown',
      'failed: "Cobol" should be suggested',
      'succeeded: "Cobol" should not be suggested',
      'failed: Verify that the "Toys (sold out)" menu item is enabled',
      'succeeded: Verify that the "Toys (sold out)" menu item is disabled',
      'succeeded: Verify that the "Books" menu item is enabled',
    ]);
  });

  it('counts the items of the content, not the filters in the footer', async () => {
    const out: string[] = [];
    for (const line of [
      'I should see 2 todos',
      'There are 5 items',
      'first todo is "Read"',
      'first todo is "Sleep"',
    ])
      out.push(`${(await run(`Open $SITE/todos\n${line}`)).verdict}: ${line}`);
    expect(out).toEqual([
      'succeeded: I should see 2 todos',
      'failed: There are 5 items',
      'succeeded: first todo is "Read"',
      'failed: first todo is "Sleep"',
    ]);
  });
});
