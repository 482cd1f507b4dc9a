import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { useBrowserTab } from '../testing/browser-tab.js';
import { type LocalSite, serveLocalSite } from '../testing/local-site.js';
import { TODOMVC_ROUTES } from '../testing/todomvc-pages.js';
import { AgentLog } from './agent-log.js';
import { interpretQuery, runInterpreter, type RunResult } from './interpreter-agent.js';
import type { RunLimits } from './run-limits.js';

const FAST: Partial<RunLimits> = {
  navigationTimeoutMs: 5000,
  actionTimeoutMs: 2500,
  assertionTimeoutMs: 1200,
};

const ADD = (app: string) => `Open $SITE/todomvc/${app}
  Type "Buy milk" into the "What needs to be done?" field and press Enter
  Type "Walk the dog" into the "What needs to be done?" field and press Enter
  Type "Write tests" into the "What needs to be done?" field and press Enter`;

describe('TodoMVC as frameworks render it, with the real todomvc-app-css (real Chromium)', () => {
  const tab = useBrowserTab();
  let site: LocalSite;

  beforeAll(async () => {
    site = await serveLocalSite(TODOMVC_ROUTES);
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
  }

  async function failsAt(query: string, at: string): Promise<string> {
    const result = await run(query);
    expect(result.verdict).toBe('failed');
    const failed = result.steps.find((s) => s.status === 'failed');
    expect(failed?.text).toBe(at);
    return failed?.error ?? '';
  }

  it.each(['vanilla', 'vue', 'react'])('marks all as complete and toggles all back (%s)', async (app) => {
    await passes(`${ADD(app)}
      Mark all as complete
      The page shows "0 items left"
      "Walk the dog" is completed
      Toggle all
      The page shows "3 items left"
      Check all the checkboxes
      There are 0 items left
      Uncheck every item
      The page shows "3 items left"`);
  });

  it('fails "mark all as complete" where there is no toggle-all control', async () => {
    await failsAt(`${ADD('no-toggle-all')}\nMark all as complete`, 'Mark all as complete');
  });

  it.each(['vanilla', 'vue', 'react'])('edits a to-do in place, then deletes it (%s)', async (app) => {
    await passes(`${ADD(app)}
      Double-click "Buy milk", change it to "Buy bread", press Enter, then delete it
      The page does not contain "Buy bread"
      The page does not contain "Buy milk"
      The page shows "2 items left"`);
  });

  it('writes into the one field there is (and presses Enter), removes an item by its x button', async () => {
    // The heading takes the click, so no field has the caret: the page's one text field is the place.
    const steps = `Open $SITE/todomvc/vanilla
      Click "todos"
      Write "Go to gym" and do enter
      Write "Cook dinner" and do enter
      Remove the "Go to gym" item with the x button`;
    await passes(`${steps}\nThe list should only have "Cook dinner"`);
    await failsAt(`${steps}\nThe list should only have "Go to gym"`, 'The list should only have "Go to gym"');
  });

  it('fails at "delete it" when the edit was not saved', async () => {
    const error = await failsAt(
      `${ADD('broken-edit')}\nDouble-click "Buy milk", change it to "Buy bread", press Enter, then delete it`,
      'delete it',
    );
    expect(error).toContain('Buy bread');
  });
});
