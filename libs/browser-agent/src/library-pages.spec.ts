import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parseInstructions } from './instruction-parser.js';
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

/** A board whose cards move with HTML5 native drag and drop only (no mouse handlers). */
const BOARD = `<section id="todo" aria-label="To do"><h2>To do</h2><div class="card" draggable="true">Fix bug</div><div class="card" draggable="true">Write docs</div></section>
<section id="done" aria-label="Done"><h2>Done</h2></section><p id="log">-</p>
<script>
  for (const card of document.querySelectorAll('.card')) card.addEventListener('dragstart', (e) => e.dataTransfer.setData('text/plain', card.textContent));
  for (const col of document.querySelectorAll('section')) {
    col.addEventListener('dragover', (e) => e.preventDefault());
    col.addEventListener('drop', (e) => {
      e.preventDefault();
      const text = e.dataTransfer.getData('text/plain');
      col.appendChild([...document.querySelectorAll('.card')].find((c) => c.textContent === text));
      log.textContent = 'Moved ' + text + ' to ' + col.getAttribute('aria-label');
    });
  }
</script>`;

describe('pages built as component libraries build them (real Chromium)', () => {
  const tab = useBrowserTab();
  let site: LocalSite;

  beforeAll(async () => {
    site = await serveLocalSite({
      '/account': page(
        'Account',
        `<p id="state">Active</p><button id="del">Delete account</button>
         <div role="dialog" id="dlg" hidden><h2>Delete account?</h2><button id="cancel">Cancel</button> <button id="yes">Yes, delete it</button></div>
         <script>
           del.addEventListener('click', () => { dlg.hidden = false; });
           cancel.addEventListener('click', () => { dlg.hidden = true; });
           yes.addEventListener('click', () => { dlg.hidden = true; state.textContent = 'Deleted'; });
         </script>`,
      ),
      '/board': page('Board', BOARD),
      // Cards that say they can be dragged but nothing takes their drop.
      '/dead-board': page(
        'Dead board',
        `<section aria-label="To do"><h2>To do</h2><div draggable="true">Fix bug</div></section><section aria-label="Done"><h2>Done</h2></section>`,
      ),
      '/apply': page(
        'Apply',
        `<label for="cv">Attach your CV</label> <input id="cv" type="file"><p id="out">-</p>
         <script>cv.addEventListener('change', async () => {
           const file = cv.files[0];
           out.textContent = file.name + ' ' + (await file.text()).slice(0, 8) + ' ' + file.size;
         });</script>`,
      ),
      '/signup': page(
        'Sign up',
        `<fieldset><legend>Plan</legend><label><input type="radio" name="plan" value="Free" checked> Free</label>
           <label><input type="radio" name="plan" value="Team"> Team</label></fieldset>
         <p>Volume</p><input id="volume" type="range" min="0" max="100" step="10" value="50"><p>Volume: <span id="v">50</span></p>
         <script>volume.addEventListener('input', () => { v.textContent = volume.value; });</script>`,
      ),
      '/feedback': page(
        'Feedback',
        `<label for="notes">Notes</label><textarea id="notes" style="width:200px;height:50px;resize:both"></textarea>
         <textarea id="fixed" aria-label="Fixed" style="width:200px;height:50px;resize:none"></textarea>`,
      ),
      '/welcome': page(
        'Sign up',
        `<form id="f"><label>First name <input name="first"></label><label>Last name <input name="last"></label>
           <label>Email <input name="email" type="email"></label><label>Password <input name="pw" type="password"></label>
           <fieldset><legend>Plan</legend><label><input type="radio" name="plan" value="Free"> Free</label><label><input type="radio" name="plan" value="Pro" checked> Pro</label></fieldset>
           <label><input type="checkbox" name="terms" required> I accept the terms</label><button>Create account</button></form>
         <p id="out"></p><button type="button" id="trips">Search trips</button>
         <script>f.addEventListener('submit', (e) => { e.preventDefault(); const d = new FormData(f);
           out.textContent = 'Welcome ' + d.get('first') + ' ' + d.get('last') + ' (' + d.get('email') + '), you are on the ' + d.get('plan') + ' plan.'; });
           trips.addEventListener('click', () => { out.textContent = 'No trips yet.'; });</script>`,
      ),
      // An accordion panel caught collapsing: height 0, overflow hidden, not yet display: none.
      '/collapsing': page(
        'Collapsing',
        `<div style="height:0;overflow:hidden;transition:none"><div>Orders ship within 2 business days.</div></div><p>Open</p>`,
      ),
      '/editor': page(
        'Editor',
        `<div role="toolbar"><button id="bullets" title="Bullets">•</button></div><p id="state">off</p>
         <script>bullets.addEventListener('click', () => { bullets.classList.toggle('active'); state.textContent = bullets.classList.contains('active') ? 'on' : 'off'; });</script>`,
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

  it('clicks the control a bare imperative names ("delete the account", "cancel the confirmation")', async () => {
    const outcome = await run(
      'Open $SITE/account\ndelete the account\ncancel the confirmation\nThe page says "Active"\ndelete the account and confirm it in the popup\nThe page says "Deleted"',
    );
    expect(outcome.verdict).toBe('succeeded');
  });

  it('fails, never clicks something else, when no control has the name', async () => {
    const outcome = await run('Open $SITE/account\nArchive the account');
    expect(outcome.verdict).toBe('failed');
    expect(outcome.steps[1]?.error).toMatch(/no element matches "archive account"/i);
  });

  it('drags a card with HTML5 drag and drop onto a column named without its noun, and reads the column', async () => {
    const outcome = await run(
      'Open $SITE/board\nDrag "Fix bug" to the Done column\nThe Done column contains "Fix bug"\nThe To do column does not contain "Fix bug"',
    );
    expect(outcome.verdict).toBe('succeeded');
    expect(await tab.page.$eval('#log', (el) => el.textContent)).toBe('Moved Fix bug to Done');
  });

  it('fails a drag the page does not take, instead of passing it as done', async () => {
    const outcome = await run('Open $SITE/dead-board\nDrag "Fix bug" to the Done column');
    expect(outcome.verdict).toBe('failed');
    expect(outcome.steps[1]?.error).toMatch(/the page did not change: nothing took the drop/);
  });

  it('uploads a file it makes up with the name asked for', async () => {
    const outcome = await run('Open $SITE/apply\nUpload a file named "notes.txt" to "Attach your CV"');
    expect(outcome.verdict).toBe('succeeded');
    expect(await tab.page.$eval('#out', (el) => el.textContent)).toMatch(/^notes\.txt A test f \d+$/);
  });

  it('never reads a file of the machine, whatever name the test gives', async () => {
    // A path is no file name: the step is not read as an upload at all.
    for (const query of ['Upload the file "/etc/passwd"', 'Upload "../../etc/hosts.txt"'])
      expect(parseInstructions(query).steps.filter((s) => s.action === 'upload')).toEqual([]);
    const outcome = await run('Open $SITE/apply\nUpload "passwd.txt"');
    expect(outcome.verdict).toBe('succeeded');
    expect(await tab.page.$eval('#out', (el) => el.textContent)).toMatch(/^passwd\.txt A test f/);
  });

  it('fills a radio group and a slider named by a legend and a paragraph, and reads a later form line as a check', async () => {
    const outcome = await run(
      'Open $SITE/signup\nPlan: Team\nSet Volume to 80\nVolume: {{value}}'.replace('{{value}}', '80'),
    );
    expect(outcome.verdict).toBe('succeeded');
    expect(
      await tab.page.$eval('input[value=Team]', (el) => (el as unknown as { checked: boolean }).checked),
    ).toBe(true);
    const wrong = await run('Open $SITE/signup\nSet Volume to 80\nVolume: 50');
    expect(wrong.verdict).toBe('failed');
    expect(wrong.steps[2]?.action).toBe('assertText');
  });

  it('turns a toolbar toggle on once, and leaves it on when asked again', async () => {
    const outcome = await run(
      'Open $SITE/editor\nTurn on the bullets\nTurn on the bullets\nThe page says "on"',
    );
    expect(outcome.verdict).toBe('succeeded');
    expect(outcome.steps[2]?.message).toMatch(/was already on/);
  });

  it('resizes a text area by its corner, and fails on one that cannot be resized', async () => {
    const outcome = await run('Open $SITE/feedback\nMake the Notes box taller by dragging its corner down');
    expect(outcome.verdict).toBe('succeeded');
    expect(outcome.steps[1]?.message).toMatch(/^resized the textbox "Notes" from (\d+)×56 to \1×(?!56)\d+$/);
    const fixed = await run('Open $SITE/feedback\nResize the Fixed text area so that the width is smaller');
    expect(fixed.verdict).toBe('failed');
    expect(fixed.steps[1]?.error).toMatch(/did not get smaller in width/);
  });

  it('signs up from one sentence, and reads what the page says in other words, but only said together', async () => {
    const query =
      'Open $SITE/welcome\nCreate an account for Tom Baker with tom@example.com and the password "S3cret!" on the Free plan, accepting the terms.\n';
    const outcome = await run(`${query}It should welcome Tom Baker (tom@example.com) on the Free plan.`);
    expect(outcome.verdict).toBe('succeeded');
    // "Pro" is on the page (a radio button's label), but not in the message that welcomes Tom.
    const wrong = await run(`${query}It should welcome Tom Baker (tom@example.com) on the Pro plan.`);
    expect(wrong.verdict).toBe('failed');
    expect(wrong.steps.at(-1)?.error).toMatch(/expected one part of the page to say/);
  });

  it("clicks the button a step's own words name when its first reading finds nothing", async () => {
    const outcome = await run('Open $SITE/welcome\nSearch trips\nThe page says "No trips yet."');
    expect(outcome.verdict).toBe('succeeded');
    expect(outcome.steps[1]?.message).toMatch(/the step's own words name that control/);
  });

  it('does not count text a panel has clipped away to nothing as visible', async () => {
    const shown = await run('Open $SITE/collapsing\n"Orders ship within 2 business days." should be visible');
    expect(shown.verdict).toBe('failed');
    const hidden = await run('Open $SITE/collapsing\n"Orders ship within 2 business days." should be hidden');
    expect(hidden.verdict).toBe('succeeded');
  });

  it('reads a quote that holds a quote as one value', () => {
    const [step] = parseInstructions('Verify the message "Moved "Fix bug" to Done" is shown').steps;
    expect(step).toMatchObject({ action: 'assertText', expected: 'Moved "Fix bug" to Done' });
  });
});
