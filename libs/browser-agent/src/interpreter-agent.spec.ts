import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { Page } from 'puppeteer-core';
import { useBrowserTab } from '../testing/browser-tab.js';
import { DEMO_ROUTES } from '../testing/demo-pages.js';
import { type LocalSite, page as htmlPage, type Route, serveLocalSite } from '../testing/local-site.js';
import { AgentLog, formatLogLine, parseAgentLog } from './agent-log.js';
import { runInstructionTest } from './instruction-test-runner.js';
import { interpretQuery, runInterpreter, type RunResult, type StepToResolve } from './interpreter-agent.js';
import type { RunLimits } from './run-limits.js';

const FAST: Partial<RunLimits> = {
  navigationTimeoutMs: 5000,
  actionTimeoutMs: 3000,
  assertionTimeoutMs: 1500,
};

// A disabled "Next" that a re-render replaces with an enabled one 600 ms after load.
const PAGER = htmlPage(
  'Pager',
  `<nav id="pager"><button disabled>Next</button></nav><p id="at">Page 1</p>
   <script>
     setTimeout(() => {
       const next = document.createElement('button');
       next.textContent = 'Next';
       next.onclick = () => (document.getElementById('at').textContent = 'Page 2');
       document.getElementById('pager').replaceChildren(next);
     }, 600);
   </script>`,
);

// A lazily loaded web component, as Shoelace's autoloader does: "load" fires while its definition is
// still on the wire, and the page wires its button only once the element is defined.
const LAZY_COMPONENT = htmlPage(
  'Lazy',
  `<x-greeting id="open">Say hello</x-greeting><p id="out">Silent</p>
   <script type="module">
     import('/x-greeting.js');
     await customElements.whenDefined('x-greeting');
     document.getElementById('open').addEventListener('click', () => (document.getElementById('out').textContent = 'Hello'));
   </script>`,
);
const LAZY_DEFINITION: Route = (_request, response) => {
  setTimeout(() => {
    response.writeHead(200, { 'content-type': 'text/javascript' });
    response.end(
      `customElements.define('x-greeting', class extends HTMLElement { connectedCallback() { this.setAttribute('role', 'button'); } });`,
    );
  }, 700);
};

// A tree with one item that opens only from the keyboard (the ARIA tree keys) and one whose
// handler sits on its words, not on its row.
const TREE = htmlPage(
  'Tree',
  `<style>[aria-expanded=false]>ul{display:none}</style>
   <ul role="tree" aria-label="Files">
     <li role="treeitem" aria-expanded="false" tabindex="0" id="keys"><span>Keys only</span><ul role="group"><li role="treeitem">Leaf K</li></ul></li>
     <li role="treeitem" aria-expanded="false"><span id="words">By its words</span><ul role="group"><li role="treeitem">Leaf W</li></ul></li>
   </ul>
   <script>
     keys.addEventListener('keydown', (e) => {
       if (e.key === 'ArrowRight') keys.setAttribute('aria-expanded', 'true');
       if (e.key === 'ArrowLeft') keys.setAttribute('aria-expanded', 'false');
     });
     words.addEventListener('click', () => {
       const li = words.parentElement;
       li.setAttribute('aria-expanded', String(li.getAttribute('aria-expanded') !== 'true'));
     });
   </script>`,
);

// Three dropdowns, and buttons whose names can be read as a list.
const CHOICES = htmlPage(
  'Choices',
  `<label>Size <select><option>S</option><option>M</option></select></label>
   <label>Color <select><option>Red</option><option>Blue</option></select></label>
   <label>Height <select><option>5ft 8in</option><option>5ft 9in</option></select></label>
   <button>ONE</button><button>TWO</button><button>THREE</button><button>Terms and Conditions</button>
   <p id="log">Log:</p>
   <script>
     for (const b of document.querySelectorAll('button')) b.onclick = () => (log.textContent += ' ' + b.textContent);
   </script>`,
);

// A suggestion list drawn again when the mouse reaches it (as an autocomplete does for the next
// letter typed): the item first found is gone by the time of the click; only the new one answers.
const REDRAWN = htmlPage(
  'Redrawn',
  `<ul id="list"><li>Ruby</li></ul><p id="out">Nothing chosen</p>
   <script>
     list.firstElementChild.addEventListener('mouseover', () => {
       const fresh = document.createElement('li');
       fresh.textContent = 'Ruby';
       fresh.onclick = () => (out.textContent = 'You chose Ruby');
       list.replaceChildren(fresh);
     }, { once: true });
   </script>`,
);

