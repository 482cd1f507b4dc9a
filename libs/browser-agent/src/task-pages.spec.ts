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

/** A task page: the instruction printed above the task, and a result line the page writes once. */
const task = (instruction: string, area: string, script: string) =>
  page(
    'Task',
    `<div id="query">${instruction}</div><div id="area">${area}</div><p>Result: <span id="result">pending</span></p>
    <script>let judged = false; function done(ok) { if (!judged) { judged = true; result.textContent = ok ? 'Correct' : 'Wrong'; } }</script>
    <script>${script}</script>`,
  );

const CONTACTS = ['Lia Moss', 'Ike Dunn', 'Ada Byron'];

describe('task pages that print their instruction (real Chromium)', () => {
  const tab = useBrowserTab();
  let site: LocalSite;

  beforeAll(async () => {
    site = await serveLocalSite({
      // The instruction holds "triangle"; the page has no triangle to click.
      '/shapes': task(
        'Click on a triangle.',
        '<button id="circle">Circle</button>',
        `document.getElementById('area').addEventListener('click', () => done(false));
         document.getElementById('query').addEventListener('click', () => done(false));`,
      ),
      // One contact a page; each card shows "Phone:" before a link with the number.
      '/contacts': task(
        'Find Ada Byron in the contact book and click on their phone number.',
        '<div id="card"></div><a href="#" id="next">Next &gt;</a>',
        `const names = ${JSON.stringify(CONTACTS)}; let at = 0;
         const show = () => { card.innerHTML = '<h3>' + names[at] + '</h3><p>Phone: <a href="#" class="phone">(212) 555-01' + at + '</a></p><p>Email: <a href="#" class="email">x' + at + '@example.com</a></p>'; };
         show();
         next.addEventListener('click', (e) => { e.preventDefault(); at = Math.min(names.length - 1, at + 1); show(); });
         card.addEventListener('click', (e) => { const a = e.target.closest('a'); if (a) { e.preventDefault(); done(a.className === 'phone' && names[at] === 'Ada Byron'); } });`,
      ),
      // A textarea that must be read to its end before the form can be sent.
      '/terms': task(
        'Scroll to the bottom of the textarea, then press Submit.',
        `<textarea id="terms" rows="3" readonly>${'Clause. '.repeat(200)}</textarea><button id="send" disabled>Submit</button>`,
        `terms.addEventListener('scroll', () => { if (terms.scrollTop + terms.clientHeight >= terms.scrollHeight - 2) send.disabled = false; });
         send.addEventListener('click', () => done(true));`,
      ),
      // Menu entries drawn as list items behind a "More" control.
      '/more': task(
        'Click on the "Mute" button.',
        `<span id="more" title="More" style="cursor:pointer">⋯</span>
         <ul id="menu" hidden><li style="cursor:pointer">Share</li><li style="cursor:pointer" id="mute">Mute</li></ul>`,
        `more.addEventListener('click', () => { menu.hidden = !menu.hidden; });
         for (const li of menu.children) li.addEventListener('click', () => done(li.id === 'mute'));`,
      ),
      // Shapes without words: SVG circles of two sizes, a triangle, a square, and a CSS circle.
      '/drawn': page(
        'Drawn',
        `<svg id="svg" width="220" height="80">
           <circle id="big-yellow" cx="30" cy="40" r="25" fill="#f0c419"/><circle id="small-yellow" cx="85" cy="40" r="8" fill="#f0c419"/>
           <polygon id="tri" points="120,20 140,60 100,60" fill="#1e6fd9"/><rect id="sq" x="155" y="20" width="40" height="40" fill="#2ca02c"/></svg>
         <div id="dot" style="width:30px;height:30px;border-radius:50%;background:#d62728"></div><p id="out">-</p>
         <script>document.addEventListener('click', (e) => { if (e.target.id && e.target.id !== 'out') out.textContent = e.target.id; });</script>`,
      ),
      // Controls whose own words are the step: a custom element and a pointer-cursor span.
      '/own-words': page(
        'Own words',
        `<x-button id="terms">Read the terms</x-button> <span id="all" style="cursor:pointer">Click here to continue</span><p id="out">-</p>
         <script>customElements.define('x-button', class extends HTMLElement {});
           terms.addEventListener('click', () => { out.textContent += ' terms'; });
           all.addEventListener('click', () => { out.textContent += ' all'; });</script>`,
      ),
      // A warning that comes over the form after the first keystroke: "Yes" would end the task.
      '/popup': task(
        'Log in.',
        `<label>Username <input id="u"></label> <label>Password <input id="p" type="password"></label> <button id="go">Login</button>
         <div id="popup" hidden style="position:absolute;inset:0;background:#fff"><p>Session ends. Exit now?</p><button id="yes">Yes</button> <button id="no">Cancel</button></div>`,
        `u.addEventListener('input', () => { if (u.value.length === 3) popup.hidden = false; });
         yes.addEventListener('click', () => done(false));
         no.addEventListener('click', () => { popup.hidden = true; });
         go.addEventListener('click', () => done(u.value === 'kim' && p.value === 'p4'));`,
      ),
    });
  });
  afterAll(async () => {
    await site?.close();
  });

  async function run(query: string): Promise<RunResult> {
    const interpreted = interpretQuery(query.replaceAll('$SITE', site.url));
    if (!interpreted.ok) throw new Error(interpreted.summary);
    return runInterpreter({ page: tab.page, steps: interpreted.steps, log: new AgentLog(), limits: LIMITS });
  }

  const result = () => tab.page.$eval('#result', (el) => el.textContent);

  it('never takes the printed instruction for the thing it names', async () => {
    const outcome = await run('Open $SITE/shapes\nClick on a triangle.');
    expect(outcome.verdict).toBe('failed');
    expect(outcome.steps[1]?.error).toMatch(/no element matches "triangle"/);
    expect(await result()).toBe('pending');
  });

  it('follows the pager to the entry, then clicks the value its caption names', async () => {
    const outcome = await run(
      'Open $SITE/contacts\nFind Ada Byron in the contact book and click on their phone number.\nThe page should say "Correct".',
    );
    expect(outcome.verdict).toBe('succeeded');
    expect(outcome.steps[1]?.message).toMatch(/^went to page 2, then 3; clicked/);
  });

  it('fails, naming the text it looked for, when no page holds the entry', async () => {
    const outcome = await run(
      'Open $SITE/contacts\nFind Zed Zorro in the contact book and click on their phone number.',
    );
    expect(outcome.verdict).toBe('failed');
    expect(outcome.steps[1]?.error).toMatch(/"Zed Zorro" is not on the page/);
    expect(await result()).toBe('pending');
  });

  it('scrolls inside an element', async () => {
    const outcome = await run(
      'Open $SITE/terms\nScroll to the bottom of the textarea, then press Submit.\nThe page should say "Correct".',
    );
    expect(outcome.verdict).toBe('succeeded');
    expect(outcome.steps[1]?.message).toMatch(/^scrolled .* to the bottom$/);
  });

  it.each([
    ['Click on a triangle', 'tri'],
    ['Click on a large yellow circle', 'big-yellow'],
    ['Click on the small circle', 'small-yellow'],
    ['Click the square', 'sq'],
    ['Click on a red circle', 'dot'],
  ])('finds a drawn shape by its geometry: %s', async (step, id) => {
    const outcome = await run(`Open $SITE/drawn\n${step}\nThe page should say "${id}".`);
    expect(outcome.verdict).toBe('succeeded');
  });

  it('fails on a shape the page does not draw', async () => {
    const outcome = await run('Open $SITE/drawn\nClick on a blue circle');
    expect(outcome.verdict).toBe('failed');
  });

  it('still clicks a control whose own words are the step', async () => {
    const outcome = await run(
      'Open $SITE/own-words\nRead the terms\nClick here to continue\nThe page should say "- terms all".',
    );
    expect(outcome.verdict).toBe('succeeded');
  });

  it('closes a popup that comes over the next field with its Cancel, never its Yes, and says so', async () => {
    const log = new AgentLog();
    const interpreted = interpretQuery(
      `Open ${site.url}/popup\nType "kim" into the username field\nType "p4" into the password field\nClick Login\nThe page should say "Correct".`,
    );
    if (!interpreted.ok) throw new Error(interpreted.summary);
    const outcome = await runInterpreter({ page: tab.page, steps: interpreted.steps, log, limits: LIMITS });
    expect(outcome.verdict).toBe('succeeded');
    expect(log.entries.map((e) => e.message)).toContain(
      'a popup covered the element; closed it with "Cancel"',
    );
  });

  it('opens a "More" menu to reach an entry drawn as a list item, and calls it a button', async () => {
    const outcome = await run('Open $SITE/more\nClick on the "Mute" button.\nThe page should say "Correct".');
    expect(outcome.verdict).toBe('succeeded');
  });
});
