import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { useBrowserTab } from '../testing/browser-tab.js';
import { type LocalSite, serveLocalSite } from '../testing/local-site.js';
import { LOOKS_PAGE, PLAIN_PAGE } from '../testing/widget-pages.js';
import { AgentLog } from './agent-log.js';
import { interpretQuery, runInterpreter, type RunResult } from './interpreter-agent.js';

describe('controls named by how they look or behave (real Chromium)', () => {
  const tab = useBrowserTab();
  let site: LocalSite;
  beforeAll(async () => {
    site = await serveLocalSite({ '/looks': LOOKS_PAGE, '/plain': PLAIN_PAGE });
  });
  afterAll(async () => {
    await site?.close();
  });

  const run = async (path: string, steps: string): Promise<RunResult> => {
    const interpreted = interpretQuery(`Open ${site.url}${path}\n${steps}`);
    if (!interpreted.ok) throw new Error(interpreted.summary);
    return runInterpreter({
      page: tab.page,
      steps: interpreted.steps,
      log: new AgentLog(),
      limits: { navigationTimeoutMs: 5000, actionTimeoutMs: 1500, assertionTimeoutMs: 1200 },
    });
  };
  const failures = (result: RunResult) => result.steps.filter((s) => s.status !== 'passed');
  /** The step must fail, with a message that names what the page had instead. */
  const mustFail = async (step: string, ...shown: string[]) => {
    const result = await run('/plain', step);
    expect(result.verdict).toBe('failed');
    const error = result.steps[1]?.error ?? '';
    expect(error).toContain('closest on the page');
    for (const text of shown) expect(error).toContain(text);
  };

  it('clicks text that behaves as a link or a button (click handler, pointer cursor, tabindex)', async () => {
    const result = await run(
      '/looks',
      `Click the Help link\nThe page shows "Help opened"\nClick the "Show more" button\nThe page shows "More shown"`,
    );
    expect(failures(result)).toEqual([]);
    await mustFail('Click the Help link', 'button "Get help"');
  });

  it('closes a dialog with its x: an icon-only mark titled Close', async () => {
    const result = await run('/looks', `Click the x\nThe page shows "Dialog closed"`);
    expect(failures(result)).toEqual([]);
    const close = await run('/looks', `Click the close button\nThe page shows "Dialog closed"`);
    expect(failures(close)).toEqual([]);
    // Cancel is not "the x".
    await mustFail('Click the x', 'button "Cancel"');
  });

  it('presses toolbar buttons named by their icon class, value or tooltip', async () => {
    const result = await run(
      '/looks',
      `Click the Bold button\nThe page shows "Bold pressed"
      Click the bullet list button\nThe page shows "Bullet list pressed"
      Click the numbered list button\nThe page shows "Numbered list pressed"`,
    );
    expect(failures(result)).toEqual([]);
    await mustFail('Click the bullet list button', 'button "I"');
  });

  it('types into the comment editor (contenteditable) and the search box', async () => {
    const result = await run(
      '/looks',
      `Type "Nice post" into the comment editor\nThe page shows "Comment: Nice post"
      Type "mug" into the search box\nThe page shows "Searching mug"`,
    );
    expect(failures(result)).toEqual([]);
    await mustFail('Type "Nice post" into the comment editor', '"Name"');
    await mustFail('Type "mug" into the search box', '"Name"');
  });

  it('sets the slider and the spinner, named by what they are', async () => {
    const result = await run(
      '/looks',
      `Set the slider to 30\nThe page shows "Volume 30"\nType "7" into the spinner\nThe page shows "Quantity 7"`,
    );
    expect(failures(result)).toEqual([]);
    // "the slider" alone is a role: on a page without one the step fails naming it.
    const noSlider = await run('/plain', 'Set the slider to 30');
    expect(noSlider.verdict).toBe('failed');
    expect(noSlider.steps[1]?.error).toContain('slider');
    const noSpinner = await run('/plain', 'Type "7" into the spinner');
    expect(noSpinner.verdict).toBe('failed');
    expect(noSpinner.steps[1]?.error).toContain('spin');
  });

  it('asserts a dialog by its title, closes it, and fails when nothing closes it', async () => {
    const result = await run(
      '/looks',
      `The "Delete account?" dialog is visible\nClose the dialog\nThe "Delete account?" dialog is hidden`,
    );
    expect(failures(result)).toEqual([]);
    // The plain dialog has no close control (its Cancel does nothing): the dialog stays, the test fails.
    const stays = await run('/plain', `Close the dialog\nThe "Delete account?" dialog is hidden`);
    expect(stays.verdict).toBe('failed');
  });
});