// Formatted text, as a rich-text editor leaves it.
const FORMATTED = htmlPage(
  'Formatted',
  `<div contenteditable="true"><p>Plain <strong>Important</strong> and <em>quiet</em> words</p></div>`,
);

// A hand-made select: the label names the closed listbox itself and, in part, its trigger.
const TAG_PICKER = htmlPage(
  'Tag',
  `<span id="nl">Name on tag</span>
   <button id="pick" aria-haspopup="listbox" aria-labelledby="nl pick" aria-expanded="false">Choose a name</button>
   <ul role="listbox" id="names" aria-labelledby="nl" hidden><li role="option">Alice</li><li role="option">Bobine</li></ul>
   <script>pick.onclick = () => { names.hidden = false; pick.setAttribute('aria-expanded', 'true'); };</script>`,
);

// An app without a form: its Submit button writes a labelled log.
const NO_FORM = htmlPage(
  'No form',
  `<label>Name <input id="name"></label><button id="send">Submit</button><button>Cancel</button>
   <p id="log">Log: none</p>
   <script>send.onclick = () => (log.textContent = 'Log: sent ' + document.getElementById('name').value);</script>`,
);

describe('runInterpreter (real Chromium, local pages)', () => {
  const tab = useBrowserTab();
  let site: LocalSite;
  let page: Page;

  beforeAll(async () => {
    site = await serveLocalSite({
      ...DEMO_ROUTES,
      '/pager': PAGER,
      '/noform': NO_FORM,
      '/lazy': LAZY_COMPONENT,
      '/x-greeting.js': LAZY_DEFINITION,
      '/tree': TREE,
      '/redrawn': REDRAWN,
      '/formatted': FORMATTED,
      '/tag': TAG_PICKER,
      '/choices': CHOICES,
    });
  });
  afterAll(async () => {
    await site?.close();
  });
  beforeEach(() => {
    page = tab.page;
  });

  async function run(
    query: string,
    limits: Partial<RunLimits> = FAST,
    log = new AgentLog(),
  ): Promise<RunResult> {
    const interpreted = interpretQuery(query.replaceAll('$SITE', site.url));
    if (!interpreted.ok) throw new Error(interpreted.summary);
    return runInterpreter({ page, steps: interpreted.steps, log, limits });
  }

  it('passes a login test written the way a person writes it', async () => {
    const lines: string[] = [];
    const log = new AgentLog({ sink: (line) => void lines.push(line) });
    const result = await run(
      `1. Open $SITE/login
       2. Type "ada@example.com" into the email field
       3. Fill the Password field with 'correct-horse'
       4. Check the "Remember me" checkbox
       5. Click the Sign in button
       6. Verify that the title is "Dashboard" and the URL contains "remember=1"
       7. The page should show "Welcome back, Ada"`,
      FAST,
      log,
    );
    expect(result.summary).toBe('All 8 steps passed; 3 assertions held.');
    expect(result.verdict).toBe('succeeded');
    expect(result.steps.map((s) => [s.action, s.status])).toEqual([
      ['navigate', 'passed'],
      ['type', 'passed'],
      ['type', 'passed'],
      ['check', 'passed'],
      ['click', 'passed'],
      ['assertTitle', 'passed'],
      ['assertUrl', 'passed'],
      ['assertText', 'passed'],
    ]);
    expect(result.steps[1]).toMatchObject({ strategy: 'role+name (partial)', candidates: 1 });
    // The page redirects 200 ms after the click; the assertions after it wait for the new page.
    // (On a loaded machine the redirect can land within the click's navigation grace and be named.)
    expect(result.steps[4]).toMatchObject({
      strategy: 'role+name',
      message: expect.stringMatching(
        /^clicked the button "Sign in"(?:, which opened \S+\/dashboard\?remember=1)?$/,
      ),
    });
    // The password never reaches the log or the results.
    expect(result.steps[2]).toMatchObject({
      text: "Fill the Password field with '••••••'",
      message: 'typed 13 characters into the textbox "Password"',
    });

    await log.flush();
    expect(lines.join('')).not.toContain('correct-horse');
    const entries = parseAgentLog(lines.join(''));
    expect(entries.length).toBe(log.entries.length);
    const click = entries.find((e) => e.step === 5 && e.outcome === 'passed');
    expect(click).toMatchObject({ action: 'click', target: 'Sign in', strategy: 'role+name', candidates: 1 });
    expect(formatLogLine(click!)).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3} step 5 click "Sign in" \[role\+name, 1 match\] passed \d+ ms$/,
    );
  });

  it('fails an assertion with what was expected and what was found, and skips the rest', async () => {
    const result = await run(
      `Go to $SITE/login. Type 'ada@example.com' into the email field. Type 'wrong' into the password field.
       Press Enter. Verify the title contains "Dashboard". Click Widgets.`,
    );
    expect(result.verdict).toBe('failed');
    expect(result.steps.map((s) => s.status)).toEqual([
      'passed',
      'passed',
      'passed',
      'passed',
      'failed',
      'skipped',
    ]);
    expect(result.steps[4]?.error).toBe(
      'expected the title to contain "Dashboard" but it was "Login" (kept checking for the assertion timeout of 1500 ms)',
    );
    expect(result.summary).toBe(
      'Step 5 of 6 failed ("Verify the title contains "Dashboard""): expected the title to contain "Dashboard" but it was "Login" (kept checking for the assertion timeout of 1500 ms). 1 later step was skipped.',
    );
  });

  it('quotes the page when text is missing, and the offending text when it should be absent', async () => {
    const missing = await run(`open $SITE/dashboard\nthe page contains "Goodbye"`);
    expect(missing.steps[1]?.error).toMatch(
      /^expected the page to contain "Goodbye" but it is not present; the page text begins "Welcome back, Ada You have 3 new messages\. Widgets"/,
    );
    const present = await run(`open $SITE/dashboard\nI should not see 'new messages'`);
    expect(present.steps[1]?.error).toMatch(
      /^expected the page not to contain "new messages" but it does: "Welcome back, Ada You have 3 new messages\. Widgets"/,
    );
  });

  it('fails a navigation that does not finish, naming the navigation timeout', async () => {
    const result = await run(`open $SITE/slow\nthe page contains 'never'`, {
      ...FAST,
      navigationTimeoutMs: 800,
    });
    expect(result.verdict).toBe('failed');
    expect(result.steps[0]?.error).toBe(
      `opening ${site.url}/slow did not finish (navigation timeout of 800 ms)`,
    );
    expect(result.steps[1]?.status).toBe('skipped');
  });

  it('fails a missing element, naming the action timeout and the strategies tried', async () => {
    const result = await run(`open $SITE/dashboard\nclick the Launch button`, {
      ...FAST,
      actionTimeoutMs: 400,
    });
    expect(result.steps[1]?.error).toMatch(
      /^no element matches the button "Launch" within the action timeout of 400 ms \(tried: role\+name, label, .*, css, accessibility tree\)$/,
    );
  });

  it('stops at the job time limit', async () => {
    // No page to open first: nothing but the wait itself runs into the limit.
    const result = await run(`wait 30 seconds\nthe page contains 'Ada'`, { ...FAST, jobTimeoutMs: 1200 });
    expect(result.steps.map((s) => s.status)).toEqual(['failed', 'skipped']);
    expect(result.steps[0]?.error).toBe(
      'the run was stopped because it took too long (job time limit of 1200 ms)',
    );
  });

  it('gives up on a step whose page stopped responding', async () => {
    // Opening the page gets the usual navigation time (a loaded machine may need it); the hung click
    // then waits out its whole budget: action + navigation time + the watchdog's slack.
    const result = await run(`open $SITE/frozen\nclick Freeze\nthe page contains 'never'`, {
      navigationTimeoutMs: 5000,
      actionTimeoutMs: 300,
      assertionTimeoutMs: 300,
    });
    expect(result.steps.map((s) => s.status)).toEqual(['passed', 'failed', 'skipped']);
    expect(result.steps[1]?.error).toBe(
      'the browser stopped responding during this step (step time limit of 10300 ms)',
    );
  }, 40_000);

  it('stops when the caller cancels', async () => {
    const controller = new AbortController();
    const interpreted = interpretQuery(
      `open ${site.url}/dashboard\nwait 30 seconds\nthe page contains 'Ada'`,
    );
    if (!interpreted.ok) throw new Error(interpreted.summary);
    // Cancelled once the wait has started, however long opening the page took.
    const log = new AgentLog({
      sink: (_line, entry) => {
        if (entry.outcome === 'started' && entry.step === 2) controller.abort();
      },
    });
    const result = await runInterpreter({
      page,
      steps: interpreted.steps,
      log,
      limits: FAST,
      signal: controller.signal,
    });
    expect(result.steps.map((s) => s.status)).toEqual(['passed', 'failed', 'skipped']);
    expect(result.steps[1]?.error).toBe('the run was cancelled');
  });

  it('selects, checks, hovers, scrolls, presses keys, counts and goes back', async () => {
    const result = await run(
      `Open $SITE/dashboard
       Click the Widgets link
       Select "Blue" from the Color dropdown
       The page shows 'You chose Blue'
       Select the Express radio button
       Check 'Send me news'
       The "Send me news" checkbox is checked and the Standard radio is unchecked
       Check "I accept the terms"
       The "I accept the terms" checkbox is checked
       Select "Large" from the Size dropdown
       The page shows "Size: Large"
       Click "Delete account"
       I should see "Account deleted"
       Hover over Products
       Wait for "Hover card" to appear
       Type 'shoes' into the Search field and press Enter
       I should see "Searched for shoes"
       Press Escape in the search field
       The search field is empty
       There are 3 items in the list
       Wait until the Continue button is enabled
       Scroll to the bottom
       The footer is visible
       Scroll to the top
       Go back
       The URL ends with '/dashboard'`,
    );
    expect(result.steps.filter((s) => s.status !== 'passed')).toEqual([]);
    expect(result.verdict).toBe('succeeded');
    expect(result.steps[1]?.message).toBe(`clicked the link "Widgets", which opened ${site.url}/widgets`);
    const select = result.steps.find((s) => s.action === 'select');
    expect(select?.message).toBe('selected "Blue" in the combobox "Color"');
  });

  it('clicks a button that a re-render replaced while it was disabled (found again, not waited on for ever)', async () => {
    // As Grid.js does with its "Next" while data loads: the disabled button is thrown away and an
    // enabled one rendered in its place. Waiting on the first one alone never ends.
    const result = await run('Open $SITE/pager\nClick "Next"\nThe page shows "Page 2"');
    expect(result.steps.map((s) => [s.action, s.status])).toEqual([
      ['navigate', 'passed'],
      ['click', 'passed'],
      ['assertText', 'passed'],
    ]);
    expect(result.verdict).toBe('succeeded');
  });

  it('waits for a lazily defined web component before clicking it (a click on the inert tag did nothing)', async () => {
    const result = await run('Open $SITE/lazy\nClick "Say hello"\nThe page shows "Hello"');
    expect(result.steps.map((s) => [s.action, s.status, s.error])).toEqual([
      ['navigate', 'passed', undefined],
      ['click', 'passed', undefined],
      ['assertText', 'passed', undefined],
    ]);
  });

  it('clicks an item again when the list was drawn anew under the mouse (not "no size to click")', async () => {
    const result = await run('Open $SITE/redrawn\nClick Ruby\nThe page shows "You chose Ruby"');
    expect(result.steps.map((s) => [s.status, s.error])).toEqual([
      ['passed', undefined],
      ['passed', undefined],
      ['passed', undefined],
    ]);
  });

  it('opens a closed listbox by its trigger when the name fits the hidden list itself', async () => {
    const result = await run('Open $SITE/tag\nOpen the "Name on tag" menu\n"Bobine" is visible');
    expect(result.steps.map((s) => [s.status, s.error])).toEqual([
      ['passed', undefined],
      ['passed', undefined],
      ['passed', undefined],
    ]);
  });

  it('reads bold and italic text, and fails on text that is neither', async () => {
    const held = await run('Open $SITE/formatted\n"Important" is shown in bold\n"quiet" is in italics');
    expect(held.steps.map((s) => s.message)).toEqual([
      `opened ${site.url}/formatted`,
      '"Important" is bold',
      '"quiet" is italic',
    ]);
    for (const wrong of ['"quiet" is shown in bold', '"Important" is in italics']) {
      const result = await run(`Open $SITE/formatted\n${wrong}`);
      expect(result.verdict).toBe('failed');
      expect(result.steps[1]?.error).toMatch(/is not (?:bold|in italics)/);
    }
  });

  it('expands a tree item once (a second "expand" leaves it open), by a click on its words or by the → key', async () => {
    const opened = await run(
      'Open $SITE/tree\nExpand Keys only\nExpand "By its words"\nExpand "By its words"\n"Leaf K" is visible\n"Leaf W" is visible\nthe "Keys only" tree item is expanded',
    );
    expect(opened.steps.map((s) => [s.status, s.message ?? s.error])).toEqual([
      ['passed', `opened ${site.url}/tree`],
      ['passed', 'expanded "Keys only" (with the → key)'],
      ['passed', 'expanded "By its words"'],
      ['passed', '"By its words" was already expanded'],
      ['passed', expect.any(String)],
      ['passed', expect.any(String)],
      ['passed', expect.any(String)],
    ]);
    const closed = await run('Open $SITE/tree\nExpand Keys only\nCollapse Keys only\n"Leaf K" is visible');
    expect(closed.verdict).toBe('failed');
    expect(closed.steps[3]?.error).toMatch(/"Leaf K" to be visible but it is hidden/);
  });

  it('picks the dropdown that has the option, and clicks each of "ONE and THREE" but one "Terms and Conditions"', async () => {
    const result = await run(
      'Open $SITE/choices\nChoose 5ft 9in from the dropdown\nthe Height dropdown is "5ft 9in"\nClick ONE and THREE\nClick Terms and Conditions\nThe log reads "ONE THREE Terms and Conditions"',
    );
    expect(result.steps.filter((s) => s.status !== 'passed')).toEqual([]);
    expect(result.verdict).toBe('succeeded');
    const wrong = await run('Open $SITE/choices\nClick ONE and THREE\nThe log reads "ONE TWO THREE"');
    expect(wrong.verdict).toBe('failed');
  });

  it('submits a page without a form by its one Submit button, and reads a labelled log without its label', async () => {
    const verdicts: string[] = [];
    for (const expected of ['sent ada', 'sent bob']) {
      const result = await run(
        `Open $SITE/noform\nType "ada" into the Name field\nSubmit\nThe log reads "${expected}"`,
      );
      verdicts.push(`${result.verdict}: ${result.steps.map((s) => s.message ?? s.error).join(' | ')}`);
    }
    expect(verdicts[0]).toMatch(/^succeeded: .*clicked the button "Submit"/);
    expect(verdicts[1]).toMatch(/^failed: .*sent ada/);
  });

  it('says that nothing was verified when no assertion was made', async () => {
    const result = await run(`open $SITE/dashboard, then click Widgets and scroll down 300 pixels`);
    expect(result.verdict).toBe('succeeded');
    expect(result.summary).toBe('All 3 steps ran, but no assertions were made, so nothing was verified.');
  });

  it('fails the run before any step when the start page cannot be opened', async () => {
    const interpreted = interpretQuery('the title is "Dashboard"');
    if (!interpreted.ok) throw new Error(interpreted.summary);
    const result = await runInterpreter({
      page,
      steps: interpreted.steps,
      log: new AgentLog(),
      limits: { navigationTimeoutMs: 500 },
      initialUrl: `${site.url}/slow`,
    });
    expect(result.verdict).toBe('failed');
    expect(result.steps.map((s) => s.status)).toEqual(['skipped']);
    expect(result.summary).toBe(
      `The start page ${site.url}/slow could not be opened (opening ${site.url}/slow did not finish (navigation timeout of 500 ms)), so no steps ran.`,
    );
  });

  it('opens the start URL first when the query does not open a page itself', async () => {
    const interpreted = interpretQuery(
      'the title is "Dashboard"\ngo to /widgets\nthe heading says "Widgets"',
    );
    if (!interpreted.ok) throw new Error(interpreted.summary);
    const result = await runInterpreter({
      page,
      steps: interpreted.steps,
      log: new AgentLog(),
      limits: FAST,
      initialUrl: `${site.url}/dashboard`,
    });
    expect(result.summary).toBe('All 3 steps passed; 2 assertions held.');
  });
});

