import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { useBrowserTab } from '../testing/browser-tab.js';
import { type LocalSite, page, serveLocalSite } from '../testing/local-site.js';
import { AgentLog } from './agent-log.js';
import { interpretQuery, runInterpreter, type RunResult } from './interpreter-agent.js';

// Components built the way Material Web builds them: a native control inside the shadow root,
// hidden (opacity 0) and drawn over; role and state kept in ElementInternals; a list item whose text
// passes through two levels of slots; a form-associated host labelled by the <label> around it.
const COMPONENTS = page(
  'Components',
  `<label>Nickname <x-field></x-field></label>
  <div role="radiogroup" aria-label="Billing">
    <label><x-radio value="monthly" checked></x-radio> Monthly</label>
    <label><x-radio value="yearly"></x-radio> Yearly</label>
  </div>
  <x-list>${['Lunch on Friday', 'Quarterly report', 'Flight confirmation']
    .map(
      (s) =>
        `<x-item><x-check slot="start" aria-label="Select"></x-check><div slot="headline">${s}</div></x-item>`,
    )
    .join('')}</x-list>
  <p id="out"></p>
  <script>
  customElements.define('x-field', class extends HTMLElement {
    static formAssociated = true;
    constructor() {
      super();
      this.attachInternals();
      const root = this.attachShadow({ mode: 'open', delegatesFocus: true });
      root.innerHTML = '<style>:host{display:inline-block;border:1px solid #555;padding:8px;width:220px}' +
        '.content{opacity:0}:host(:focus-within) .content{opacity:1}</style><div class="content"><input></div>';
      root.querySelector('input').addEventListener('input', (e) => {
        document.getElementById('out').textContent = 'Nickname ' + e.target.value;
      });
    }
  });
  customElements.define('x-radio', class extends HTMLElement {
    static formAssociated = true;
    constructor() {
      super();
      this.internals = this.attachInternals();
      this.internals.role = 'radio';
      this.attachShadow({ mode: 'open' }).innerHTML = '<style>:host{display:inline-block;width:18px;height:18px;border:2px solid #333;border-radius:50%}</style>';
      this.addEventListener('click', () => {
        for (const radio of document.querySelectorAll('x-radio')) radio.checked = radio === this;
      });
    }
    connectedCallback() { this.checked = this.hasAttribute('checked'); }
    set checked(on) { this._checked = on; this.internals.ariaChecked = String(on); this.style.background = on ? '#333' : ''; }
    get checked() { return this._checked; }
  });
  customElements.define('x-check', class extends HTMLElement {
    constructor() {
      super();
      const root = this.attachShadow({ mode: 'open' });
      root.innerHTML = '<style>:host{display:inline-block;position:relative;width:24px;height:24px;border:2px solid #333}' +
        'input{position:absolute;inset:0;margin:0;width:100%;height:100%;opacity:0}</style><input type="checkbox">';
      const input = root.querySelector('input');
      input.setAttribute('aria-label', this.getAttribute('aria-label') ?? '');
      input.addEventListener('change', () => {
        this.style.background = input.checked ? '#333' : '';
        const n = [...document.querySelectorAll('x-check')].filter((c) => c.shadowRoot.querySelector('input').checked).length;
        document.getElementById('out').textContent = n + ' selected';
      });
    }
  });
  customElements.define('x-inner', class extends HTMLElement {
    constructor() { super(); this.attachShadow({ mode: 'open' }).innerHTML = '<span><slot name="start"></slot> <slot name="headline"></slot></span>'; }
  });
  customElements.define('x-item', class extends HTMLElement {
    constructor() {
      super();
      this.attachShadow({ mode: 'open' }).innerHTML =
        '<li role="listitem" style="display:flex;gap:8px;padding:4px"><x-inner><slot name="start" slot="start"></slot><slot name="headline" slot="headline"></slot></x-inner></li>';
    }
  });
  customElements.define('x-list', class extends HTMLElement {
    constructor() { super(); this.attachShadow({ mode: 'open' }).innerHTML = '<ul role="list" style="list-style:none"><slot></slot></ul>'; }
  });
  </script>`,
);