describe('runInterpreter with a resolveStep hook (the hybrid engine)', () => {
  const tab = useBrowserTab();
  let site: LocalSite;

  beforeAll(async () => {
    site = await serveLocalSite(DEMO_ROUTES);
  });
  afterAll(async () => {
    await site?.close();
  });

  /** Runs `query` with a resolver that records what it was handed and answers with `answer`. */
  async function runHybrid(
    query: string,
    answer: (request: StepToResolve) => 'passed' | 'failed' = () => 'passed',
  ): Promise<{ result: RunResult; handed: StepToResolve[] }> {
    const interpreted = interpretQuery(query.replaceAll('$SITE', site.url));
    const handed: StepToResolve[] = [];
    const result = await runInterpreter({
      page: tab.page,
      steps: interpreted.steps,
      unknown: interpreted.ok ? [] : interpreted.unknown,
      log: new AgentLog(),
      limits: { ...FAST, actionTimeoutMs: 400 },
      resolveStep: async (request) => {
        handed.push(request);
        // The hook acts on the same page as the interpreter: here it signs in as a model would.
        if (request.index === 2) await tab.page.type('#email', 'ada@example.com');
        const status = answer(request);
        return {
          index: request.index,
          text: request.text,
          action: 'type',
          status,
          durationMs: 1,
          resolvedBy: 'model',
          ...(status === 'failed' ? { error: 'the model could not do it' } : {}),
        };
      },
    });
    return { result, handed };
  }

  it('hands over only an unreadable step and a step whose target matched nothing, then goes on', async () => {
    const { result, handed } = await runHybrid(
      `open $SITE/login
       fly to the moon
       type "correct-horse" into the Password field
       click the Launch button
       the email field has value "ada@example.com"`,
    );
    expect(handed.map((h) => [h.index, h.reason])).toEqual([
      [2, 'not understood'],
      [4, 'target not found'],
    ]);
    expect(handed[1]?.failed?.error).toMatch(/^no element matches the button "Launch"/);
    expect(result.verdict).toBe('succeeded');
    expect(result.steps.map((s) => [s.index, s.status, s.resolvedBy])).toEqual([
      [1, 'passed', 'interpreted'],
      [2, 'passed', 'model'],
      [3, 'passed', 'interpreted'],
      [4, 'passed', 'model'],
      [5, 'passed', 'interpreted'],
    ]);
    expect(result.summary).toBe(
      'All 5 steps passed; 1 assertion held. Steps: 3 interpreted, 2 resolved by the model.',
    );
  });

  it('never hands over an assertion that was read and is false', async () => {
    const { result, handed } = await runHybrid(
      `open $SITE/login
type "x@example.com" into the email field
the email field has value "ada@example.com"
the page contains "Welcome"`,
    );
    expect(handed).toEqual([]);
    expect(result.verdict).toBe('failed');
    expect(result.steps[2]).toMatchObject({ status: 'failed', resolvedBy: 'interpreted' });
  });

  it('fails the run at a step the resolver could not do, and skips the rest', async () => {
    const { result } = await runHybrid(
      `open $SITE/login
click the Launch button
click "Sign in"`,
      () => 'failed',
    );
    expect(result.verdict).toBe('failed');
    expect(result.steps.map((s) => s.status)).toEqual(['passed', 'failed', 'skipped']);
    expect(result.summary).toMatch(
      /^Step 2 of 3 failed \("click the Launch button"\): the model could not do it\./,
    );
  });
});

describe('rejecting a query before the browser is touched', () => {
  it('quotes every step it does not understand and lists supported phrasings', async () => {
    const untouchable = new Proxy({} as Page, {
      get(_target, property) {
        throw new Error(`the page was touched (${String(property)})`);
      },
    });
    const log = new AgentLog();
    const result = await runInstructionTest({
      page: untouchable,
      query: 'open http://127.0.0.1:9/x\nfly to the moon\nclick Sign in\ndo a barrel roll',
      log,
    });
    expect(result).toMatchObject({ verdict: 'failed', steps: [] });
    expect(result.outcome).toEqual({
      kind: 'needs_input',
      summary: result.summary,
      question:
        'Could you rephrase step 2 ("fly to the moon") and step 4 ("do a barrel roll") using one of the supported forms?',
      notUnderstood: [
        { index: 2, text: 'fly to the moon' },
        { index: 4, text: 'do a barrel roll' },
      ],
    });
    expect(result.summary).toMatch(
      /^Could not understand 2 of 4 steps, so the test was not run:\n {2}- step 2: "fly to the moon"\n {2}- step 4: "do a barrel roll"\nRephrase them using one of these forms:\n {2}- open https:\/\/example.com/,
    );
    expect(log.entries.filter((e) => e.outcome === 'failed').map((e) => e.error)).toEqual([
      'not understood: "fly to the moon"',
      'not understood: "do a barrel roll"',
    ]);
  });

  it('rejects an empty query', () => {
    const result = interpretQuery('   \n  ');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.summary).toMatch(/^The query has no steps to run/);
  });
});