// TodoMVC's stylesheet: each row's checkbox is transparent (opacity 0) over the circle its
// neighbouring label draws, and the label is not tied to it.
const CLEAR_TOGGLES = page(
  'Todos',
  `<style>li{position:relative;list-style:none;height:40px} .toggle{position:absolute;left:0;top:0;bottom:0;width:40px;height:auto;margin:auto 0;opacity:0}
  .toggle + label{display:block;padding:10px 10px 10px 50px;background:radial-gradient(circle at 20px 50%, #fff 8px, #5dc2af 9px, #fff 10px)}</style>
  <ul>${['Buy milk', 'Write tests']
    .map(
      (t) =>
        `<li><input class="toggle" type="checkbox" onchange="out.textContent = document.querySelectorAll('.toggle:checked').length + ' done'"><label>${t}</label></li>`,
    )
    .join('')}</ul><p id="out"></p>`,
);

describe('controls drawn by components (real Chromium)', () => {
  const tab = useBrowserTab();
  let site: LocalSite;
  beforeAll(async () => {
    site = await serveLocalSite({ '/components': COMPONENTS, '/todos': CLEAR_TOGGLES });
  });
  afterAll(async () => {
    await site?.close();
  });

  const run = async (steps: string): Promise<RunResult> => {
    const interpreted = interpretQuery(`Open ${site.url}/components\n${steps}`);
    if (!interpreted.ok) throw new Error(interpreted.summary);
    return runInterpreter({
      page: tab.page,
      steps: interpreted.steps,
      log: new AgentLog(),
      limits: { navigationTimeoutMs: 5000, actionTimeoutMs: 2500, assertionTimeoutMs: 1200 },
    });
  };
  const failures = (result: RunResult) => result.steps.filter((s) => s.status !== 'passed');

  it('types into a field whose input the component hides until focused, named by the label around it', async () => {
    const result = await run(`Type "Ada" into the Nickname field\nThe page shows "Nickname Ada"`);
    expect(failures(result)).toEqual([]);
  });

  it('checks the hidden checkbox a component draws over, in the row named by slotted text', async () => {
    const result = await run(`Check the checkbox next to "Quarterly report"
      The checkbox next to "Quarterly report" is checked
      The checkbox next to "Lunch on Friday" is unchecked
      The page shows "1 selected"`);
    expect(failures(result)).toEqual([]);
    const wrong = await run(`The checkbox next to "Lunch on Friday" is checked`);
    expect(wrong.verdict).toBe('failed');
  });

  it('reads a radio whose state lives in ElementInternals by its checked property', async () => {
    const result = await run(`The "Monthly" radio button is checked
      Click "Yearly"
      The "Yearly" radio button is checked
      The "Monthly" radio button is not checked`);
    expect(failures(result)).toEqual([]);
    const wrong = await run(`The "Yearly" radio button is checked`);
    expect(wrong.verdict).toBe('failed');
    expect(wrong.steps[1]?.error).toContain('to be checked');
  });

  it('acts in a row named by its position: "the … in the last row"', async () => {
    const result = await run(`Check the checkbox in the last row
      The checkbox next to "Flight confirmation" is checked
      The checkbox next to "Lunch on Friday" is unchecked
      Check the checkbox in the first row
      The page shows "2 selected"`);
    expect(failures(result)).toEqual([]);
    const missing = await run(`Check the checkbox in the fifth row`);
    expect(missing.steps[1]?.error).toContain('the checkbox in the 5th row');
  });

  it('checks a transparent checkbox laid over the circle its row draws', async () => {
    const interpreted = interpretQuery(`Open ${site.url}/todos
      Check the checkbox next to "Write tests"
      The checkbox next to "Write tests" is checked
      The page shows "1 done"`);
    if (!interpreted.ok) throw new Error(interpreted.summary);
    const limits = { navigationTimeoutMs: 5000, actionTimeoutMs: 2500, assertionTimeoutMs: 1200 };
    const result = await runInterpreter({
      page: tab.page,
      steps: interpreted.steps,
      log: new AgentLog(),
      limits,
    });
    expect(failures(result)).toEqual([]);
    const wrong = interpretQuery(`Open ${site.url}/todos\nThe checkbox next to "Buy milk" is checked`);
    if (!wrong.ok) throw new Error(wrong.summary);
    const failed = await runInterpreter({ page: tab.page, steps: wrong.steps, log: new AgentLog(), limits });
    expect(failed.verdict).toBe('failed');
  });

  it('reads list items whose text passes through nested slots', async () => {
    const result = await run(`There are 3 items\nThe second item contains "Quarterly report"`);
    expect(failures(result)).toEqual([]);
    const wrong = await run(`The first item contains "Quarterly report"`);
    expect(wrong.steps[1]?.error).toContain('its text was "Lunch on Friday"');
  });
});
